/// The stable ids of everything mapc reports, grouped in families by prefix, each with one line
/// saying what it reports. Ids are stable: once published, an id keeps its meaning.
///
/// Lint rules (`lint-*`) have their own table (`LintRule.all`, `Specs/lint-rules.md`). Every id
/// the code uses is listed here or there (DiagnosticCatalogueTests scans the sources), and
/// `Specs/diagnostics.md` §3 is `specSection`.
public enum DiagnosticCatalogue {
  /// Ids sharing a prefix, with the heading the spec gives them.
  public struct Family: Sendable {
    /// The heading: the prefixes and what the family covers.
    public let title: String
    /// `(id, what it reports)`, in the spec's order.
    public let entries: [(id: String, reports: String)]

    init(_ title: String, _ entries: [(String, String)]) {
      self.title = title
      self.entries = entries.map { (id: $0.0, reports: $0.1) }
    }
  }

  /// Every id of every family.
  public static let ids: Set<String> = Set(families.flatMap { $0.entries.map(\.id) })

  /// The Markdown of `Specs/diagnostics.md` §3's tables, as generated.
  public static var specSection: String {
    var text = ""
    for family in families {
      text += "### \(family.title)\n\n| id | reports |\n|---|---|\n"
      for entry in family.entries { text += "| `\(entry.id)` | \(entry.reports) |\n" }
      text += "\n"
    }
    return text
  }
}
