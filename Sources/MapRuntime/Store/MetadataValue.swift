/// A metadata value of a store, in no store's encoding: the keys an app keeps in its store's
/// metadata (Core Data's `Z_METADATA` property list, a JSON store's `metadata` object), carried
/// from the store read to the store written, and the keys mapc writes itself (`mapcMigrations`,
/// the steps `mapc migrate` applied: `Specs/migrate.md` §5). The cases are those of a property
/// list, plus nil and a number kept as the decimal text a store wrote.
public indirect enum MetadataValue: Sendable, Equatable {
  case string(String)
  case int(Int64)
  case real(Double)
  /// A number as the store wrote it, where neither `int` nor `real` gives that text back
  /// (a JSON store's `1.50`, `1e400`); a format without such numbers reads it as a double.
  case number(String)
  case bool(Bool)
  /// Seconds since 2001-01-01T00:00:00Z (`NSDate`).
  case date(Double)
  case data([UInt8])
  case array([MetadataValue])
  /// Keys in the order given.
  case object([Field])
  /// A key whose value is nil (a JSON store's `null`); a format without nil drops the key.
  case null

  public struct Field: Sendable, Equatable {
    public var key: String
    public var value: MetadataValue
    public init(_ key: String, _ value: MetadataValue) {
      self.key = key
      self.value = value
    }
  }
}
