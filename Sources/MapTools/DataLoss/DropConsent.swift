/// What the user accepts to lose: everything (`--allow-data-loss`) or named entities and
/// properties (`--allow-drop Entity[.property[.element…]]`, repeatable). Naming an entity accepts
/// its objects and every property of it; naming a property accepts only that property (and
/// the elements of a composite); naming a composite's element accepts only that element.
public struct DropConsent: Sendable, Hashable {
  public var all: Bool
  public var names: Set<String>

  public init(all: Bool = false, names: [String] = []) {
    self.all = all
    self.names = Set(names)
  }

  public func covers(_ loss: DataLoss) -> Bool {
    if all || names.contains(loss.entity) || names.contains(loss.name) { return true }
    // A composite named accepts its elements: `Trip.place` covers `Trip.place.location.longitude`.
    var name = Substring(loss.name)
    while let dot = name.lastIndex(of: ".") {
      name = name[..<dot]
      if names.contains(String(name)) { return true }
    }
    return false
  }

  /// This consent and `other` together.
  public func adding(_ other: DropConsent?) -> DropConsent {
    guard let other else { return self }
    var merged = self
    merged.all = all || other.all
    merged.names.formUnion(other.names)
    return merged
  }

  /// The losses this consent does not cover.
  public func refused(_ losses: [DataLoss]) -> [DataLoss] { losses.filter { !covers($0) } }
}
