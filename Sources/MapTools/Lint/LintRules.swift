import MapRuntime

/// The rule catalogue: every rule `mapc lint` knows, in the order `Specs/lint-rules.md` lists
/// them. Compiler rules are reported by the compiler (and so by `mapc compile` too); they are
/// here because they are Core Data pitfalls a linter must catch, with their explanation.
public enum LintRules {
  /// The checks the linter runs on every mapping that compiles far enough.
  static let checks: [any LintCheck] = [
    MandatoryAttributeUnmapped(),
    OptionalIntoMandatory(),
    InverseUnmapped(),
    DestinationEntityUnproduced(),
    SourceEntityUnread(),
    PolicyWithoutModule(),
    UnknownPolicySelector(),
    DeviceUnknownFunction(),
    NarrowingConversion(),
    ImplicitToManyIntoToOne(),
    UnusedEntityMapping(),
  ]

  public static let all: [LintRule] =
    checks.map { type(of: $0).rule } + CompilerRules.all + [
      SuppressionRules.unused, SuppressionRules.reason, LintBaseline.unusedEntryRule,
    ]

  /// The rule with this id.
  public static func rule(_ id: String) -> LintRule? { all.first { $0.id == id } }

  /// `lint-…` ids, for telling a misspelt rule from a compiler id.
  public static var ids: [String] { all.map(\.id) }
}
