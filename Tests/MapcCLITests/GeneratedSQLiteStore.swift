import Foundation
import MapTestSupport

/// A large SQLite store for tests that need one (progress over 200,000 rows): python3 grows an
/// example's JSON store with `generator` (a script that reads the example from `sys.argv[1]`
/// and writes the grown store to `sys.argv[2]`), `mapc store import --quiet` makes it an SQLite
/// store of `model`, and python3's sqlite3 counts its entity rows (Core Data's own tables,
/// `Z_PRIMARYKEY` and the like, excepted): the count the tests expect, from outside mapc.
struct GeneratedSQLiteStore: Sendable {
  /// The folders made so far, removed at exit (under `lock`).
  nonisolated(unsafe) static var madeFolders: [String] = []
  static let lock = NSLock()

  let folder: URL
  let path: String
  /// The store's entity rows, as python3's sqlite3 counts them.
  let rows: Int

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Made in a new temporary folder named after `name`, removed when the test process exits
  /// (the stores are made once per suite, which has no end of its own to remove them at).
  static func make(name: String, example: URL, model: String, generator: String) -> Result<Self, Failure> {
    guard let python3 else { return .failure(Failure(description: "python3 is not installed")) }
    do {
      let folder = try FileManagerTemp.folder(name)
      lock.withLock {
        if madeFolders.isEmpty {
          atexit {
            GeneratedSQLiteStore.lock.withLock { GeneratedSQLiteStore.madeFolders.forEach(FileManagerTemp.remove) }
          }
        }
        madeFolders.append(folder.path)
      }
      let json = folder.appendingPathComponent("store.json").path
      let g = runTool(python3, ["-c", generator, example.path, json])
      guard g.exitCode == 0 else { return .failure(Failure(description: "generator: \(g.stderr)")) }
      let sqlite = folder.appendingPathComponent("store.sqlite").path
      let imported = runMapc(["store", "import", json, "--model", model, "-o", sqlite, "--quiet"])
      guard imported.exitCode == 0, imported.stderr.isEmpty else {
        return .failure(Failure(description: "store import --quiet: \(imported.exitCode) \(imported.stderr)"))
      }
      let count = """
        import sqlite3, sys
        db = sqlite3.connect(sys.argv[1])
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        print(sum(db.execute('SELECT COUNT(*) FROM "%s"' % n).fetchone()[0] for n in names
                  if n.startswith("Z") and not n.startswith("Z_")))
        """
      let c = runTool(python3, ["-c", count, sqlite])
      guard c.exitCode == 0, let rows = Int(c.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        return .failure(Failure(description: "count: \(c.stderr)"))
      }
      return .success(Self(folder: folder, path: sqlite, rows: rows))
    } catch {
      return .failure(Failure(description: "\(error)"))
    }
  }
}
