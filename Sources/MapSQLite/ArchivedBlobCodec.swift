import Foundation
import MapArchives
import MapRuntime

/// The codec of the Transformable payloads of a graph read from Core Data's SQLite store: each
/// payload is the column's bytes as stored, after one byte that says whether they may be an
/// `NSKeyedArchiver` archive (1) or are a custom value transformer's (0)
/// (`TransformableBlobs`), or (2) the archive of a value built from columns (a Composite
/// attribute's dictionary), which is that value. Archives are read when something looks inside
/// them, never when the bytes are only written to another SQLite store.
///
/// A payload after the byte 3 is no Transformable value: a Binary value kept in an external
/// file that is missing, its column bytes (`0x02`, the UUID, `0x00`), which only a writer of
/// an SQLite store takes, as they are (`unreadable`).
enum ArchivedBlobCodec: TransformableCodec {
  /// The UUID of a reference to a missing external file (the payload after the byte 3).
  static func missingReference(_ input: InputBytes, _ s: ByteSlice) -> String? {
    let all = input.unsafeBytes
    guard s.start > 0, all[s.start - 1] == 3 else { return nil }
    return ExternalData.uuid(ofReference: all[s.start..<s.end])
  }

  static func unreadable(_ input: InputBytes, _ s: ByteSlice) -> String? {
    guard let uuid = missingReference(input, s) else { return nil }
    return ExternalData.missingMessage(folder: ExternalData.dataFolder(ofStore: input.path), uuid)
      + " (a Binary value Core Data keeps outside the store: only a copy to an SQLite store can carry it)"
  }

  static func payload(_ input: InputBytes, _ s: ByteSlice) throws(ArchivedValueError) -> TransformablePayload {
    if let why = unreadable(input, s) { throw ArchivedValueError(why) }
    let all = input.unsafeBytes
    let bytes = Array(all[s.start..<s.end])
    if s.start > 0, all[s.start - 1] == 2, let v = bytes.withUnsafeBytes({ TransformableArchive.decode($0) }) {
      return .value(v)
    }
    guard s.start > 0, all[s.start - 1] == 1,
      let v = bytes.withUnsafeBytes({ TransformableArchive.decode($0) })
    else { return .bytes(bytes, archived: nil) }
    let same = ArchiveScratch.verifiers.with { verifier in bytes.withUnsafeBytes { verifier.matches(v, $0) } }
    return .bytes(bytes, archived: same ? v : nil)
  }

  /// What a mapping sees of a payload, read in place: the value the archive holds, as
  /// Foundation's unarchiver gives it to a mapping on the device, whether or not mapc's writer
  /// would lay it out byte for byte the same (an `NSMutableArray`, a dictionary written with
  /// shared references); `["$bytes": base64]` for bytes that are not such an archive
  /// (`TransformablePayload.mappingValue`). No copy of the bytes is made, and each string
  /// stored as ASCII bytes with nothing JSON escapes (no `"`, `\\`, control character) is a
  /// slice of `input` where the archive holds it rather than a string of its own (as a JSON
  /// store's strings are), which keeps the destination's columns small and lets pass 1 store
  /// them on every core (`ParallelCreation`).
  static func value(_ input: InputBytes, _ s: ByteSlice) throws -> Value {
    let all = input.unsafeBytes
    guard s.start > 0, all[s.start - 1] == 1 else { return try payload(input, s).mappingValue }
    let bytes = UnsafeRawBufferPointer(rebasing: all[s.start..<s.end])
    return withView(bytes) { v, spans in
      var next = 0
      return mappingValue(v, bytes, offset: s.start, spans, &next)
    } ?? TransformablePayload.bytes(Array(bytes), archived: nil).mappingValue
  }

  /// Calls `body` with the value the archive `bytes` holds, decoded for a mapping's view
  /// (`decode(_:stringSpans:textAtSpans:)`), and its string spans; nil, without calling it,
  /// when the bytes are not such an archive or the value has no form of its own (then a
  /// mapping sees the bytes).
  private static func withView<R>(_ bytes: UnsafeRawBufferPointer, _ body: (ArchivedValue, [Int]) -> R) -> R? {
    ArchiveScratch.spans.with { spans -> R? in
      guard let v = TransformableArchive.decode(bytes, stringSpans: &spans, textAtSpans: true),
        TransformablePayload.hasOwnForm(v, top: true)
      else { return nil }
      return body(v, spans)
    }
  }

  /// `TransformablePayload.mappingValue` of a checked value whose strings lie at `spans`
  /// (`TransformableArchive.decode(_:stringSpans:)`), `next` the index of the next one.
  private static func mappingValue(
    _ v: ArchivedValue, _ bytes: UnsafeRawBufferPointer, offset: Int, _ spans: [Int], _ next: inout Int
  ) -> Value {
    switch v {
    case .string(let text):
      let start = spans[next]
      let count = spans[next + 1]
      next += 2
      guard start >= 0 else { return .string(.native(text)) }
      // Decoded with `textAtSpans`: the text is the ASCII bytes at the span.
      let ascii = UnsafeRawBufferPointer(rebasing: bytes[start..<start + count])
      if ByteSlice.isVerbatim(ascii) {
        return .string(.slice(ByteSlice(start: offset + start, count: count, hasEscapes: false)))
      }
      return .string(.native(String(decoding: ascii, as: UTF8.self)))
    case .array(let items):
      var out: [Value] = []
      out.reserveCapacity(items.count)
      for item in items { out.append(mappingValue(item, bytes, offset: offset, spans, &next)) }
      return .array(out)
    case .dictionary(let entries):
      next += 2 * entries.count  // the keys, native strings
      var out: [(String, Value)] = []
      out.reserveCapacity(entries.count)
      for e in entries { out.append((e.key, mappingValue(e.value, bytes, offset: offset, spans, &next))) }
      return .dictionary(out.sorted { $0.0 < $1.0 })
    default:
      return TransformablePayload.value(v).mappingValue
    }
  }

  static func elements(_ input: InputBytes, _ s: ByteSlice, into items: inout [Value]) -> Bool {
    items.removeAll(keepingCapacity: true)
    let all = input.unsafeBytes
    if s.start > 0, all[s.start - 1] == 1 {
      // `value`'s array, its elements made straight into `items`.
      let bytes = UnsafeRawBufferPointer(rebasing: all[s.start..<s.end])
      return withView(bytes) { v, spans -> Bool in
        guard case .array(let elements) = v else { return false }
        var next = 0
        items.reserveCapacity(elements.count)
        for e in elements { items.append(mappingValue(e, bytes, offset: s.start, spans, &next)) }
        return true
      } ?? false
    }
    guard case .array(let all)? = try? value(input, s) else { return false }
    items.append(contentsOf: all)
    return true
  }

  static func arrayCount(_ input: InputBytes, _ s: ByteSlice) -> Int? {
    guard case .array(let all)? = try? value(input, s) else { return nil }
    return all.count
  }
}
