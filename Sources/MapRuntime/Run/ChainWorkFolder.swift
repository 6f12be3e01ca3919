import Crypto
import Foundation

/// The folder beside a store where `mapc migrate` keeps the intermediate stores of a chain
/// (`.<store name>.mapc-migrate`, `Specs/migrate.md` §4), and its journal: the SHA-256 of the
/// original store and a key of the chain's plans. Each intermediate store is written
/// atomically, so one that exists is complete; a later run reuses them only when the journal
/// names the same store contents and the same chain, and otherwise starts over.
struct ChainWorkFolder {
  let storePath: String
  let path: String
  let journal: String

  init(storePath: String, chainKey: String) throws(MigrationFailure) {
    self.storePath = storePath
    let (folder, name) = splitPath(storePath)
    path = "\(folder)/.\(name).mapc-migrate"
    let digest: String
    do {
      let input = try InputBytes(contentsOf: storePath, regularFileOnly: true, maxBytes: Limits.storeFileBytes)
      digest = SHA256.hash(data: input.unsafeBytes).map { String(format: "%02x", $0) }.joined()
    } catch {
      throw MigrationFailure([MigrationError(error.code.rawValue, error.description, file: storePath)])
    }
    journal = "{\"store\": \"\(digest)\", \"chain\": \"\(chainKey)\"}\n"
  }

  func stepPath(_ k: Int) -> String { "\(path)/step-\(k).json" }

  /// Makes the folder ready and returns how many steps a killed run already completed for
  /// this store and chain (0 when starting over). Removes what a killed run left that cannot
  /// be reused: partial temporary files, a folder for other contents, and the temporary
  /// files of an interrupted final write beside the store.
  func prepare(stepCount: Int) throws(MigrationFailure) -> Int {
    let fm = FileManager.default
    Self.removeTemporaryFiles(in: splitPath(storePath).folder, prefix: ".\(splitPath(storePath).name).mapc-")
    var isFolder: ObjCBool = false
    if fm.fileExists(atPath: path, isDirectory: &isFolder) {
      let recorded = fm.contents(atPath: "\(path)/journal.json").map { String(decoding: $0, as: UTF8.self) }
      if isFolder.boolValue, recorded == journal {
        Self.removeTemporaryFiles(in: path, prefix: ".")
        var done = 0
        while done + 1 < stepCount, fm.fileExists(atPath: stepPath(done + 1)) { done += 1 }
        for k in (done + 1)..<(max(stepCount, done + 1) + 1) { try? fm.removeItem(atPath: stepPath(k)) }
        return done
      }
      do { try fm.removeItem(atPath: path) } catch { throw failure("remove the leftover folder", error) }
    }
    do {
      try fm.createDirectory(atPath: path, withIntermediateDirectories: false)
      let file = try AtomicFileWriter(target: "\(path)/journal.json")
      let bytes = Array(journal.utf8)
      let written = bytes.withUnsafeBytes { write(file.fileDescriptor, $0.baseAddress, $0.count) }
      guard written == bytes.count else {
        throw StoreIOError.system(errno, path: "\(path)/journal.json", operation: "write")
      }
      try file.commit()
    } catch {
      throw failure("create the work folder", error)
    }
    return 0
  }

  /// Removes the folder once the store holds the final result.
  func remove() {
    try? FileManager.default.removeItem(atPath: path)
    _ = WriteCalls.syncFolder(of: path)  // best effort: the migrated store is already in place
  }

  private func failure(_ what: String, _ error: any Error) -> MigrationFailure {
    MigrationFailure([MigrationError("run-write", "cannot \(what) \(path): \(error)", file: storePath)])
  }

  /// `AtomicFileWriter`'s temporary files `<prefix>…mapc-<pid>-….tmp` in `folder` whose writer
  /// is gone (`TemporaryFiles.removeStale`: another process's live file is kept).
  static func removeTemporaryFiles(in folder: String, prefix: String) {
    TemporaryFiles.removeStale(folder: folder) { ("." + $0 + ".mapc-").hasPrefix(prefix) }
  }
}
