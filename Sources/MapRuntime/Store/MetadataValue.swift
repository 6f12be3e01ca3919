/// A metadata value mapc itself writes into a store (rather than copying it from the input):
/// `mapcMigrations`, the steps `mapc migrate` applied (`Specs/migrate.md` §5).
public indirect enum MetadataValue: Sendable, Equatable {
  case string(String)
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

  func write(to out: inout JSONOutput) {
    switch self {
    case .string(let s): out.writeString(s)
    case .array(let items):
      out.beginArray()
      for item in items { item.write(to: &out) }
      out.endArray()
    case .object(let fields):
      out.beginObject()
      for f in fields {
        out.writeKey(f.key)
        f.value.write(to: &out)
      }
      out.endObject()
    }
  }
}
