#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation

/// The private folder of a fused chain's scratch stores (`ChainRun`): `mapc-chain-<pid>-<random>`
/// in the temporary folder (`TMPDIR`), one subfolder per intermediate store so that whatever
/// files a format keeps beside a store (SQLite's external data folder) are removed with it.
/// SIGINT, SIGTERM and SIGHUP remove it whole; the run removes it when it ends, however it ends.
/// SIGKILL leaves it: the next scratch folder of the same name made removes it, once the process
/// its name gives has ended (`removeStale`).
package struct ScratchFolder: Sendable {
  package let path: String

  /// `name`: the folder's name before its process id and random part (`mapc-chunks` for a run
  /// in chunks).
  package init(name: String = "mapc-chain") throws(MigrationFailure) {
    let temporary = FileManager.default.temporaryDirectory
    Self.removeStale(in: temporary.path, name: name)
    path = temporary.appendingPathComponent("\(name)-\(getpid())-\(UUID().uuidString)").path
    try Self.make(path)
    TemporaryFiles.registerFolder(path)
  }

  /// Removes the folders `<name>-<pid>-<random>` of `folder` that this user owns and whose
  /// process has ended (a run killed with SIGKILL); a folder whose process is alive, or whose
  /// process id was given again to another, is kept.
  static func removeStale(in folder: String, name: String) {
    let prefix = name + "-"
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where entry.hasPrefix(prefix) {
      let parts = entry.dropFirst(prefix.count).split(separator: "-", maxSplits: 1)
      let path = folder + "/" + entry
      guard parts.count == 2, TemporaryFiles.isLeft(path, byProcess: parts[0], type: S_IFDIR) else { continue }
      try? FileManager.default.removeItem(atPath: path)
    }
  }

  /// Where intermediate store `k` (the input of step `k`) is written; its subfolder is made.
  func storePath(_ k: Int) throws(MigrationFailure) -> String {
    let folder = "\(path)/\(k)"
    try Self.make(folder)
    return "\(folder)/step-\(k).json"
  }

  /// Makes `folder` and the folders above it that are missing (`run-write` when it cannot).
  static func make(_ folder: String) throws(MigrationFailure) {
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

  package func remove() { TemporaryFiles.removeFolder(path) }
}
