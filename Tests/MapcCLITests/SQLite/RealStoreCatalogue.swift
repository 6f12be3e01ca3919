import Foundation
import MapTestSupport
import Testing

/// The stores of `../shared/stores/SOURCES.md` whose model version the table names: the store
/// file, the model bundle and the version whose hashes the store holds.
struct RealStore: CustomTestStringConvertible, Sendable {
  var number: String
  var store: URL
  var bundle: URL
  var version: String
  /// Every version the table names as the store's: versions whose hashes are equal (Wire's
  /// 2.80.0 = 2.81.0), the first being `version`.
  var versions: [String] = []
  var testDescription: String { "#\(number) \(store.lastPathComponent) (\(version))" }

  static let all: [RealStore] = {
    guard let root = SharedPaths.stores,
      let text = try? String(contentsOf: root.appendingPathComponent("SOURCES.md"), encoding: .utf8)
    else { return [] }
    var result: [RealStore] = []
    for line in text.split(separator: "\n") where line.hasPrefix("| ") {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard cells.count > 5, Int(cells[1]) != nil else { continue }
      let repo = root.appendingPathComponent(cells[2].replacingOccurrences(of: "/", with: "+"))
      let quoted = cells[4].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter {
        $0.offset % 2 == 1
      }.map { String($0.element) }
      let storePath = cells[3].split(separator: "`", omittingEmptySubsequences: false)
      guard storePath.count > 1, quoted.count >= 2 else { continue }
      guard let bundle = resolve(quoted[0], in: repo) else { continue }
      let names = quoted.dropFirst().map {
        $0.hasSuffix(".xcdatamodel") ? String($0.dropLast(".xcdatamodel".count)) : $0
      }
      result.append(
        RealStore(
          number: cells[1], store: repo.appendingPathComponent(String(storePath[1])), bundle: bundle,
          version: names[0], versions: names))
    }
    return result
  }()

  /// A bundle path of the table, where `…/` stands for the folders before the last ones.
  static func resolve(_ path: String, in repo: URL) -> URL? {
    guard path.hasPrefix("…/") else { return repo.appendingPathComponent(path) }
    let tail = String(path.dropFirst(2))
    let found = FileManager.default.enumerator(atPath: repo.path)?.compactMap { $0 as? String }.first {
      $0.hasSuffix(tail)
    }
    return found.map { repo.appendingPathComponent($0) }
  }

  /// What python3's sqlite3 and plistlib read from the store (`core_data_store.py`).
  struct Independent: Decodable {
    var hashes: [String: String]
    var rows: [String: Int]
    var uuid: String
    var digestOK: Bool?
    var checksumOK: Bool?
    var integrity: String
  }

  func independent() throws -> Independent {
    let script = SharedPaths.packageRoot.appendingPathComponent("Tests/MapcCLITests/SQLite/core_data_store.py")
    let r = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, store.path])
    guard r.exitCode == 0 else { throw PythonFailed(message: r.stderr) }
    return try JSONDecoder().decode(Independent.self, from: Data(r.stdout.utf8))
  }

  struct PythonFailed: Error {
    var message: String
  }

  /// The bytes of the store and of each sibling file it has.
  func files() -> [String: Data] { Self.siblings(store.path) }

  /// The bytes of the store at `path` and of each sibling file it has, by suffix.
  static func siblings(_ path: String) -> [String: Data] {
    var result: [String: Data] = [:]
    for suffix in ["", "-wal", "-shm", "-journal"] {
      if let d = FileManager.default.contents(atPath: path + suffix) { result[suffix] = d }
    }
    return result
  }
}
