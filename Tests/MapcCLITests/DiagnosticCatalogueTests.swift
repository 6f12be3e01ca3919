import Foundation
import MapRuntime
import MapcKit
import MapcCLI
import MapTestSupport
import MapTools
import Testing

/// One catalogue of diagnostic ids, each module's families put together (`MapcCatalogue`):
/// `Specs/diagnostics.md` lists exactly it, every id the sources use is in it (or is a lint
/// rule), and every id in it is used.
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
    for (relative, text) in try SharedPaths.swiftFiles(under: "Sources") where !relative.hasSuffix("Catalogue.swift") {
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
      let known = MapcCatalogue.ids.contains(id) || lintRules.contains(id)
      #expect(known, "\(id) (used in \(file)) is neither in a module's catalogue (MapcCatalogue) nor a lint rule")
    }
  }

  @Test func everyCataloguedIdIsUsed() throws {
    let used = try Self.idsInSources()
    for id in MapcCatalogue.ids.sorted() {
      #expect(used[id] != nil, "\(id) is catalogued but no source uses it")
    }
  }

  @Test func idsAreUniqueAndCarryTheirFamilysPrefix() {
    var seen = Set<String>()
    for family in MapcCatalogue.families {
      let prefixes = family.title.split(separator: "`").filter { $0.hasSuffix("-*") }.map { $0.dropLast() }
      #expect(!prefixes.isEmpty, "\(family.title)")
      for entry in family.entries {
        #expect(seen.insert(entry.id).inserted, "\(entry.id) is listed twice")
        #expect(prefixes.contains { entry.id.hasPrefix($0) }, "\(entry.id) is not in its family \(family.title)")
        #expect(!entry.reports.isEmpty)
      }
    }
  }

  /// `Specs/diagnostics.md` lists the catalogue and the exit codes (`MAPC_WRITE_SPECS=1`
  /// rewrites them).
  @Test func specListsTheCatalogueAndTheExitCodes() throws {
    let stale = try GeneratedSections.stale(
      "Specs/diagnostics.md",
      [
        ("DiagnosticCatalogue.specSection", MapcCatalogue.specSection),
        ("ExitStatus.specTable", ExitStatus.specTable),
      ])
    #expect(stale.isEmpty, "\(GeneratedSections.advice("Specs/diagnostics.md", stale))")
  }
}
