/// The shared core of the diagnostic catalogue: what a family of ids is. Each module lists the
/// families it reports (RuntimeCatalogue here; JSONTextCatalogue, SQLiteCatalogue,
/// SwiftSchemaCatalogue, SyntaxCatalogue, ModelCatalogue, CompilerCatalogue, ToolsCatalogue, and
/// the command line's CommandCatalogue), and
/// MapcCLI's MapcCatalogue puts them together in the spec's order. Ids are stable: once
/// published, an id keeps its meaning.
///
/// Lint rules (`lint-*`) have their own table (`LintRule.all`, `Specs/lint-rules.md`). Every id
/// the code uses is listed in a catalogue or there (DiagnosticCatalogueTests scans the sources),
/// and `Specs/diagnostics.md` §3 is `specSection` of them all.
public enum DiagnosticCatalogue {
  /// Ids sharing a prefix, with the heading the spec gives them.
  public struct Family: Sendable {
    /// The heading: the prefixes and what the family covers.
    public let title: String
    /// `(id, what it reports)`, in the spec's order.
    public let entries: [(id: String, reports: String)]

    public init(_ title: String, _ entries: [(String, String)]) {
      self.title = title
      self.entries = entries.map { (id: $0.0, reports: $0.1) }
    }
  }

  /// The Markdown of `families` as `Specs/diagnostics.md` §3 gives them.
  public static func specSection(_ families: [Family]) -> String {
    var text = ""
    for family in families {
      text += "### \(family.title)\n\n| id | reports |\n|---|---|\n"
      for entry in family.entries { text += "| `\(entry.id)` | \(entry.reports) |\n" }
      text += "\n"
    }
    return text
  }
}
