/// The model a store carries (Core Data SQLite: `Z_MODELCACHE`), and what of it mapc leaves out
/// (one line each, for a note).
public struct CarriedModel: Sendable {
  public var model: ObjectModel
  public var omitted: [String]

  public init(model: ObjectModel, omitted: [String]) {
    self.model = model
    self.omitted = omitted
  }
}
