/// A metadata value mapc itself writes into a store (rather than copying it from the input):
/// `mapcMigrations`, the steps `mapc migrate` applied (`Specs/migrate.md` §5).
public indirect enum MetadataValue: Sendable, Equatable {
  case string(String)
  case int(Int64)
  case array([MetadataValue])
  /// Keys in the order given.
  case object([Field])

  public struct Field: Sendable, Equatable {
    public var key: String
    public var value: MetadataValue
    public init(_ key: String, _ value: MetadataValue) {
      self.key = key
      self.value = value
    }
  }
}
