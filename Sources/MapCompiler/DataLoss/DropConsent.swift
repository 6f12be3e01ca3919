/// What the user accepts to lose: everything (`--allow-data-loss`) or named entities and
/// properties (`--allow-drop Entity[.property]`, repeatable). Naming an entity accepts its
/// objects and every property of it; naming a property accepts only that property.
public struct DropConsent: Sendable, Hashable {
  public var all: Bool
  public var names: Set<String>

  public init(all: Bool = false, names: [String] = []) {
    self.all = all
    self.names = Set(names)
  }

  public func covers(_ loss: DataLoss) -> Bool {
    all || names.contains(loss.entity) || names.contains(loss.name)
  }

  /// The losses this consent does not cover.
  public func refused(_ losses: [DataLoss]) -> [DataLoss] { losses.filter { !covers($0) } }
}
