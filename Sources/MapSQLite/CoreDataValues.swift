import Foundation
import MapRuntime

/// Attribute values as Core Data stores them in SQLite (reference §4.2), decoded to the values
/// of the object graph. A value of a storage class the attribute cannot have is an error that
/// the caller places at its table, column and row.
enum CoreDataValues {
  struct Mismatch: Error {
    var message: String
  }

  /// `externalFolder`: the store's `.<name>_SUPPORT/_EXTERNAL_DATA` folder, for Binary
  /// attributes that allow external storage.
  static func decode(
    _ v: SQLiteValue, _ a: AttributeDescription, externalFolder: String
  ) throws(Mismatch) -> Value {
    try decode(v, type: a.type, external: a.allowsExternalBinaryDataStorage, externalFolder: externalFolder)
  }

  /// `decode` of an attribute of `type` (`external`: a Binary that allows external storage),
  /// for callers that keep only these of each attribute (a row copies no description).
  static func decode(
    _ v: SQLiteValue, type: AttributeType, external: Bool, externalFolder: String
  ) throws(Mismatch) -> Value {
    if case .null = v { return .null }
    switch type {
    case .integer16, .integer32, .integer64:
      switch v {
      case .integer(let i):
        if let range = type.integerRange, !range.contains(i) {
          throw Mismatch(message: "\(i) does not fit \(type.rawValue)")
        }
        return .int(i)
      case .real(let d) where d == d.rounded() && abs(d) < 9.2e18: return .int(Int64(d))
      default: throw wrong(v, type)
      }
    case .boolean:
      guard case .integer(let i) = v else { throw wrong(v, type) }
      return .bool(i != 0)
    case .double, .float:
      switch v {
      case .real(let d): return .double(d)
      case .integer(let i): return .double(Double(i))
      default: throw wrong(v, type)
      }
    case .date:
      // Seconds since 2001-01-01; whole seconds come back as INTEGER (NUMERIC affinity).
      switch v {
      case .real(let d): return .date(d)
      case .integer(let i): return .date(Double(i))
      default: throw wrong(v, type)
      }
    case .decimal:
      let text: String
      switch v {
      case .integer(let i): text = String(i)
      case .real(let d): text = d.isFinite ? "\(d)" : ""
      case .text(let t): text = t
      default: throw wrong(v, type)
      }
      do {
        return .decimal(try DecimalText.canonical(text))
      } catch {
        throw Mismatch(message: "'\(text)' is not a decimal Core Data can hold: \(error.message)")
      }
    case .string, .uri:
      guard case .text(let t) = v else { throw wrong(v, type) }
      return .string(.native(t))
    case .uuid:
      switch v {
      case .blob(let b) where b.count == 16: return .string(.native(uuidText(b)))
      case .text(let t): return .string(.native(t))
      default: throw Mismatch(message: "a UUID attribute holds a 16-byte BLOB, not \(describe(v))")
      }
    case .binary:
      guard case .blob(let b) = v else { throw wrong(v, type) }
      guard external else { return .data(b) }
      switch try Self.external(b, folder: externalFolder) {
      case .inline(let bytes), .file(_, let bytes): return .data(bytes)
      case .missing(let uuid): throw Mismatch(message: ExternalData.missingMessage(folder: externalFolder, uuid))
      }
    case .transformable, .undefined, .objectID, .composite:
      switch v {
      case .blob(let b): return .data(b)
      case .text(let t): return .string(.native(t))
      case .integer(let i): return .int(i)
      case .real(let d): return .double(d)
      case .null: return .null
      case .malformedText: throw wrong(v, type)
      }
    }
  }

  /// True when a Transformable attribute's bytes are an `NSKeyedArchiver` archive: no value
  /// transformer named, or one of Foundation's keyed-archive transformers.
  static func isArchive(_ a: AttributeDescription) -> Bool {
    switch a.valueTransformerName ?? "" {
    case "", "NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformer", "NSKeyedUnarchiveFromData": true
    default: false
    }
  }

  /// A Binary value that allows external storage, as stored (Specs/sqlite-store.md §5).
  enum External {
    /// `0x01` + the bytes (or an empty BLOB).
    case inline([UInt8])
    /// `0x02` + the UUID + `0x00`, the file there: its name and bytes.
    case file(String, [UInt8])
    /// A reference whose file is not there (or cannot be read).
    case missing(String)
  }

  /// A Binary attribute that allows external storage: `0x01` + the bytes, or `0x02` + the
  /// external file's UUID (36 ASCII characters) + `0x00`, the file read from `folder`.
  static func external(_ b: [UInt8], folder: String) throws(Mismatch) -> External {
    guard let marker = b.first else { return .inline(b) }
    switch marker {
    case 1: return .inline(Array(b.dropFirst()))
    case 2:
      guard let name = ExternalData.uuid(ofReference: b) else {
        throw Mismatch(
          message: "an external-storage reference that is not 0x02, a UUID of 36 characters and 0x00 (\(b.count) bytes)"
        )
      }
      let path = "\(folder)/\(name)"
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return .missing(name) }
      guard !isFolder.boolValue, let data = FileManager.default.contents(atPath: path) else {
        throw Mismatch(message: "its data is stored outside the database, in \(path), which cannot be read")
      }
      return .file(name, [UInt8](data))
    default:
      throw Mismatch(
        message: "an external-storage value starts with \(marker); Core Data writes 1 (inline) or 2 (external file)")
    }
  }

  static func uuidText(_ b: [UInt8]) -> String {
    let hex = b.map { String(format: "%02X", $0) }
    return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
  }

  static func describe(_ v: SQLiteValue) -> String {
    switch v {
    case .blob(let b): "a \(b.count)-byte BLOB"
    case .malformedText(let n, let offset): "a \(n)-byte TEXT that is not UTF-8 (from byte \(offset) on)"
    default: v.typeName
    }
  }

  static func wrong(_ v: SQLiteValue, _ type: AttributeType) -> Mismatch {
    Mismatch(message: "an attribute of type \(type.rawValue) cannot hold \(describe(v))")
  }
}
