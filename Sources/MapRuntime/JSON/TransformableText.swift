import Foundation

/// Transformable values of a store that keeps them as bytes (Core Data's SQLite store), as the
/// JSON texts a graph's `.transformable` values hold: the same values a JSON store gives a mapping
/// (Specs/sqlite-store.md §5.1).
///
/// Bytes become their archived value's JSON when they are an archive of property-list classes
/// that `TransformableArchive.encode` writes back byte for byte (so a store exported and
/// imported again has the same bytes); any other bytes become `{"$bytes": "base64"}`, and are
/// written back unchanged.
public struct TransformableText: Sendable {
  /// The JSON texts, one after another; the `.transformable` slices returned point into them (offset
  /// by `base`).
  public private(set) var text: [UInt8] = []
  public let base: Int
  /// The last few values read and their slices: equal values share their text, as a JSON
  /// store's do (`StringCompaction`), which the interpreter's caches rely on.
  private var recent: [(blob: [UInt8], slice: ByteSlice)] = []
  private var next = 0
  private var converter = Converter()

  public init(base: Int = 0) { self.base = base }

  /// The codec of the payloads `value(_:decoding:)` returns (their JSON text).
  package static var codec: any TransformableCodec.Type { RawJSON.self }

  /// The value of a Transformable column's bytes. `decoding`: false for an attribute with a
  /// custom value transformer, whose bytes are never taken as an archive.
  public mutating func value(_ blob: [UInt8], decoding: Bool) -> Value {
    blob.withUnsafeBytes { value($0, decoding: decoding) }
  }

  /// The value of bytes that are valid only during the call (a column read in place): copied
  /// only when they are not one of the last few values.
  public mutating func value(_ blob: UnsafeRawBufferPointer, decoding: Bool) -> Value {
    for r in recent where r.blob.count == blob.count {
      let same = r.blob.withUnsafeBytes { kept in
        blob.count == 0 || memcmp(kept.baseAddress!, blob.baseAddress!, blob.count) == 0
      }
      if same { return .transformable(r.slice) }
    }
    let start = text.count
    converter.appendJSON(blob, decoding: decoding, to: &text)
    let slice = ByteSlice(start: base + start, count: text.count - start, hasEscapes: true)
    if recent.count < 8 {
      recent.append((Array(blob), slice))
    } else {
      // The slot's bytes are replaced in the memory they had (no allocation per value).
      recent[next].slice = slice
      recent[next].blob.removeAll(keepingCapacity: true)
      recent[next].blob.append(contentsOf: blob)
      next = (next + 1) % 8
    }
    return .transformable(slice)
  }

  /// A value whose JSON text is given (a Composite attribute's object of its elements,
  /// Specs/sqlite-store.md §5.2), appended as it is.
  public mutating func value(json: [UInt8]) -> Value {
    let start = text.count
    text.append(contentsOf: json)
    return .transformable(ByteSlice(start: base + start, count: json.count, hasEscapes: true))
  }

  /// Appends the texts of another reader's values (one that read other rows of the same store);
  /// returns what to add to the start of its slices.
  public mutating func append(_ other: TransformableText) -> Int {
    let shift = base + text.count - other.base
    text.append(contentsOf: other.text)
    return shift
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
      if decoding, let v = TransformableArchive.decode(blob), verifier.matches(v, blob) {
        let mark = out.count
        if ArchivedValueJSON.append(v, to: &out) {
          // Only a value whose JSON form reads back as itself (an NSDictionary `{"$date": 1}`
          // would come back as an NSDate) is given as a value.
          if !TransformableText.hasDictionary(v) { return }
          let parsed = out[mark...].withUnsafeBytes { try? ArchivedValueJSON.parse($0) }
          if parsed == .value(v) { return }
          out.removeSubrange(mark...)
        }
      }
      ArchivedValueJSON.appendBytes(blob, to: &out)
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
