import MapJSONText
import MapRuntime

/// JSON text to and from `Value`s for `mapc eval`: objects become dictionaries (their members
/// are keys), arrays collections; results are written compactly with the store's JSON writer.
package enum ValueJSON {
  /// The value of one JSON document. Strings are decoded (no slices of a buffer are kept).
  package static func parse(_ text: String) throws(JSONSyntaxError) -> Value {
    let input = InputBytes(Array(text.utf8))
    var scanner = JSONScanner(input.unsafeBytes)
    let range = try scanner.skipValue()
    guard try scanner.next().kind == .endOfInput else {
      throw JSONSyntaxError(.trailingCharacters, "text after the JSON value", at: scanner.position)
    }
    let value = try RawJSON.value(input, ByteSlice(start: range.lowerBound, count: range.count, hasEscapes: false))
    return decoded(value, input)
  }

  /// `value` with every string slice of `input` decoded into a native string.
  private static func decoded(_ value: Value, _ input: InputBytes) -> Value {
    switch value {
    case .string(.slice(let s)): return .string(.native(input.decodeString(s)))
    case .array(let items): return .array(items.map { decoded($0, input) })
    case .dictionary(let pairs): return .dictionary(pairs.map { ($0.0, decoded($0.1, input)) })
    default: return value
    }
  }

  /// Compact JSON text of `value`: numbers as NSNumber prints them (`4`, `3.5`, `1e+100`; a NaN or
  /// infinite double, which JSON has no number for, as `{"$real": "NaN"}`, `"Infinity"` or
  /// `"-Infinity"`, the form of a store's metadata and Transformable values), dates as
  /// ISO 8601 strings, binary data as base64, decimals as their digits; objects of a store and
  /// handles such as `$manager` as a string describing them. `value` is plain: its strings are
  /// native, and Transformable payloads, objects and handles were turned into what they hold or
  /// a description (`ExpressionEvaluator.json`); any left are written as `null`.
  package static func render(_ value: Value) -> String {
    var out = JSONOutput(style: .compact, initialCapacity: 256)
    write(value, to: &out)
    return out.string
  }

  private static func write(_ value: Value, to out: inout JSONOutput) {
    switch value {
    case .null: out.writeNull()
    case .bool(let b): out.writeBool(b)
    case .int(let i): out.writeInt(i)
    case .double(let d) where !d.isFinite:
      // JSON has no NaN or infinity: the form a store's metadata uses for them.
      out.beginObject()
      out.writeKey("$real")
      out.writeString(d.isNaN ? "NaN" : d < 0 ? "-Infinity" : "Infinity")
      out.endObject()
    case .double(let d):
      Array(NumberText.shortest(d).utf8).withUnsafeBytes { out.writeEncodedValue($0) }
    case .decimal(let s): Array(s.utf8).withUnsafeBytes { out.writeEncodedValue($0) }
    case .string(let t): out.writeString(ObjectGraph.string(t, input: nil))
    case .date(let t): out.writeString(ISO8601.format(t))
    case .data(let bytes): bytes.withUnsafeBytes { out.writeBase64($0) }
    case .array(let items):
      out.beginArray()
      for item in items { write(item, to: &out) }
      out.endArray()
    case .dictionary(let pairs):
      out.beginObject()
      for (key, item) in pairs {
        out.writeKey(key)
        write(item, to: &out)
      }
      out.endObject()
    case .transformable, .sourceObject, .destinationObject, .special:
      out.writeNull()
    }
  }
}
