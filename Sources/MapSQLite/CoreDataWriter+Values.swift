import Foundation
import MapArchives
import MapRuntime

extension CoreDataWriter {
  /// An attribute value as Core Data stores it (reference §4.2); the reverse of
  /// `CoreDataValues.decode`.
  mutating func encode(_ v: Value, _ a: AttributeDescription, at place: @autoclosure () -> String) -> SQLiteValue {
    if a.type == .transformable, !v.isNull { return transformable(v, a, at: place) }
    switch v {
    case .null: return .null
    case .int(let i): return a.type == .boolean ? .integer(i != 0 ? 1 : 0) : .integer(i)
    case .bool(let b): return .integer(b ? 1 : 0)
    case .double(let d), .date(let d):
      // SQLite stores a REAL without fraction as an integer: -0.0 would come back as 0.0.
      if d == 0 && d.sign == .minus {
        errors.append(
          "\(place()): -0.0 cannot be stored: an SQLite column gives it back as 0.0 (write 0.0, or keep the store as JSON)"
        )
        return .null
      }
      // A number for a Decimal attribute must be one Core Data's decimal holds (at most 38
      // digits, exponent -128…127; DecimalText), else it would be written and not read back.
      if a.type == .decimal, !d.isFinite || (try? DecimalText.canonical("\(d)")) == nil {
        errors.append(
          "\(place()): the number \(d) cannot be stored in a Decimal attribute: Core Data's decimal holds about 1e-128 to 1e165 (write it as another type, or keep the store as JSON)"
        )
        return .null
      }
      return .real(d)
    case .decimal(let text):
      // Declared DECIMAL: NUMERIC affinity stores a number as INTEGER or REAL, as Core Data's do.
      // A decimal that would come back as another number is refused, not rounded.
      guard Self.decimalReadsBack(text) else {
        errors.append(
          "\(place()): the Decimal \(text) cannot be stored exactly: an SQLite DECIMAL column keeps it as a double, which reads back as another number"
        )
        return .null
      }
      return .text(text)
    case .string(let t):
      let s = ObjectGraph.string(t, input: input)
      if a.type == .uuid, let bytes = Self.uuidBytes(s) { return .blob(bytes) }
      return .text(s)
    case .data(let bytes):
      guard a.allowsExternalBinaryDataStorage && a.type == .binary else { return .blob(bytes) }
      // Read from an external file: a reference to a file of the same name; else inline (§7).
      if let uuid = external.claim(bytes) { return .blob(ExternalData.reference(uuid)) }
      return .blob([1] + bytes)
    case .transformable(let slice):
      // Only a reference to a missing external file reaches here (other types take no payload).
      guard let input, codec == ArchivedBlobCodec.self, let uuid = ArchivedBlobCodec.missingReference(input, slice)
      else {
        errors.append("\(place()): \(a.type.rawValue) value cannot be stored in SQLite")
        return .null
      }
      guard a.allowsExternalBinaryDataStorage && a.type == .binary else {
        errors.append(
          "\(place()): \(ArchivedBlobCodec.unreadable(input, slice) ?? uuid); a \(a.type.rawValue) attribute that does not allow external storage cannot keep the reference"
        )
        return .null
      }
      external.carry(uuid)
      return .blob(ExternalData.reference(uuid))
    default:
      errors.append("\(place()): \(a.type.rawValue) value cannot be stored in SQLite")
      return .null
    }
  }

  /// Whether a decimal's canonical text comes back as the same decimal from a DECIMAL column:
  /// SQLite keeps a 64-bit integer as INTEGER, another number as the nearest double (checked
  /// against python3's sqlite3 3.40: correctly rounded), which the reader prints and reads as a
  /// decimal again (`CoreDataValues.decode`).
  static func decimalReadsBack(_ text: String) -> Bool {
    if Int64(text) != nil { return true }
    guard let d = Double(text), d.isFinite else { return false }
    return (try? DecimalText.canonical("\(d)")) == text
  }

  /// A Transformable value as Core Data stores it (Specs/sqlite-store.md §5.1): a payload of an
  /// SQLite store as its bytes, one of another store as the bytes its codec gives or the value
  /// archived as `NSKeyedArchiver` would, the bytes of a data value as they are.
  mutating func transformable(_ v: Value, _ a: AttributeDescription, at place: () -> String) -> SQLiteValue {
    let archiving = CoreDataValues.isArchive(a)
    do throws(ArchivedValueError) {
      switch v {
      case .data(let bytes):
        return .blob(bytes)
      case .transformable(let slice):
        guard let input, let codec else { return .null }
        if codec == ArchivedBlobCodec.self {
          if let why = ArchivedBlobCodec.unreadable(input, slice) { throw ArchivedValueError(why) }
          return .blob(Array(input.unsafeBytes[slice.start..<slice.end]))
        }
        switch try codec.payload(input, slice) {
        case .bytes(let bytes, _):
          return .blob(bytes)
        case .value(let value):
          guard archiving else {
            throw ArchivedValueError(
              "the attribute's value transformer is a custom one, so only {\"$bytes\": …} can be stored")
          }
          return .blob(try TransformableArchive.encode(value))
        }
      default:
        guard archiving else {
          throw ArchivedValueError("the attribute's value transformer is a custom one, so only bytes can be stored")
        }
        return .blob(try TransformableArchive.encode(try archived(v, depth: 0)))
      }
    } catch {
      errors.append("\(place()): the Transformable value cannot be stored: \(error.message)")
      return .null
    }
  }

  /// A value built by a mapping (arrays, dictionaries, strings, numbers, dates) as an archived
  /// value; nil inside a collection is NSNull.
  func archived(_ v: Value, depth: Int) throws(ArchivedValueError) -> ArchivedValue {
    guard depth <= TransformableArchive.maximumDepth else {
      throw ArchivedValueError(
        "nested deeper than \(TransformableArchive.maximumDepth) levels (the limit of an archive)")
    }
    switch v {
    case .null: return .null
    case .bool(let b): return .bool(b)
    case .int(let i): return .integer(i)
    case .double(let d): return .real(d)
    case .decimal(let text): return .string(text)
    case .string(let t): return .string(ObjectGraph.string(t, input: input))
    case .date(let t): return .date(t)
    case .data(let d): return .data(d)
    case .transformable(let slice):
      guard let input, let codec else { return .null }
      switch try codec.payload(input, slice) {
      case .value(let x), .bytes(_, archived: let x?): return x
      case .bytes(let b, archived: nil): return .data(b)
      }
    case .array(let items):
      var out: [ArchivedValue] = []
      for x in items { out.append(try archived(x, depth: depth + 1)) }
      return .array(out)
    case .dictionary(let pairs):
      var out: [ArchivedValue.Entry] = []
      for (k, x) in pairs { out.append(.init(k, try archived(x, depth: depth + 1))) }
      return .dictionary(out)
    case .sourceObject, .destinationObject, .special:
      throw ArchivedValueError("an object reference cannot be archived")
    }
  }

  static func uuidBytes(_ s: String) -> [UInt8]? {
    let hex = Array(s.utf8.filter { $0 != UInt8(ascii: "-") })
    guard hex.count == 32, s.utf8.count == 36 else { return nil }
    var bytes: [UInt8] = []
    for k in stride(from: 0, to: 32, by: 2) {
      guard let b = UInt8(String(decoding: hex[k...k + 1], as: UTF8.self), radix: 16) else { return nil }
      bytes.append(b)
    }
    return bytes
  }
}
