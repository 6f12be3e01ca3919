import MapJSONText
import MapRuntime

/// Metadata values in a JSON store (`Specs/store-format.md` B.2): strings, numbers, Booleans,
/// arrays, objects and `null` as themselves; the property-list types JSON has no form for in
/// the forms Transformable values use (Specs/sqlite-store.md §5.1): a date is
/// `{"$date": seconds since 2001}` (the exact double), data `{"$data": "base64"}`, a real that is
/// not finite `{"$real": "NaN"}` (or `"Infinity"`, `"-Infinity"`); an object whose only key is
/// one of these (or `$dict`) is wrapped as `{"$dict": {…}}`. Reading gives back the value
/// written, so an `NSDate`, `NSData` or NaN stays one through a JSON store.
enum MetadataJSON {
  /// The keys of the typed forms.
  static let date = "$date"
  static let data = "$data"
  static let real = "$real"
  static let dictionary = "$dict"
  static let typedKeys: Set<String> = [date, data, real, dictionary]

  /// Writes `v` in the output's style.
  static func write(_ v: MetadataValue, to out: inout JSONOutput) {
    switch v {
    case .string(let s): out.writeString(s)
    case .int(let i): out.writeInt(i)
    case .real(let d):
      if d.isFinite {
        if (try? out.writeDouble(d)) == nil { out.writeNull() }
      } else {
        wrapped(real, to: &out) { $0.writeString(d.isNaN ? "NaN" : d < 0 ? "-Infinity" : "Infinity") }
      }
    case .number(let text): Array(text.utf8).withUnsafeBytes { out.writeEncodedValue($0) }
    case .bool(let b): out.writeBool(b)
    case .date(let t): wrapped(date, to: &out) { o in if (try? o.writeDouble(t)) == nil { o.writeNull() } }
    case .data(let d): wrapped(data, to: &out) { o in d.withUnsafeBytes { o.writeBase64($0) } }
    case .array(let items):
      out.beginArray()
      for x in items { write(x, to: &out) }
      out.endArray()
    case .object(let fields):
      let plain = { (o: inout JSONOutput) in
        o.beginObject()
        for f in fields {
          o.writeKey(f.key)
          write(f.value, to: &o)
        }
        o.endObject()
      }
      if fields.count == 1, typedKeys.contains(fields[0].key) {
        wrapped(dictionary, to: &out, plain)
      } else {
        plain(&out)
      }
    case .null: out.writeNull()
    }
  }

  private static func wrapped(_ key: String, to out: inout JSONOutput, _ body: (inout JSONOutput) -> Void) {
    out.beginObject()
    out.writeKey(key)
    body(&out)
    out.endObject()
  }

  /// The value whose first token is `first`. `typedForms`: whether an object of one typed key
  /// is that value (not for the object a `$dict` wraps).
  static func read(_ first: JSONToken, _ scanner: inout JSONScanner, typedForms: Bool = true) throws(JSONSyntaxError)
    -> MetadataValue
  {
    switch first.kind {
    case .string, .key: return .string(scanner.decodeString(first))
    case .number: return number(scanner.rawBytes(first))
    case .true: return .bool(true)
    case .false: return .bool(false)
    case .beginArray:
      var items: [MetadataValue] = []
      while true {
        let t = try scanner.next()
        if t.kind == .endArray { return .array(items) }
        items.append(try read(t, &scanner))
      }
    case .beginObject:
      var fields: [MetadataValue.Field] = []
      while let k = try scanner.nextKey() {
        let key = scanner.decodeString(k)
        fields.append(.init(key, try read(try scanner.next(), &scanner, typedForms: key != dictionary)))
      }
      return typedForms ? typed(fields) ?? .object(fields) : .object(fields)
    default: return .null
    }
  }

  /// A number: an integer when its text is one as mapc writes it, a double when its text is the
  /// double's as mapc writes it, else the text as written.
  static func number(_ raw: UnsafeRawBufferPointer) -> MetadataValue {
    let text = String(decoding: raw, as: UTF8.self)
    if let i = Int64(text), String(i) == text { return .int(i) }
    if let d = Double(text), d.isFinite, PythonFloatFormatter.string(d) == text { return .real(d) }
    return .number(text)
  }

  /// The value of a typed form (`{"$date": …}` and the others), nil for another object.
  private static func typed(_ fields: [MetadataValue.Field]) -> MetadataValue? {
    guard fields.count == 1 else { return nil }
    switch (fields[0].key, fields[0].value) {
    case (date, .real(let t)): return .date(t)
    case (date, .int(let t)): return .date(Double(t))
    case (date, .number(let t)): return Double(t).map { .date($0) }
    case (data, .string(let s)): return (try? Base64Codec.decode(s)).map { .data($0) }
    case (real, .string("NaN")): return .real(.nan)
    case (real, .string("Infinity")): return .real(.infinity)
    case (real, .string("-Infinity")): return .real(-.infinity)
    case (dictionary, .object(let inner)): return .object(inner)
    default: return nil
    }
  }
}
