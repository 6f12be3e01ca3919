import Foundation
import MapArchives
import MapRuntime

/// Transformable values of a store that keeps them as bytes (Core Data's SQLite store) in a
/// JSON store: the same values a JSON store gives a mapping (Specs/sqlite-store.md §5.1).
///
/// Bytes become their archived value's JSON when they are an archive of property-list classes
/// that `TransformableArchive.encode` writes back byte for byte (so a store exported and
/// imported again has the same bytes); any other bytes become `{"$bytes": "base64"}`, and are
/// written back unchanged.
public enum TransformableText {
  /// Appends the JSON form of a payload of another store's graph: bytes as their archived value
  /// where that has a JSON form reading back as itself, else `{"$bytes": …}`; a value as itself.
  package static func appendJSON(_ payload: TransformablePayload, to out: inout [UInt8]) {
    switch payload {
    case .value(let v):
      if !ArchivedValueJSON.append(v, to: &out) { out.append(contentsOf: "null".utf8) }
    case .bytes(let blob, let v):
      if let v, Converter.appendReadingBack(v, to: &out) { return }
      ArchivedValueJSON.appendBytes(blob, to: &out)
    }
  }

  /// Appends the JSON form of stored bytes.
  public static func appendJSON(_ blob: [UInt8], decoding: Bool, to out: inout [UInt8]) {
    var converter = Converter()
    blob.withUnsafeBytes { converter.appendJSON($0, decoding: decoding, to: &out) }
  }

  /// Appends the JSON form of stored bytes, keeping its scratch memory from one call to the
  /// next: one per thread.
  public struct Converter: Sendable {
    var verifier = TransformableArchive.Verifier()

    public init() {}

    /// Appends the JSON form of `blob`: its archived value when `TransformableArchive.encode`
    /// gives back exactly these bytes (`TransformableArchive.Verifier`), else `{"$bytes": …}`.
    public mutating func appendJSON(_ blob: UnsafeRawBufferPointer, decoding: Bool, to out: inout [UInt8]) {
      if decoding, let v = TransformableArchive.decode(blob), verifier.matches(v, blob),
        Self.appendReadingBack(v, to: &out)
      {
        return
      }
      ArchivedValueJSON.appendBytes(blob, to: &out)
    }

    /// Appends the JSON form of `v` when it reads back as `v` (an NSDictionary `{"$date": 1}`
    /// would come back as an NSDate, a NaN has none); false, with `out` unchanged, otherwise.
    static func appendReadingBack(_ v: ArchivedValue, to out: inout [UInt8]) -> Bool {
      let mark = out.count
      guard ArchivedValueJSON.append(v, to: &out) else { return false }
      if !TransformableText.hasDictionary(v) { return true }
      let parsed = out[mark...].withUnsafeBytes { try? ArchivedValueJSON.parse($0) }
      if parsed == .value(v) { return true }
      out.removeSubrange(mark...)
      return false
    }
  }

  /// Only a dictionary's JSON can read back as something else (`{"$date": …}`, `{"$bytes": …}`).
  static func hasDictionary(_ v: ArchivedValue) -> Bool {
    switch v {
    case .dictionary: true
    case .array(let items): items.contains(where: hasDictionary)
    default: false
    }
  }

  /// The bytes to store for a Transformable's JSON form (`appendJSON`'s output, or any JSON
  /// value of a JSON store): `{"$bytes": …}` gives its bytes, anything else the archive of the
  /// value. `archiving`: false for an attribute with a custom value transformer, which takes
  /// only `{"$bytes": …}`.
  public static func bytes(json: [UInt8], archiving: Bool) throws(ArchivedValueError) -> [UInt8] {
    switch try ArchivedValueJSON.parse(json) {
    case .bytes(let b):
      return b
    case .value(let v):
      guard archiving else {
        throw ArchivedValueError(
          "the attribute's value transformer is a custom one, so only {\"$bytes\": …} can be stored")
      }
      return try TransformableArchive.encode(v)
    }
  }
}
