import MapArchives

/// A Transformable value in no store's encoding: what a store writer gets from the codec of the
/// store that read it (`TransformableCodec.payload`) when it writes a payload of another format.
package enum TransformablePayload: Sendable, Equatable {
  /// Bytes as a store of bytes keeps them (Core Data's SQLite store): an `NSKeyedArchiver`
  /// archive of `archived` when that is given (one that archiving `archived` again gives back
  /// byte for byte), else bytes no mapping looks into (a custom value transformer's).
  case bytes([UInt8], archived: ArchivedValue?)
  /// A value with no bytes yet (a JSON store's): archived when written to a store of bytes.
  case value(ArchivedValue)
}

extension TransformablePayload {
  /// The key of the dictionary a mapping sees for a date, data and bytes kept as they are.
  package static let dateKey = "$date"
  package static let dataKey = "$data"
  package static let bytesKey = "$bytes"

  /// What a mapping sees of the value (Specs/sqlite-store.md §5.1), the same whichever store it
  /// was read from: strings, numbers, Booleans, nil, arrays and dictionaries (keys sorted) as
  /// themselves, a date as `["$date": seconds since 2001]`, data as `["$data": base64]`; bytes
  /// without an archived value, and an archived value holding a real that is not finite or a
  /// dictionary that would be taken for one of these forms, as `["$bytes": base64]`.
  package var mappingValue: Value {
    switch self {
    case .value(let v): Self.mappingValue(v)
    case .bytes(_, let v?) where Self.hasOwnForm(v, top: true): Self.mappingValue(v)
    case .bytes(let b, _): .dictionary([(Self.bytesKey, .string(.native(Base64Codec.encode(b))))])
    }
  }

  private static func mappingValue(_ v: ArchivedValue) -> Value {
    switch v {
    case .string(let s): .string(.native(s))
    case .integer(let i): .int(i)
    case .real(let d): .double(d)
    case .bool(let b): .bool(b)
    case .null: .null
    case .date(let t): .dictionary([(dateKey, .double(t))])
    case .data(let d): .dictionary([(dataKey, .string(.native(Base64Codec.encode(d))))])
    case .array(let items): .array(items.map(mappingValue))
    case .dictionary(let entries): .dictionary(entries.map { ($0.key, mappingValue($0.value)) }.sorted { $0.0 < $1.0 })
    }
  }

  /// Whether `v` has a form of its own: no real or date that is not finite, and no dictionary
  /// of one key that its form would be taken for (`$date` with a number, `$data` with a
  /// string, and at the top `$bytes`).
  package static func hasOwnForm(_ v: ArchivedValue, top: Bool) -> Bool {
    switch v {
    case .real(let d), .date(let d): return d.isFinite
    case .array(let items): return items.allSatisfy { hasOwnForm($0, top: false) }
    case .dictionary(let entries):
      if entries.count == 1 {
        switch (entries[0].key, entries[0].value) {
        case (dateKey, .integer), (dateKey, .real), (dataKey, .string): return false
        case (bytesKey, _) where top: return false
        default: break
        }
      }
      return entries.allSatisfy { hasOwnForm($0.value, top: false) }
    default: return true
    }
  }
}
