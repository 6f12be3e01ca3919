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
/// its name gives has ended (`removeStale`). The signal handler removes one folder: one made
/// while another scratch folder is registered (a step in chunks of a fused chain, in the
/// chain's folder) goes inside that one, which is removed with it; until 2026-11-30 it took
/// the other's place, so a signal after it was removed left the chain's folder.
package struct ScratchFolder: Sendable {
  package let path: String
  /// Whether this folder is the one the signal handler removes (not one inside it).
  private let registered: Bool

  /// `name`: the folder's name before its process id and random part (`mapc-chunks` for a run
  /// in chunks).
  package init(name: String = "mapc-chain") throws(MigrationFailure) {
    let temporary = FileManager.default.temporaryDirectory.path
    // (Only another scratch folder: a chain's work folder beside the store stays its own.)
    let outer = TemporaryFiles.registeredFolder().flatMap {
      $0.hasPrefix(temporary + "/mapc-") && !$0.dropFirst(temporary.count + 1).contains("/") ? $0 : nil
    }
    let parent = outer ?? temporary
    if outer == nil { Self.removeStale(in: parent, name: name) }
    path = parent + "/\(name)-\(getpid())-\(UUID().uuidString)"
    try Self.make(path)
    registered = outer == nil
    if registered { TemporaryFiles.registerFolder(path) }
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
    if registered { TemporaryFiles.unregisterFolder() }
    try? FileManager.default.removeItem(atPath: path)
  }
}
