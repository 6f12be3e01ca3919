import Foundation
import MapTestSupport
import Testing

/// The folders of every module use each other only as `Specs/architecture.md`'s layering tables
/// allow (one table per module), and never in a cycle, at any depth: a folder uses another when
/// it names a type declared at the top level of a file there. Folders are compared at every
/// depth: `Interpreter/` (its own files) and `Interpreter/Passes/` are two folders, and with
/// subfolders counted in their parent (`Interpreter/Passes/` as `Interpreter/`) the graph must
/// be free of cycles too. A new dependency fails this test until the table (and the picture)
/// say it is intended; a cycle fails it even if the table lists it. Since a method an extension
/// adds is a use this cannot see, a type is extended only in the folder that declares it, save
/// conformances to the extending folder's own protocols and the exceptions the spec lists.
@Suite struct LayeringTests {
  static let declaration = try! NSRegularExpression(
    pattern:
      "^(?:@\\w+(?:\\([^)]*\\))?\\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect)\\s+)*(?:struct|class|enum|protocol|actor|typealias)\\s+(\\w+)",
    options: [.anchorsMatchLines])
  /// A folder in a table: `Name/`, `Name/Sub/`, or `./` for the module's top folder.
  static let folderName = try! NSRegularExpression(pattern: "`((?:[A-Za-z]+/)+|\\./)`")
  static let word = try! NSRegularExpression(pattern: "\\b[A-Z][A-Za-z0-9_]*\\b")
  /// The modules the tables must cover at least (any other Swift target under Sources is covered too).
  static let requiredModules = [
    "MapRuntime", "MapSyntax", "MapModelReader", "MapCompiler", "MapTools", "MapSQLite", "MapcKit", "MapcCLI",
  ]

  /// The Swift targets: folders of `Sources/` holding Swift files.
  static func modules() throws -> [String] {
    let root = SharedPaths.packageRoot.appendingPathComponent("Sources")
    return try FileManager.default.contentsOfDirectory(atPath: root.path).sorted().filter {
      !(try SharedPaths.swiftFiles(under: "Sources/\($0)")).isEmpty
    }
  }

  /// A file's folder as the tables write it: `Interpreter/Passes/`, or `./` at the top.
  static func folder(ofFile relative: String) -> String {
    let parts = relative.split(separator: "/").dropLast()
    return parts.isEmpty ? "./" : parts.joined(separator: "/") + "/"
  }

  /// (folder, text without comments) of every Swift file of a module. A one-line string
  /// literal keeps only its interpolations (`"\\(Type.x)"` uses Type; "an XML file" uses no
  /// type called XML).
  static func files(_ module: String) throws -> [(folder: String, text: String)] {
    try SharedPaths.swiftFiles(under: "Sources/\(module)").map { relative, text in
      let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
        let line = withoutStringText(String(line))
        guard let r = line.range(of: "//") else { return line }
        return String(line[..<r.lowerBound])
      }.joined(separator: "\n")
      return (folder(ofFile: relative), code)
    }
  }

  static let stringLiteral = try! NSRegularExpression(pattern: #""(?:[^"\\]|\\.)*""#)
  static let interpolation = try! NSRegularExpression(pattern: #"\\\((?:[^()]|\([^()]*\))*\)"#)

  /// `line` with each one-line string literal replaced by its interpolations.
  static func withoutStringText(_ line: String) -> String {
    guard line.contains("\""), !line.contains("\"\"\"") else { return line }
    let ns = line as NSString
    var result = ""
    var last = 0
    for m in stringLiteral.matches(in: line, range: NSRange(location: 0, length: ns.length)) {
      result += ns.substring(with: NSRange(location: last, length: m.range.location - last))
      let literal = ns.substring(with: m.range) as NSString
      let parts = interpolation.matches(in: literal as String, range: NSRange(location: 0, length: literal.length))
      result += " " + parts.map { literal.substring(with: $0.range) }.joined(separator: " ") + " "
      last = m.range.location + m.range.length
    }
    return result + ns.substring(from: last)
  }

  /// Which folders each folder of a module uses (every folder is a key).
  static func edges(_ module: String) throws -> [String: Set<String>] {
    let files = try files(module)
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

  /// Every table between `<!-- layering MODULE -->` and `<!-- end layering -->`, by module:
  /// `| `Folder/` | `A/`, `B/` |` (anything in a cell that is not a folder is explanation).
  static func tables() throws -> [String: [String: Set<String>]] {
    let spec = try String(
      contentsOf: SharedPaths.packageRoot.appendingPathComponent("Specs/architecture.md"), encoding: .utf8)
    var result: [String: [String: Set<String>]] = [:]
    var rest = spec[...]
    while let start = rest.range(of: "<!-- layering ") {
      let header = try #require(rest[start.upperBound...].range(of: " -->"))
      let module = String(rest[start.upperBound..<header.lowerBound])
      let end = try #require(rest[header.upperBound...].range(of: "<!-- end layering -->"))
      var table: [String: Set<String>] = [:]
      for line in rest[header.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("| `") {
        let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        guard cells.count >= 2 else { continue }
        let row = try #require(names(cells[0]).first, "a row that names no folder: \(line)")
        table[row] = cells.dropFirst().reduce(into: Set<String>()) { $0.formUnion(names($1)) }
      }
      #expect(result[module] == nil, "two layering tables for \(module)")
      result[module] = table
      rest = rest[end.upperBound...]
    }
    return result
  }

  static func names(_ cell: String) -> Set<String> {
    let ns = cell as NSString
    return Set(
      folderName.matches(in: cell, range: NSRange(location: 0, length: ns.length)).map {
        ns.substring(with: $0.range(at: 1))
      })
  }

  /// The graph with every folder deeper than `depth` counted in its ancestor at that depth
  /// (`./` stays itself); edges inside one folder disappear.
  static func collapsed(_ graph: [String: Set<String>], depth: Int) -> [String: Set<String>] {
    func cut(_ f: String) -> String {
      f == "./" ? f : f.split(separator: "/").prefix(depth).joined(separator: "/") + "/"
    }
    var result: [String: Set<String>] = [:]
    for (from, tos) in graph {
      let a = cut(from)
      result[a, default: []].formUnion([])
      for to in tos where cut(to) != a { result[a, default: []].insert(cut(to)) }
    }
    return result
  }

  /// A cycle of the graph, as its folders with the first repeated at the end, or nil.
  /// Depth-first, visiting folders and their uses in name order, so the answer is stable.
  static func cycle(in graph: [String: Set<String>]) -> [String]? {
    var state: [String: Bool] = [:]  // false: on the current path; true: done
    var path: [String] = []
    func visit(_ node: String) -> [String]? {
      state[node] = false
      path.append(node)
      for next in (graph[node] ?? []).sorted() {
        switch state[next] {
        case false?: return Array(path[path.lastIndex(of: next)!...]) + [next]
        case true?: continue
        case nil: if let found = visit(next) { return found }
        }
      }
      path.removeLast()
      state[node] = true
      return nil
    }
    for node in graph.keys.sorted() where state[node] == nil {
      if let found = visit(node) { return found }
    }
    return nil
  }

  /// Everything wrong with a module's folders against its table: a folder the table lacks, an
  /// edge it does not allow, an allowed edge no longer used, a cycle at any depth.
  static func problems(_ module: String, edges: [String: Set<String>], allowed: [String: Set<String>]?) -> [String] {
    guard let allowed else {
      return ["Sources/\(module) has no layering table in Specs/architecture.md (<!-- layering \(module) -->)"]
    }
    var result: [String] = []
    for (folder, used) in edges.sorted(by: { $0.key < $1.key }) {
      guard let permitted = allowed[folder] else {
        result.append("Sources/\(module)/\(folder) is not in the layering table of \(module)")
        continue
      }
      let extra = used.subtracting(permitted)
      if !extra.isEmpty {
        result.append("\(module): \(folder) uses \(extra.sorted()) which the layering table does not allow")
      }
      let stale = permitted.subtracting(used)
      if !stale.isEmpty {
        result.append(
          "\(module): the layering table lets \(folder) use \(stale.sorted()), which it no longer does: remove them")
      }
    }
    for folder in Set(allowed.keys).subtracting(edges.keys).sorted() {
      result.append("\(module): the layering table lists \(folder), which has no Swift file: remove it")
    }
    let deepest = edges.keys.map { $0.split(separator: "/").count }.max() ?? 1
    for depth in (1...max(deepest, 1)).reversed() {
      if let c = cycle(in: collapsed(edges, depth: depth)) {
        result.append("\(module): folders in a cycle (depth \(depth)): \(c.joined(separator: " → "))")
      }
    }
    return result
  }

  @Test func everyModuleHasATable() throws {
    let modules = try Self.modules()
    let tables = try Self.tables()
    for m in Self.requiredModules { #expect(modules.contains(m), "Sources/\(m) has no Swift file") }
    for m in modules { #expect(tables[m] != nil, "Sources/\(m) has no layering table in Specs/architecture.md") }
    for m in tables.keys { #expect(modules.contains(m), "a layering table for \(m), which is no module") }
  }

  /// The modules checked one by one (`otherModulesFollowTheirTables` checks the rest).
  static let namedModules = [
    "MapRuntime", "MapSyntax", "MapModelReader", "MapCompiler", "MapTools", "MapSQLite", "MapcKit", "MapcCLI",
    "MapFuzzing", "mapc",
  ]

  @Test(arguments: namedModules)
  func foldersUseOnlyWhatTheTableAllows(module: String) throws {
    let edges = try Self.edges(module)
    #expect(!edges.isEmpty, "found no folder in Sources/\(module)")
    for p in Self.problems(module, edges: edges, allowed: try Self.tables()[module]) { Issue.record("\(p)") }
  }

  /// Modules beyond the ones named above (a new target) are checked too.
  @Test func otherModulesFollowTheirTables() throws {
    let tables = try Self.tables()
    for module in try Self.modules()
    where !Self.namedModules.contains(module) {
      for p in Self.problems(module, edges: try Self.edges(module), allowed: tables[module]) { Issue.record("\(p)") }
    }
  }

  // MARK: - Extensions: a type grows only in its own folder

  /// `extension Name[.Inner][: P, Q] [where …] {` at the top level of a file.
  static let extensionHeader = try! NSRegularExpression(
    pattern:
      "^(?:@\\w+(?:\\([^)]*\\))?\\s+)*(?:(?:public|package|internal|fileprivate|private)\\s+)*extension\\s+([A-Za-z_][\\w.]*)(?:\\s*:\\s*([^{]*?))?\\s*(?:where\\s[^{]*)?\\{",
    options: [.anchorsMatchLines])

  /// An extension, in a folder that does not declare its type, of a type its module declares.
  struct ForeignExtension: Hashable, CustomStringConvertible {
    var file: String
    var type: String
    var declaredIn: Set<String>
    var description: String { "\(file) extends \(type) (declared in \(declaredIn.sorted().joined(separator: ", ")))" }
  }

  /// Every extension of a module's type outside the folders that declare it, except those that
  /// add only conformances to protocols declared in the extending folder (its own protocols,
  /// which only that folder and the folders above it can call through).
  static func foreignExtensions(_ module: String) throws -> [ForeignExtension] {
    let sources = try SharedPaths.swiftFiles(under: "Sources/\(module)").map { relative, text in
      let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
        guard let r = line.range(of: "//") else { return line }
        return line[..<r.lowerBound]
      }.joined(separator: "\n")
      return (file: relative, folder: folder(ofFile: relative), text: code)
    }
    var declaredIn: [String: Set<String>] = [:]
    for s in sources {
      for m in declaration.matches(in: s.text, range: NSRange(s.text.startIndex..., in: s.text)) {
        declaredIn[(s.text as NSString).substring(with: m.range(at: 1)), default: []].insert(s.folder)
      }
    }
    var result: [ForeignExtension] = []
    for s in sources {
      let ns = s.text as NSString
      for m in extensionHeader.matches(in: s.text, range: NSRange(location: 0, length: ns.length)) {
        let type = ns.substring(with: m.range(at: 1))
        let base = String(type.split(separator: ".").first ?? "")
        guard let folders = declaredIn[base], !folders.contains(s.folder) else { continue }
        let protocols =
          m.range(at: 2).location == NSNotFound
          ? []
          : ns.substring(with: m.range(at: 2)).split(separator: ",").map { part -> String in
            let words = part.split(separator: " ").filter { !$0.hasPrefix("@") }
            return String(words.last?.split(separator: ".").last ?? "")
          }
        if !protocols.isEmpty && protocols.allSatisfy({ declaredIn[$0]?.contains(s.folder) == true }) { continue }
        result.append(ForeignExtension(file: s.file, type: type, declaredIn: folders))
      }
    }
    return result.sorted { ($0.file, $0.type) < ($1.file, $1.type) }
  }

  /// The extensions a module's spec allows outside their type's folder, between
  /// `<!-- extensions MODULE -->` and `<!-- end extensions -->`: `| `Folder/File.swift` | `Type` | why |`.
  static func extensionExceptions() throws -> [String: Set<String>] {
    let spec = try String(
      contentsOf: SharedPaths.packageRoot.appendingPathComponent("Specs/architecture.md"), encoding: .utf8)
    var result: [String: Set<String>] = [:]
    var rest = spec[...]
    while let start = rest.range(of: "<!-- extensions ") {
      let header = try #require(rest[start.upperBound...].range(of: " -->"))
      let module = String(rest[start.upperBound..<header.lowerBound])
      let end = try #require(rest[header.upperBound...].range(of: "<!-- end extensions -->"))
      for line in rest[header.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("| `") {
        let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        guard cells.count >= 2 else { continue }
        #expect(cells.count >= 3 && !cells[2].isEmpty, "an extension exception without a reason: \(line)")
        let strip = { (s: String) in s.trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
        result[module, default: []].insert("\(strip(cells[0])) extends \(strip(cells[1]))")
      }
      rest = rest[end.upperBound...]
    }
    return result
  }

  /// What is wrong with a module's extensions: one outside its type's folder that the spec does
  /// not list, one listed whose folder may not use the type's folder, a listed one that is gone.
  static func extensionProblems(
    _ module: String, found: [ForeignExtension], allowed: Set<String>, table: [String: Set<String>]?
  ) -> [String] {
    var result: [String] = []
    var seen: Set<String> = []
    for e in found {
      let key = "\(e.file) extends \(e.type)"
      seen.insert(key)
      guard allowed.contains(key) else {
        result.append(
          "\(module): \(e): a type is extended only in its own folder (move the extension there, or list it with a "
            + "reason under <!-- extensions \(module) --> in Specs/architecture.md)")
        continue
      }
      let folder = folder(ofFile: e.file)
      if e.declaredIn.isDisjoint(with: table?[folder] ?? []) {
        result.append("\(module): \(e), but the layering table does not let \(folder) use its folder")
      }
    }
    for stale in allowed.subtracting(seen).sorted() {
      result.append("\(module): the extension exceptions list \(stale), which is no longer so: remove it")
    }
    return result
  }

  @Test func typesAreExtendedOnlyInTheirOwnFolder() throws {
    let tables = try Self.tables()
    let exceptions = try Self.extensionExceptions()
    for m in exceptions.keys { #expect(tables[m] != nil, "extension exceptions for \(m), which is no module") }
    for module in try Self.modules() {
      let found = try Self.foreignExtensions(module)
      for p in Self.extensionProblems(module, found: found, allowed: exceptions[module] ?? [], table: tables[module]) {
        Issue.record("\(p)")
      }
    }
  }

  /// The extension rule on hand-made cases: an interpreter folder growing the context, a
  /// conformance to the folder's own protocol, a listed exception, a stale one.
  @Test func theExtensionRuleCatchesWhatTheFolderRuleCannotSee() throws {
    let found = try Self.foreignExtensions("MapRuntime")
    #expect(!found.contains { $0.type == "MigrationContext" }, "\(found)")
    let grown = Self.ForeignExtension(
      file: "Interpreter/Passes/MigrationContext+Creation.swift", type: "MigrationContext", declaredIn: ["Interpreter/"]
    )
    let table: [String: Set<String>] = ["Interpreter/Passes/": ["Interpreter/"], "Plan/": []]
    #expect(Self.extensionProblems("M", found: [grown], allowed: [], table: table).count == 1)
    #expect(
      Self.extensionProblems(
        "M", found: [grown], allowed: ["Interpreter/Passes/MigrationContext+Creation.swift extends MigrationContext"],
        table: table
      ).isEmpty)
    // Listed, but the folder may not use the type's folder.
    let upward = Self.ForeignExtension(file: "Plan/X.swift", type: "MigrationContext", declaredIn: ["Interpreter/"])
    #expect(
      Self.extensionProblems("M", found: [upward], allowed: ["Plan/X.swift extends MigrationContext"], table: table)
        .count == 1)
    // Listed and gone.
    #expect(Self.extensionProblems("M", found: [], allowed: ["Plan/X.swift extends Value"], table: table).count == 1)
    // The header pattern reads conformances and where clauses.
    let text = "extension Value: ExpressibleByStringLiteral, @unchecked Sendable where T: Q {\n}"
    let m = try #require(
      Self.extensionHeader.firstMatch(in: text, range: NSRange(location: 0, length: (text as NSString).length)))
    #expect((text as NSString).substring(with: m.range(at: 1)) == "Value")
    #expect((text as NSString).substring(with: m.range(at: 2)) == "ExpressibleByStringLiteral, @unchecked Sendable")
  }

  // MARK: - The checker itself, on hand-made graphs and on the real one with an edge added

  @Test func cycleFinderFindsCyclesAndOnlyThem() {
    #expect(Self.cycle(in: ["A/": ["B/"], "B/": ["C/"], "C/": []]) == nil)
    #expect(Self.cycle(in: ["A/": ["B/"], "B/": ["C/"], "C/": ["A/"]]) == ["A/", "B/", "C/", "A/"])
    #expect(Self.cycle(in: ["A/": ["A/"]]) == ["A/", "A/"])
    // A diamond is no cycle.
    #expect(Self.cycle(in: ["A/": ["B/", "C/"], "B/": ["D/"], "C/": ["D/"], "D/": []]) == nil)
    // A cycle reached only through other folders.
    #expect(Self.cycle(in: ["A/": ["B/"], "B/": ["C/"], "C/": ["D/"], "D/": ["B/"]]) == ["B/", "C/", "D/", "B/"])
  }

  @Test func aCycleBetweenParentsIsFoundThroughTheirSubfolders() {
    // Each folder alone is acyclic; `X/` and `Y/` with their subfolders use each other.
    let graph: [String: Set<String>] = ["X/": ["Y/Inner/"], "Y/Inner/": [], "Y/": ["X/Sub/"], "X/Sub/": []]
    #expect(Self.cycle(in: graph) == nil)
    #expect(Self.collapsed(graph, depth: 1) == ["X/": ["Y/"], "Y/": ["X/"]])
    let found = Self.problems("M", edges: graph, allowed: graph)
    #expect(found == ["M: folders in a cycle (depth 1): X/ → Y/ → X/"])
  }

  @Test func aParentAndItsSubfolderInACycleFail() {
    let graph: [String: Set<String>] = ["P/": ["P/Q/"], "P/Q/": ["P/"], "./": ["P/"]]
    #expect(Self.problems("M", edges: graph, allowed: graph) == ["M: folders in a cycle (depth 2): P/ → P/Q/ → P/"])
  }

  /// The real MapRuntime graph passes; with one edge added that the table lacks and that closes
  /// a cycle (Support/ using the passes), the checker reports both.
  @Test func anInjectedEdgeFails() throws {
    let edges = try Self.edges("MapRuntime")
    let allowed = try #require(try Self.tables()["MapRuntime"])
    #expect(Self.problems("MapRuntime", edges: edges, allowed: allowed).isEmpty)
    var mutated = edges
    mutated["Support/", default: []].insert("Interpreter/Passes/")
    let found = Self.problems("MapRuntime", edges: mutated, allowed: allowed)
    #expect(found.contains { $0.contains("Support/ uses [\"Interpreter/Passes/\"]") }, "\(found)")
    #expect(found.contains { $0.contains("folders in a cycle") }, "\(found)")
    // Listing the edge in the table does not make the cycle acceptable.
    var permissive = allowed
    permissive["Support/", default: []].insert("Interpreter/Passes/")
    let still = Self.problems("MapRuntime", edges: mutated, allowed: permissive)
    #expect(still.count >= 1 && still.allSatisfy { $0.contains("folders in a cycle") }, "\(still)")
    // A folder the table does not know, and a table row for a folder that is gone.
    var extraFolder = edges
    extraFolder["Interpreter/New/"] = []
    #expect(Self.problems("MapRuntime", edges: extraFolder, allowed: allowed).count == 1)
    var extraRow = allowed
    extraRow["Gone/"] = []
    #expect(Self.problems("MapRuntime", edges: edges, allowed: extraRow).count == 1)
  }

  /// MapRuntime names no store format (issue 26): no type MapJSON declares, and no identifier
  /// with `JSON` in it, appears in the code of any file of MapRuntime (comments and the words of
  /// string literals aside); MapSQLite names none of MapJSON's (the JSON store's) types either:
  /// its JSON text (composite arrays) is MapJSONText's, the codec (issue 42).
  @Test func theRuntimeAndMapSQLiteNameNoJSONType() throws {
    var jsonTypes: Set<String> = []
    for (_, text) in try SharedPaths.swiftFiles(under: "Sources/MapJSON") {
      for m in Self.declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        jsonTypes.insert((text as NSString).substring(with: m.range(at: 1)))
      }
    }
    #expect(jsonTypes.contains("JSONStoreFormat") && !jsonTypes.contains("JSONScanner"), "\(jsonTypes.sorted())")
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
        let named = words.filter { jsonTypes.contains($0) }.union(module == "MapRuntime" ? jsonWords : [])
        #expect(named.isEmpty, "Sources/\(module)/\(relative) names \(named.sorted())")
      }
    }
  }

  /// With MAPC_PRINT_LAYERING=1, prints the edges found (to update the tables).
  @Test func printWhenAsked() throws {
    guard ProcessInfo.processInfo.environment["MAPC_PRINT_LAYERING"] == "1" else { return }
    for module in try Self.modules() {
      print("LAYER <!-- layering \(module) -->")
      for (folder, used) in try Self.edges(module).sorted(by: { $0.key < $1.key }) {
        let list = used.isEmpty ? "—" : used.sorted().map { "`\($0)`" }.joined(separator: ", ")
        print("LAYER | `\(folder)` | \(list) |")
      }
    }
  }
}
