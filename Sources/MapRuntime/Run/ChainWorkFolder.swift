import Crypto
import Foundation

/// The folder beside a store where `mapc migrate` keeps the intermediate stores of a chain
/// (`.<store name>.mapc-migrate`, `Specs/migrate.md` §4), and its journal: the SHA-256 of the
/// original store and a key of the chain's plans. Each intermediate store is written
/// atomically, so one that exists is complete, and its SHA-256 is recorded beside it once it
/// is written (`step-N.sha256`); a later run reuses them only when the journal names the same
/// store contents and the same chain, and each one's bytes still have the recorded digest
/// (otherwise it starts over from the original store).
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
      throw MigrationFailure(error, file: storePath)
    }
    journal = "{\"store\": \"\(digest)\", \"chain\": \"\(chainKey)\"}\n"
  }

  func stepPath(_ k: Int) -> String { "\(path)/step-\(k).json" }

  /// Whether a killed run with checkpoints left a work folder beside the store.
  static func exists(storePath: String) -> Bool {
    let (folder, name) = splitPath(storePath)
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: "\(folder)/.\(name).mapc-migrate", isDirectory: &isFolder)
      && isFolder.boolValue
  }

  /// Where the SHA-256 of intermediate store `k` is recorded (hex, written once the store is).
  func digestPath(_ k: Int) -> String { "\(path)/step-\(k).sha256" }

  /// What `prepare` found: the steps a killed run completed that can be reused, and the
  /// intermediate store that was not trusted (its bytes differ from its recorded digest), when
  /// one made the run start over.
  struct Resume {
    var done: Int
    var untrusted: String?
  }

  /// Records the SHA-256 of intermediate store `k`, just written (atomically, after it).
  func recordDigest(step k: Int) throws(MigrationFailure) {
    guard let digest = Self.sha256(ofFile: stepPath(k)) else {
      throw failure(
        "read back the intermediate store", StoreIOError.system(errno, path: stepPath(k), operation: "read"))
    }
    do {
      try AtomicFileWriter.replaceContents(of: digestPath(k), with: digest + "\n")
    } catch {
      throw failure("record the digest of the intermediate store", error)
    }
    // A complete intermediate store: a run stopped from now on leaves the folder to resume from.
    TemporaryFiles.unregisterFolder(path)
  }

  /// The SHA-256 of a file's bytes, in hex; nil when it cannot be read.
  static func sha256(ofFile file: String) -> String? { FileDigest.sha256(ofFile: file) }

  /// Makes the folder ready and says how many steps a killed run already completed for
  /// this store and chain (0 when starting over). Removes what a killed run left that cannot
  /// be reused: partial temporary files, a folder for other contents, the temporary files of
  /// an interrupted final write beside the store, and an intermediate store whose digest was
  /// not recorded yet (its step runs again). An intermediate store whose bytes differ from its
  /// recorded digest (damaged, or another file put in its place) is not trusted: every
  /// intermediate store is removed and the chain starts over from the original store.
  func prepare(stepCount: Int) throws(MigrationFailure) -> Resume {
    let fm = FileManager.default
    Self.removeTemporaryFiles(in: splitPath(storePath).folder, prefix: ".\(splitPath(storePath).name).mapc-")
    var isFolder: ObjCBool = false
    if fm.fileExists(atPath: path, isDirectory: &isFolder) {
      let recorded = fm.contents(atPath: "\(path)/journal.json").map { String(decoding: $0, as: UTF8.self) }
      if isFolder.boolValue, recorded == journal {
        Self.removeTemporaryFiles(in: path, prefix: ".")
        var done = 0
        var untrusted: String? = nil
        while done + 1 < stepCount, fm.fileExists(atPath: stepPath(done + 1)) {
          // No digest yet: killed between writing the store and recording it; the step runs again.
          guard let data = fm.contents(atPath: digestPath(done + 1)) else { break }
          let recorded = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
          guard Self.sha256(ofFile: stepPath(done + 1)) == recorded else {
            untrusted = stepPath(done + 1)
            break
          }
          done += 1
        }
        if untrusted != nil { done = 0 }
        for k in (done + 1)..<(max(stepCount, done + 1) + 1) {
          try? fm.removeItem(atPath: stepPath(k))
          try? fm.removeItem(atPath: digestPath(k))
        }
        if done == 0 { removeOnSignal() }
        return Resume(done: done, untrusted: untrusted)
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
    removeOnSignal()
    return Resume(done: 0)
  }

  /// Removes the folder once the store holds the final result.
  func remove() {
    TemporaryFiles.removeFolder(path)
    _ = WriteCalls.syncFolder(of: path)  // best effort: the migrated store is already in place
  }

  /// Until an intermediate store is complete there is nothing to resume from: SIGINT, SIGTERM
  /// or SIGHUP remove the folder whole (a SIGKILL leaves it to the next run's `prepare`).
  private func removeOnSignal() { TemporaryFiles.registerFolder(path) }

  private func failure(_ what: String, _ error: any Error) -> MigrationFailure {
    MigrationFailure([
      MigrationError("run-write", "cannot \(what) \(path): \(SystemErrorText.describe(error))", file: storePath)
    ])
  }

  /// `AtomicFileWriter`'s temporary files `<prefix>…mapc-<pid>-….tmp` in `folder` whose writer
  /// is gone (`TemporaryFiles.removeStale`: another process's live file is kept).
  static func removeTemporaryFiles(in folder: String, prefix: String) {
    TemporaryFiles.removeStale(folder: folder) { ("." + $0 + ".mapc-").hasPrefix(prefix) }
  }
}
