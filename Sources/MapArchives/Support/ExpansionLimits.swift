/// What a property list or keyed archive read from a file may expand to, counting a shared
/// object at every place it appears (`limit-expanded-size`; Specs/limits.md). MapRuntime's
/// `Limits` names the same two numbers (`Limits.expandedValues`, `Limits.expandedBytes`).
package enum ExpansionLimits {
  /// Values an archive may expand to. A list of arrays each holding the one below twice
  /// doubles at each level: 25 levels of 50 bytes each would otherwise be 33 million values.
  package static let values = 1_000_000
  /// Bytes of strings and data an archive may expand to, counted the same way.
  package static let bytes = 16 << 20
}
