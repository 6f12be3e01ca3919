import Foundation
import MapRuntime

extension CoreDataWriter {
  /// An attribute value as Core Data stores it (reference §4.2); the reverse of
  /// `CoreDataValues.decode`.
  mutating func encode(_ v: Value, _ a: AttributeDescription, at place: String) -> SQLiteValue {
    switch v {
    case .null: return .null
    case .int(let i): return a.type == .boolean ? .integer(i != 0 ? 1 : 0) : .integer(i)
    case .bool(let b): return .integer(b ? 1 : 0)
    case .double(let d), .date(let d): return .real(d)
    case .decimal(let text):
      // Declared DECIMAL: NUMERIC affinity stores a number as INTEGER or REAL, as Core Data's do.
      return .text(text)
    case .string(let t):
      let s = ObjectGraph.string(t, input: input)
      if a.type == .uuid, let bytes = Self.uuidBytes(s) { return .blob(bytes) }
      return .text(s)
    case .data(let bytes):
      return .blob(a.allowsExternalBinaryDataStorage && a.type == .binary ? [1] + bytes : bytes)
    case .json(let slice):
      // A Transformable read from a JSON store: the base64 of its bytes (as export writes it).
      let raw = ObjectGraph.rawJSON(slice, input: input)
      if case .string(let text)? = CoreDataMetadataJSON.plist(json: raw), let bytes = Data(base64Encoded: text) {
        return .blob([UInt8](bytes))
      }
      errors.append("\(place): a Transformable value in an SQLite store is bytes: the JSON store must hold their base64 string")
      return .null
    default:
      errors.append("\(place): \(a.type.rawValue) value cannot be stored in SQLite")
      return .null
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
