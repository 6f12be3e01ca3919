/// Which source element each destination element of an inferred mapping was matched to (by
/// renaming identifier or name), recorded so that a step can be reversed (`Specs/migrate.md`
/// §3a): Core Data's renaming identifiers live on the destination model, so an inference from
/// the newer model back to the older one would not see them. The reverse inference is given
/// the forward matching turned around instead of looking elements up by renaming identifier.
public struct InferenceMatching: Sendable, Hashable {
  /// Destination entity → its source entity.
  public var entities: [String: String] = [:]
  /// Per destination entity: destination property (attribute or relationship) → the source
  /// property it takes its values from.
  public var properties: [String: [String: String]] = [:]

  public init() {}

  /// The matching of the step the other way round: each source element matched to its forward
  /// destination. Nil when two destination properties of one entity read the same source
  /// property (the way back would have to pick one).
  public func reversed() -> InferenceMatching? {
    var result = InferenceMatching()
    for (destination, source) in entities { result.entities[source] = destination }
    for (destination, pairs) in properties {
      guard let source = entities[destination] else { continue }
      var back: [String: String] = [:]
      for (to, from) in pairs {
        if back[from] != nil { return nil }
        back[from] = to
      }
      result.properties[source] = back
    }
    return result
  }
}
