import Foundation
import MapCompiler
import MapRuntime
import MapTestSupport
import Testing

/// One catalogue of diagnostic ids (`DiagnosticCatalogue`): `Specs/diagnostics.md` lists exactly
/// it, and every id the sources use is in it (or is a lint rule), and every id in it is used.
@Suite struct DiagnosticCatalogueTests {
  static let specURL = SharedPaths.packageRoot.appendingPathComponent("Specs/diagnostics.md")
  static let families = [
    "file", "xml", "model", "expr", "map", "xcmap", "plan", "io", "json", "store", "infer", "chain",
    "migrate", "run", "limit", "sqlite", "lint", "usage", "test", "lock", "diagram", "swift", "stages",
    "check",
  ]

  /// Ids written in the sources as a string literal (`"store-wrong-type"`) or inside a message
  /// (`[io-write]`), the catalogue's own file excepted.
  static func idsInSources() throws -> [String: String] {
    let pattern = try NSRegularExpression(
      pattern: "(?:\"|\\[)((?:\(families.joined(separator: "|")))-[a-z0-9]+(?:-[a-z0-9]+)*)(?:\"|\\])")
    var found: [String: String] = [:]
    for (relative, text) in try SharedPaths.swiftFiles(under: "Sources") where !relative.contains("DiagnosticCatalogue")
    {
      let ns = text as NSString
      for m in pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
        let id = ns.substring(with: m.range(at: 1))
        if found[id] == nil { found[id] = relative }
      }
    }
    return found
  }

  @Test func everyIdTheSourcesUseIsCatalogued() throws {
    let used = try Self.idsInSources()
    #expect(used.count > 200, "the scan found only \(used.count) ids")
    let lintRules = Set(LintRules.all.map(\.id))
    for (id, file) in used.sorted(by: { $0.key < $1.key }) {
      let known = DiagnosticCatalogue.ids.contains(id) || lintRules.contains(id)
      #expect(known, "\(id) (used in \(file)) is neither in DiagnosticCatalogue nor a lint rule")
    }
  }

  @Test func everyCataloguedIdIsUsed() throws {
    let used = try Self.idsInSources()
    for id in DiagnosticCatalogue.ids.sorted() {
      #expect(used[id] != nil, "\(id) is catalogued but no source uses it")
    }
  }

  @Test func idsAreUniqueAndCarryTheirFamilysPrefix() {
    var seen = Set<String>()
    for family in DiagnosticCatalogue.families {
      let prefixes = family.title.split(separator: "`").filter { $0.hasSuffix("-*") }.map { $0.dropLast() }
      #expect(!prefixes.isEmpty, "\(family.title)")
      for entry in family.entries {
        #expect(seen.insert(entry.id).inserted, "\(entry.id) is listed twice")
        #expect(prefixes.contains { entry.id.hasPrefix($0) }, "\(entry.id) is not in its family \(family.title)")
        #expect(!entry.reports.isEmpty)
      }
    }
  }

  @Test func specListsTheCatalogueAndTheExitCodes() throws {
    let spec = try String(contentsOf: Self.specURL, encoding: .utf8)
    #expect(
      spec.contains(
        "<!-- generated: DiagnosticCatalogue.specSection -->\n" + DiagnosticCatalogue.specSection
          + "<!-- end generated -->"),
      "regenerate Specs/diagnostics.md §3: MAPC_WRITE_DIAGNOSTIC_SPEC=1 swift test --filter DiagnosticCatalogueTests")
    #expect(
      spec.contains("<!-- generated: ExitStatus.specTable -->\n" + ExitStatus.specTable + "<!-- end generated -->"))
  }

  /// With MAPC_WRITE_DIAGNOSTIC_SPEC=1, rewrites the generated parts of `Specs/diagnostics.md`.
  @Test func writeSpecWhenAsked() throws {
    guard ProcessInfo.processInfo.environment["MAPC_WRITE_DIAGNOSTIC_SPEC"] == "1" else { return }
    var spec = try String(contentsOf: Self.specURL, encoding: .utf8)
    for (name, body) in [
      ("DiagnosticCatalogue.specSection", DiagnosticCatalogue.specSection),
      ("ExitStatus.specTable", ExitStatus.specTable),
    ] {
      let open = "<!-- generated: \(name) -->\n"
      let start = try #require(spec.range(of: open))
      let end = try #require(spec.range(of: "<!-- end generated -->", range: start.upperBound..<spec.endIndex))
      spec = String(spec[..<start.upperBound] + body + spec[end.lowerBound...])
    }
    try replaceFile(Self.specURL.path, with: spec)
  }
}
