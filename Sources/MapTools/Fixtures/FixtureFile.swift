import Foundation
import MapJSONText
import MapRuntime
import MapSyntax

/// One `fixture.json` (Specs/test-fixtures.md): the migration it tests and its cases.
public struct FixtureFile: Sendable {
  /// What a fixture migrates with.
  public enum Subject: Sendable, Equatable {
    /// A mapping (mapping XML, `.xcmappingmodel` or plan), run with `mapc run`; `shared`: the path
    /// is in `../shared` (`sharedMapping`), not in the fixture's folder.
    case mapping(String, shared: Bool)
    /// A model bundle and, optionally, a folder of mappings, run with `mapc migrate`.
    case chain(model: String, mappings: String?)
  }

  /// One case: a store and what migrating it must give.
  public struct Case: Sendable, Equatable {
    public var store: String
    /// The expected store (JSON or SQLite), relative to the fixture's folder.
    public var expected: String?
    /// The exit status a failing case must end with.
    public var exitCode: Int32?
    /// Texts the standard error of a failing case must contain.
    public var stderrMentions: [String]
    /// Chains: the version to migrate to (default: the bundle's current version).
    public var to: String?
    /// More options for `mapc run` or `mapc migrate` (`--allow-data-loss`).
    public var arguments: [String]
    /// Chains: a store Core Data wrote at the target version, whose `sqlite_master` the
    /// result's must equal (instead of a fresh store mapc makes).
    public var coreDataStore: String? = nil
  }

  /// The fixture.json file.
  public var path: String
  /// Its folder, which the paths of the file are relative to.
  public var folder: String
  public var subject: Subject
  /// Why the fixture is known to fail: its cases are run and reported, and do not fail the run.
  public var knownIssue: String?
  public var cases: [Case]

  static let topKeys: Set<String> = ["mapping", "sharedMapping", "model", "mappings", "cases", "knownIssue", "comment"]
  static let caseKeys: Set<String> = [
    "store", "expected", "exitCode", "stderrMentions", "to", "arguments", "comment", "coreDataStore",
  ]

  /// Reads and checks `path`; every problem is a `test-fixture-invalid` diagnostic naming it.
  public static func read(_ path: String) throws(DiagnosticsError) -> FixtureFile {
    var document: JSONDocument? = nil
    // Every problem points at the value it is about (its line and column), or at the file.
    func invalid(_ message: String, at steps: [JSONDocument.Step] = []) -> DiagnosticsError {
      let location = steps.isEmpty ? nil : document?.location(of: steps)
      return DiagnosticsError([.error("test-fixture-invalid", message, at: location, file: path)])
    }
    do {
      // mapc's reader: a regular file only (a FIFO is refused, not waited on), at most the size
      // of an XML file (Specs/limits.md).
      let input = try InputBytes(contentsOf: path, regularFileOnly: true, maxBytes: Limits.xmlFileBytes)
      document = try JSONDocument(input.withUnsafeBytes { Array($0) }, file: path)
    } catch let error as JSONDocument.SyntaxError {
      throw error.diagnostics(id: "test-fixture-invalid")
    } catch {
      throw invalid("cannot read the fixture: \(SystemErrorText.describe(error))")
    }
    guard let json = document?.root, let keys = json.keys else {
      throw invalid("a fixture file is a JSON object", at: [])
    }
    if let unknown = keys.filter({ !topKeys.contains($0) }).sorted().first {
      throw invalid(
        "unknown key '\(unknown)' (known: \(topKeys.sorted().joined(separator: ", ")))", at: [.key(unknown)])
    }
    let subject: Subject
    switch (json["mapping"], json["sharedMapping"], json["model"]) {
    case (let m?, nil, nil) where m.string != nil: subject = .mapping(m.string!, shared: false)
    case (nil, let m?, nil) where m.string != nil: subject = .mapping(m.string!, shared: true)
    case (nil, nil, let model?) where model.string != nil:
      guard json["mappings"] == nil || json["mappings"]?.string != nil else {
        throw invalid("'mappings' is a folder's path", at: ["mappings"])
      }
      subject = .chain(model: model.string!, mappings: json["mappings"]?.string)
    default:
      throw invalid("give exactly one of 'mapping', 'sharedMapping' (strings) and 'model' (a .xcdatamodeld)")
    }
    if case .mapping = subject, json["mappings"] != nil {
      throw invalid("'mappings' is only used with 'model' (a chain)", at: ["mappings"])
    }
    guard let list = json["cases"]?.array, !list.isEmpty else {
      throw invalid("'cases' is a non-empty array", at: ["cases"])
    }
    var cases: [Case] = []
    for (i, c) in list.enumerated() {
      let at = "cases[\(i)]"
      let here: [JSONDocument.Step] = ["cases", .index(i)]
      guard let present = c.keys else { throw invalid("\(at) is not an object", at: here) }
      if let unknown = present.filter({ !caseKeys.contains($0) }).sorted().first {
        throw invalid(
          "\(at): unknown key '\(unknown)' (known: \(caseKeys.sorted().joined(separator: ", ")))",
          at: here + [.key(unknown)])
      }
      guard let store = c["store"]?.string else { throw invalid("\(at) has no 'store' (a string)", at: here) }
      let expected = c["expected"]?.string
      // A number whose value is a whole Int32 (`2`, `2.0`), as the fixture format has always read it.
      let exit = c["exitCode"]?.number.flatMap { Int32(exactly: $0) }
      if c["exitCode"] != nil && exit == nil {
        throw invalid("\(at): 'exitCode' is an integer", at: here + ["exitCode"])
      }
      if (expected == nil) == (exit == nil) {
        throw invalid("\(at) gives exactly one of 'expected' (a store) and 'exitCode'", at: here)
      }
      if exit == 0 {
        throw invalid("\(at): a case that succeeds gives 'expected', not 'exitCode': 0", at: here + ["exitCode"])
      }
      guard c["stderrMentions"] == nil || c["stderrMentions"]?.strings != nil else {
        throw invalid("\(at): 'stderrMentions' is an array of strings", at: here + ["stderrMentions"])
      }
      guard c["arguments"] == nil || c["arguments"]?.strings != nil else {
        throw invalid("\(at): 'arguments' is an array of strings", at: here + ["arguments"])
      }
      if expected != nil && c["stderrMentions"] != nil {
        throw invalid("\(at): 'stderrMentions' is only used with 'exitCode'", at: here + ["stderrMentions"])
      }
      guard c["to"] == nil || c["to"]?.string != nil else {
        throw invalid("\(at): 'to' is a version name", at: here + ["to"])
      }
      if c["to"] != nil, case .mapping = subject {
        throw invalid("\(at): 'to' is only used with 'model' (a chain)", at: here + ["to"])
      }
      guard c["coreDataStore"] == nil || c["coreDataStore"]?.string != nil else {
        throw invalid("\(at): 'coreDataStore' is a store's path", at: here + ["coreDataStore"])
      }
      if c["coreDataStore"] != nil, case .mapping = subject {
        throw invalid("\(at): 'coreDataStore' is only used with 'model' (a chain)", at: here + ["coreDataStore"])
      }
      if c["coreDataStore"] != nil && expected == nil {
        throw invalid("\(at): 'coreDataStore' goes with 'expected'", at: here + ["coreDataStore"])
      }
      // Exit statuses are 1–255; paths hold no NUL (the system would cut them short there).
      if let exit, !(1...255).contains(exit) { throw invalid("\(at): 'exitCode' is 1–255", at: here + ["exitCode"]) }
      for (key, value) in [("store", store), ("expected", expected), ("coreDataStore", c["coreDataStore"]?.string)] {
        if let value, value.isEmpty || value.utf8.contains(0) {
          throw invalid("\(at): '\(key)' is a path (not empty, no NUL character)", at: here + [.key(key)])
        }
      }
      cases.append(
        Case(
          store: store, expected: expected, exitCode: exit, stderrMentions: c["stderrMentions"]?.strings ?? [],
          to: c["to"]?.string, arguments: c["arguments"]?.strings ?? [],
          coreDataStore: c["coreDataStore"]?.string))
    }
    if let known = json["knownIssue"],
      !(known.string.map { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? false)
    {
      throw invalid("'knownIssue' says why the fixture fails (a non-empty string)", at: ["knownIssue"])
    }
    for key in ["mapping", "sharedMapping", "model", "mappings"] {
      if let value = json[key]?.string, value.isEmpty || value.utf8.contains(0) {
        throw invalid("'\(key)' is a path (not empty, no NUL character)", at: [.key(key)])
      }
    }
    let folder = PathText.folder(of: path)
    return FixtureFile(
      path: path, folder: folder.isEmpty ? "." : folder, subject: subject, knownIssue: json["knownIssue"]?.string,
      cases: cases)
  }

  /// A path of the file, relative to the fixture's folder.
  public func resolve(_ relative: String) -> String {
    relative.hasPrefix("/") ? relative : folder + "/" + relative
  }

  /// Every `fixture.json` in `paths` (a fixture.json file, or a folder searched at any depth),
  /// in path order; a path that does not exist is a `usage-path-not-found` error.
  public static func find(_ paths: [String]) throws(DiagnosticsError) -> [String] {
    var found: [String] = []
    for path in paths {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
        throw DiagnosticsError([.error("usage-path-not-found", "no such file or folder", at: nil, file: path)])
      }
      guard isFolder.boolValue else {
        found.append(path)
        continue
      }
      let base = path.hasSuffix("/") ? String(path.dropLast()) : path
      let walker = FileManager.default.enumerator(atPath: base)
      var here: [String] = []
      while let relative = walker?.nextObject() as? String {
        let name = (relative as NSString).lastPathComponent
        // Model bundles, mapping models and migrate's work folders hold no fixtures.
        if name.hasSuffix(".xcdatamodeld") || name.hasSuffix(".xcmappingmodel") || name.hasPrefix(".") {
          walker?.skipDescendants()
          continue
        }
        if name == "fixture.json" { here.append(base + "/" + relative) }
      }
      found += here.sorted()
    }
    var seen = Set<String>()
    return found.filter { seen.insert(($0 as NSString).standardizingPath).inserted }
  }
}
