import Foundation

/// The private folder of a fused chain's scratch stores (`ChainRun`): `mapc-chain-<random>` in
/// the temporary folder (`TMPDIR`), one subfolder per intermediate store so that whatever files
/// a format keeps beside a store (SQLite's external data folder) are removed with it. SIGINT,
/// SIGTERM and SIGHUP remove it whole; the run removes it when it ends, however it ends.
package struct ScratchFolder: Sendable {
  package let path: String

  /// `name`: the folder's name before its random part (`mapc-chunks` for a run in chunks).
  package init(name: String = "mapc-chain") throws(MigrationFailure) {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
    try Self.make(path)
    TemporaryFiles.registerFolder(path)
  }

  /// Where intermediate store `k` (the input of step `k`) is written; its subfolder is made.
  func storePath(_ k: Int) throws(MigrationFailure) -> String {
    let folder = "\(path)/\(k)"
    try Self.make(folder)
    return "\(folder)/step-\(k).json"
  }

  private static func make(_ folder: String) throws(MigrationFailure) {
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw MigrationFailure([
        MigrationError(
          "run-write", "cannot create the scratch folder \(folder): \(SystemErrorText.describe(error))", file: folder)
      ])
    }
  }

  /// Removes intermediate store `k`, once the step that reads it has run.
  func removeStore(_ k: Int) { try? FileManager.default.removeItem(atPath: "\(path)/\(k)") }

  package func remove() {
    TemporaryFiles.unregisterFolder()
    try? FileManager.default.removeItem(atPath: path)
  }
}
