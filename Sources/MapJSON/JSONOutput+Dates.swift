import MapJSONText
import MapRuntime

/// Dates written into a JSON document, as ISO 8601 text (`ISO8601DateCodec`).
extension JSONOutput {
  /// Writes a date (seconds since 2001-01-01T00:00:00Z) as a quoted ISO 8601 string. A date
  /// that cannot be written throws and writes nothing.
  package mutating func writeDate(_ seconds: Double) throws(StoreValueError) {
    var text: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
    try withUnsafeMutableBytes(of: &text) { raw throws(StoreValueError) in
      let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
      p[0] = ASCII.quote
      let length = try ISO8601DateCodec.format(seconds, into: p + 1)
      p[length + 1] = ASCII.quote
      writeEncodedValue(UnsafeRawBufferPointer(start: p, count: length + 2))
    }
  }

  /// Writes a Date attribute's value: the ISO 8601 string, or for a finite date outside the
  /// years 0000–9999 (a real store may hold one) `{"$date": seconds since 2001}`, the form
  /// Transformable values and metadata use, so that the value is carried, not refused.
  package mutating func writeDateAttribute(_ seconds: Double) throws(StoreValueError) {
    do {
      try writeDate(seconds)
    } catch {
      guard seconds.isFinite else { throw error }
      beginObject()
      writeKey(ArchivedValueJSON.dateKey)
      try writeDouble(seconds)
      endObject()
    }
  }
}
