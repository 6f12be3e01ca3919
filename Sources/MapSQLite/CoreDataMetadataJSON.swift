import MapRuntime

/// Metadata keys of `Z_PLIST` carried to a JSON store: each value rendered as JSON, in bytes the
/// graph's metadata slices point into. Property-list types JSON has no form for keep theirs in
/// the forms Transformable values use (Specs/sqlite-store.md §5.1): a date is
/// `{"$date": seconds since 2001}` (the exact double), data `{"$data": "base64"}`, a real that is
/// not finite `{"$real": "NaN"}` (or `"Infinity"`, `"-Infinity"`); a dictionary whose only key
/// is one of these (or `$dict`) is wrapped as `{"$dict": {…}}`. `plist(json:)` reads them back,
/// so an `NSDate`, `NSData` or NaN stays one through a JSON store and through `mapc run`.
enum CoreDataMetadataJSON {
  /// `prefix`: bytes the buffer starts with (the Transformable values' JSON texts).
  static func render(
    _ entries: [PropertyListValue.Entry], path: String, prefix: [UInt8] = []
  ) -> (InputBytes, [(key: String, json: ByteSlice)]) {
    var out = JSONOutput(style: .compact, initialCapacity: 1024)
    // The metadata is rendered apart and joined to the (large) prefix in one copy.
    var tail: [UInt8] = []
    var extra: [(key: String, json: ByteSlice)] = []
    for e in entries.sorted(by: { $0.key < $1.key }) {
      out = JSONOutput(style: .compact, initialCapacity: 256)
      write(e.value, to: &out)
      let rendered = out.bytes
      extra.append((e.key, ByteSlice(start: prefix.count + tail.count, count: rendered.count, hasEscapes: true)))
      tail += rendered
    }
    return (InputBytes(joining: prefix, tail, path: path), extra)
  }

  static func write(_ v: PropertyListValue, to out: inout JSONOutput) {
    switch v {
    case .string(let s): out.writeString(s)
    case .integer(let i): out.writeInt(i)
    case .real(let d):
      if d.isFinite {
        if (try? out.writeDouble(d)) == nil { out.writeNull() }
      } else {
        wrapped(TypedKey.real, to: &out) { $0.writeString(d.isNaN ? "NaN" : d < 0 ? "-Infinity" : "Infinity") }
      }
    case .bool(let b): out.writeBool(b)
    case .data(let d): wrapped(TypedKey.data, to: &out) { o in d.withUnsafeBytes { o.writeBase64($0) } }
    case .date(let t):
      wrapped(TypedKey.date, to: &out) { o in if (try? o.writeDouble(t)) == nil { o.writeNull() } }
    case .array(let items):
      out.beginArray()
      for x in items { write(x, to: &out) }
      out.endArray()
    case .dictionary(let entries):
      let plain = { (o: inout JSONOutput) in
        o.beginObject()
        for e in entries {
          o.writeKey(e.key)
          write(e.value, to: &o)
        }
        o.endObject()
      }
      if entries.count == 1, TypedKey.all.contains(entries[0].key) {
        wrapped(TypedKey.dictionary, to: &out, plain)
      } else {
        plain(&out)
      }
    case .uid(let u): out.writeInt(Int64(truncatingIfNeeded: u))
    case .null: out.writeNull()
    }
  }

  /// The keys of the typed forms.
  enum TypedKey {
    static let date = "$date"
    static let data = "$data"
    static let real = "$real"
    static let dictionary = "$dict"
    static let all: Set<String> = [date, data, real, dictionary]
  }

  private static func wrapped(_ key: String, to out: inout JSONOutput, _ body: (inout JSONOutput) -> Void) {
    out.beginObject()
    out.writeKey(key)
    body(&out)
    out.endObject()
  }

  /// A `mapcMigrations` step as recorded (strings, arrays and dictionaries).
  static func metadataValue(_ v: PropertyListValue) -> MetadataValue? {
    switch v {
    case .string(let s): return .string(s)
    case .integer(let i): return .int(i)
    case .array(let items): return .array(items.compactMap(metadataValue))
    case .dictionary(let entries):
      return .object(entries.compactMap { e in metadataValue(e.value).map { .init(e.key, $0) } })
    default: return nil
    }
  }
}

extension CoreDataMetadataJSON {
  /// A JSON value (a metadata key of a JSON store, a Transformable) as a plist value: integers
  /// stay integers, other numbers are reals, null is dropped by the caller. Nil when the text is
  /// not JSON.
  static func plist(json raw: [UInt8]) -> PropertyListValue? {
    raw.withUnsafeBytes { bytes -> PropertyListValue? in
      var scanner = JSONScanner(bytes)
      return try? value(scanner.next(), &scanner)
    }
  }

  /// `typedForms`: whether an object of one typed key is that value (not for the object a
  /// `$dict` wraps).
  private static func value(_ t: JSONToken, _ scanner: inout JSONScanner, typedForms: Bool = true) throws
    -> PropertyListValue
  {
    switch t.kind {
    case .string, .key: return .string(scanner.decodeString(t))
    case .number:
      let text = String(decoding: scanner.rawBytes(t), as: UTF8.self)
      if let i = Int64(text) { return .integer(i) }
      return .real(Double(text) ?? 0)
    case .true: return .bool(true)
    case .false: return .bool(false)
    case .beginArray:
      var items: [PropertyListValue] = []
      while true {
        let n = try scanner.next()
        if n.kind == .endArray { return .array(items) }
        items.append(try value(n, &scanner))
      }
    case .beginObject:
      var entries: [PropertyListValue.Entry] = []
      while let k = try scanner.nextKey() {
        let key = scanner.decodeString(k)
        entries.append(.init(key, try value(scanner.next(), &scanner, typedForms: key != TypedKey.dictionary)))
      }
      return typedForms ? typed(entries) ?? .dictionary(entries) : .dictionary(entries)
    default: return .null
    }
  }

  /// The value of a typed form (`{"$date": …}` and the others), nil for another object.
  private static func typed(_ entries: [PropertyListValue.Entry]) -> PropertyListValue? {
    guard entries.count == 1 else { return nil }
    switch (entries[0].key, entries[0].value) {
    case (TypedKey.date, .real(let t)): return .date(t)
    case (TypedKey.date, .integer(let t)): return .date(Double(t))
    case (TypedKey.data, .string(let s)): return (try? Base64Codec.decode(s)).map { .data($0) }
    case (TypedKey.real, .string("NaN")): return .real(.nan)
    case (TypedKey.real, .string("Infinity")): return .real(.infinity)
    case (TypedKey.real, .string("-Infinity")): return .real(-.infinity)
    case (TypedKey.dictionary, .dictionary(let inner)): return .dictionary(inner)
    default: return nil
    }
  }
}
