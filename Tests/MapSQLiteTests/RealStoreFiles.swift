import Foundation
import MapTestSupport

/// The Core Data SQLite stores of `../shared/stores` and `../shared/swiftdata` (every file that
/// starts with SQLite's header, beside its `-wal` when it has one), and what python3 reads from
/// each (`store_facts.py`).
struct RealStoreFile: CustomStringConvertible, Sendable {
  var path: String
  var description: String { path.split(separator: "/").suffix(2).joined(separator: "/") }

  static let all: [RealStoreFile] = {
    var result: [RealStoreFile] = []
    for root in [SharedPaths.stores, SharedPaths.swiftdata].compactMap({ $0 }) {
      let walk = FileManager.default.enumerator(atPath: root.path)
      while let relative = walk?.nextObject() as? String {
        let path = root.appendingPathComponent(relative).path
        guard !relative.hasSuffix("-wal"), !relative.hasSuffix("-shm"),
          let handle = FileHandle(forReadingAtPath: path)
        else { continue }
        let prefix = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        if prefix == Data("SQLite format 3\0".utf8) { result.append(RealStoreFile(path: path)) }
      }
    }
    return result.sorted { $0.path < $1.path }
  }()

  /// What python3's sqlite3 and plistlib read from the store.
  struct Facts: Decodable {
    var rows: [String: Int]
    var hashes: [String: String]
    var cache: Bool
  }

  func facts() throws -> Facts {
    let script = SharedPaths.packageRoot.appendingPathComponent("Tests/MapSQLiteTests/store_facts.py").path
    let r = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, path])
    guard r.exitCode == 0 else { throw PythonFailed(message: r.stderr) }
    return try JSONDecoder().decode(Facts.self, from: Data(r.stdout.utf8))
  }

  struct PythonFailed: Error { var message: String }
}
