import MapRuntime

/// Metadata keys of `Z_PLIST` carried to a JSON store: each value rendered as JSON (data as
/// base64, dates as ISO 8601 strings), in bytes the graph's metadata slices point into.
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
    case .real(let d): if (try? out.writeDouble(d)) == nil { out.writeNull() }
    case .bool(let b): out.writeBool(b)
    case .data(let d): d.withUnsafeBytes { out.writeBase64($0) }
    case .date(let t): if (try? out.writeDate(t)) == nil { out.writeNull() }
    case .array(let items):
      out.beginArray()
      for x in items { write(x, to: &out) }
      out.endArray()
    case .dictionary(let entries):
      out.beginObject()
      for e in entries {
        out.writeKey(e.key)
        write(e.value, to: &out)
      }
      out.endObject()
    case .uid(let u): out.writeInt(Int64(truncatingIfNeeded: u))
    case .null: out.writeNull()
    }
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

  private static func value(_ t: JSONToken, _ scanner: inout JSONScanner) throws -> PropertyListValue {
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
        entries.append(.init(scanner.decodeString(k), try value(scanner.next(), &scanner)))
      }
      return .dictionary(entries)
    default: return .null
    }
  }
}
