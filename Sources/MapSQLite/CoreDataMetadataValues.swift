import MapArchives
import MapRuntime

/// The keys of `Z_PLIST` as the store-neutral metadata values a graph's store carries, and
/// back: property-list types map one to one (a date stays a date, data data, a NaN real a NaN
/// real), so an SQLite store's keys keep their types through any store written.
enum CoreDataMetadataValues {
  static func value(_ v: PropertyListValue) -> MetadataValue {
    switch v {
    case .string(let s): .string(s)
    case .integer(let i): .int(i)
    case .real(let d): .real(d)
    case .bool(let b): .bool(b)
    case .date(let t): .date(t)
    case .data(let d): .data(d)
    case .array(let items): .array(items.map(value))
    case .dictionary(let entries): .object(entries.map { .init($0.key, value($0.value)) })
    case .uid(let u): .int(Int64(truncatingIfNeeded: u))
    case .null: .null
    }
  }

  /// A metadata value as a property-list value: a number kept as text becomes an integer when
  /// it is one, else the nearest double.
  static func plist(_ v: MetadataValue) -> PropertyListValue {
    switch v {
    case .string(let s): .string(s)
    case .int(let i): .integer(i)
    case .real(let d): .real(d)
    case .number(let text): Int64(text).map(PropertyListValue.integer) ?? .real(Double(text) ?? 0)
    case .bool(let b): .bool(b)
    case .date(let t): .date(t)
    case .data(let d): .data(d)
    case .array(let items): .array(items.map(plist))
    case .object(let fields): .dictionary(fields.map { .init($0.key, plist($0.value)) })
    case .null: .null
    }
  }
}
