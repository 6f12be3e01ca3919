import MapRuntime

/// One step's reversal in one sentence, for `mapc lint --reverse` and `mapc diff --reverse`.
public enum ReverseLine {
  /// `chain-step-reversible` (nothing lost), `chain-reverse-drops-data` (what is lost, named as
  /// `--allow-drop` names it) or `chain-step-irreversible` (why not, and the way out).
  public static func text(_ versions: ModelVersions, mappings: [ExplicitMapping] = [], newer i: Int) -> (
    id: String, message: String
  ) {
    let (older, newer) = (versions.names[i - 1], versions.names[i])
    switch MigrationChain.reverseDrops(versions, mappings: mappings, from: i, to: i - 1) {
    case .success(let drops) where drops.isEmpty:
      return (
        "chain-step-reversible",
        "the step '\(older)' → '\(newer)' can be reversed without loss: mapc migrate --to '\(older)' takes a store at '\(newer)' back"
      )
    case .success(let drops):
      let named = drops.map { $0.hasPrefix("entity ") ? String($0.dropFirst("entity ".count)) : $0 }
      return (
        "chain-reverse-drops-data",
        "reversing '\(older)' → '\(newer)' drops \(drops.joined(separator: ", ")), which '\(older)' has no place for: a store taken back to '\(older)' loses them (--allow-drop \(named.joined(separator: " --allow-drop ")))"
      )
    case .failure(let refusal):
      // The refusal names the step and the way out; the inference errors behind it go where it
      // points at them (in one line here, not above).
      let why = refusal.reasons.dropLast().joined(separator: "; ")
      let last = refusal.reasons.last ?? "the step '\(older)' → '\(newer)' cannot be reversed automatically"
      let marker = " (the errors above say why); "
      guard !why.isEmpty, let at = last.range(of: marker) else {
        return ("chain-step-irreversible", last + (why.isEmpty ? "" : " (\(why))"))
      }
      return ("chain-step-irreversible", last[..<at.lowerBound] + ": " + why + "; " + last[at.upperBound...])
    }
  }
}
