import Foundation
import MapTestSupport
import Testing

/// The folders of MapRuntime use each other only as `Specs/architecture.md`'s layering table
/// allows: a folder uses another when it names a type declared at the top level of a file there.
/// A new dependency fails this test until the table (and the picture) say it is intended.
@Suite struct LayeringTests {
  static let declaration = try! NSRegularExpression(
    pattern:
      "^(?:@\\w+(?:\\([^)]*\\))?\\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect)\\s+)*(?:struct|class|enum|protocol|actor|typealias)\\s+(\\w+)",
    options: [.anchorsMatchLines])
  static let folderName = try! NSRegularExpression(pattern: "`([A-Za-z]+)/`")
  static let word = try! NSRegularExpression(pattern: "\\b[A-Z][A-Za-z0-9_]*\\b")

  /// (folder, text without comments) of every Swift file of MapRuntime.
  static func files() throws -> [(folder: String, text: String)] {
    var result: [(String, String)] = []
    for (relative, text) in try SharedPaths.swiftFiles(under: "Sources/MapRuntime") {
      guard let folder = relative.split(separator: "/").first, relative.contains("/") else { continue }
      let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
        guard let r = line.range(of: "//") else { return line }
        return line[..<r.lowerBound]
      }.joined(separator: "\n")
      result.append((String(folder), code))
    }
    return result
  }

  /// Which folders each folder uses.
  static func edges() throws -> [String: Set<String>] {
    let files = try files()
    var declaredIn: [String: Set<String>] = [:]
    for (folder, text) in files {
      for m in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        declaredIn[(text as NSString).substring(with: m.range(at: 1)), default: []].insert(folder)
      }
    }
    var uses: [String: Set<String>] = [:]
    for (folder, text) in files {
      uses[folder, default: []].formUnion([])
      for m in word.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        for other in declaredIn[(text as NSString).substring(with: m.range), default: []] where other != folder {
          uses[folder, default: []].insert(other)
        }
      }
    }
    return uses
  }

  /// The table between `<!-- layering -->` and `<!-- end layering -->`: `| Folder | A, B |`.
  static func allowed() throws -> [String: Set<String>] {
    let spec = try String(
      contentsOf: SharedPaths.packageRoot.appendingPathComponent("Specs/architecture.md"), encoding: .utf8)
    let start = try #require(spec.range(of: "<!-- layering -->"))
    let end = try #require(spec.range(of: "<!-- end layering -->"))
    var table: [String: Set<String>] = [:]
    for line in spec[start.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 2 else { continue }
      // A folder is written `Name/`; anything else in a cell (an explanation) is not a folder.
      let names = { (cell: String) -> Set<String> in
        let ns = cell as NSString
        return Set(
          folderName.matches(in: cell, range: NSRange(location: 0, length: ns.length)).map {
            ns.substring(with: $0.range(at: 1))
          })
      }
      table[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`/"))] = names(cells[1]).union(
        cells.count > 2 ? names(cells[2]) : [])
    }
    return table
  }

  @Test func foldersUseOnlyWhatTheTableAllows() throws {
    let edges = try Self.edges()
    let allowed = try Self.allowed()
    #expect(edges.count >= 10, "found only \(edges.count) folders")
    for (folder, used) in edges.sorted(by: { $0.key < $1.key }) {
      let permitted = try #require(
        allowed[folder], "Sources/MapRuntime/\(folder) is not in the layering table of Specs/architecture.md")
      let extra = used.subtracting(permitted)
      #expect(extra.isEmpty, "\(folder)/ uses \(extra.sorted()) which the layering table does not allow")
      let stale = permitted.subtracting(used)
      #expect(
        stale.isEmpty, "the layering table lets \(folder)/ use \(stale.sorted()), which it no longer does: remove them")
    }
  }

  /// MapRuntime names no store format (issue 26): no type MapJSON declares, and no identifier
  /// with `JSON` in it, appears in the code of any file of MapRuntime (comments and the words of
  /// string literals aside); MapSQLite names none of MapJSON's types either.
  @Test func theRuntimeAndMapSQLiteNameNoJSONType() throws {
    var jsonTypes: Set<String> = []
    for (_, text) in try SharedPaths.swiftFiles(under: "Sources/MapJSON") {
      for m in Self.declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        jsonTypes.insert((text as NSString).substring(with: m.range(at: 1)))
      }
    }
    #expect(jsonTypes.contains("JSONScanner") && jsonTypes.contains("JSONStoreFormat"), "\(jsonTypes.sorted())")
    let jsonWord = try NSRegularExpression(pattern: "[A-Za-z0-9_]*JSON[A-Za-z0-9_]*")
    let literal = try NSRegularExpression(pattern: #""(?:[^"\\\n]|\\.)*""#)
    for module in ["MapRuntime", "MapSQLite"] {
      for (relative, text) in try SharedPaths.swiftFiles(under: "Sources/\(module)") {
        let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
          let noComment = line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
          return literal.stringByReplacingMatches(
            in: noComment, range: NSRange(noComment.startIndex..., in: noComment), withTemplate: "\"\"")
        }.joined(separator: "\n")
        let words = Set(
          Self.word.matches(in: code, range: NSRange(code.startIndex..., in: code)).map {
            (code as NSString).substring(with: $0.range)
          })
        let jsonWords = Set(
          jsonWord.matches(in: code, range: NSRange(code.startIndex..., in: code)).map {
            (code as NSString).substring(with: $0.range)
          })
        let named = words.filter { jsonTypes.contains($0) }.union(jsonWords)
        #expect(named.isEmpty, "Sources/\(module)/\(relative) names \(named.sorted())")
      }
    }
  }

  /// With MAPC_PRINT_LAYERING=1, prints the edges found (to update the table).
  @Test func printWhenAsked() throws {
    guard ProcessInfo.processInfo.environment["MAPC_PRINT_LAYERING"] == "1" else { return }
    for (folder, used) in try Self.edges().sorted(by: { $0.key < $1.key }) {
      print("LAYER | `\(folder)/` | \(used.sorted().map { "`\($0)/`" }.joined(separator: ", ")) |")
    }
  }
}
