/// Writes an `ObjectGraph` as a JSON store in the contract's exact bytes: metadata first, then
/// entities by name, objects in creation order, `id` first and properties by name, every
/// property present (`null`, `[]`).
public struct StoreWriter {
  public struct Metadata: Sendable {
    public var modelVersionIdentifiers: [String]
    public var entityHashes: [EntityHash]
    /// Extra metadata keys carried over from the input, with their raw JSON in `input`.
    public var extra: [(key: String, json: ByteSlice)]
    public init(modelVersionIdentifiers: [String], entityHashes: [EntityHash], extra: [(key: String, json: ByteSlice)] = []) {
      self.modelVersionIdentifiers = modelVersionIdentifiers
      self.entityHashes = entityHashes
      self.extra = extra
    }
  }

  /// The bytes string slices refer to (the source store's input), if any.
  let input: InputBytes?
  let graph: ObjectGraph
  private var idBuffer: [UInt8] = []

  public init(graph: ObjectGraph, input: InputBytes?) {
    self.graph = graph
    self.input = input
  }

  /// Writes the whole document, final newline included; flushes `out`.
  public mutating func write(metadata: Metadata, to out: inout JSONOutput) throws(StoreWriteError) {
    out.beginObject()
    out.writeKey(PreparedKey("metadata"))
    out.beginObject()
    out.writeKey(PreparedKey("format"))
    out.writeString("mapc-store")
    out.writeKey(PreparedKey("formatVersion"))
    out.writeInt(1)
    out.writeKey(PreparedKey("modelVersionIdentifiers"))
    out.beginArray()
    for v in metadata.modelVersionIdentifiers { out.writeString(v) }
    out.endArray()
    out.writeKey(PreparedKey("entityVersionHashes"))
    out.beginObject()
    for h in metadata.entityHashes.sorted(by: { $0.entity < $1.entity }) {
      out.writeKey(h.entity)
      h.hash.withUnsafeBytes { out.writeBase64($0) }
    }
    out.endObject()
    for (key, json) in metadata.extra.sorted(by: { $0.key < $1.key }) {
      out.writeKey(key)
      try copyJSON(json, to: &out)
    }
    out.endObject()

    out.writeKey(PreparedKey("objects"))
    out.beginObject()
    let order = graph.tables.indices.sorted { graph.tables[$0].layout.name < graph.tables[$1].layout.name }
    let idKey = PreparedKey("id")
    for e in order {
      let table = graph.tables[e]
      out.writeKey(table.layout.name)
      out.beginArray()
      let keys = table.layout.properties.map { PreparedKey($0.name) }
      let prefixes = graph.tables.map { Array($0.layout.name.utf8) + [UInt8(ascii: "/")] }
      for row in 0..<table.count {
        out.beginObject()
        out.writeKey(idKey)
        writeID(prefixes[e], row, to: &out)
        for (c, column) in table.columns.enumerated() {
          out.writeKey(keys[c])
          try writeCell(column, row, prefixes, to: &out, entity: table.layout.name, property: table.layout.properties[c].name)
        }
        out.endObject()
      }
      out.endArray()
    }
    out.endObject()
    out.endObject()
    do {
      try out.finishDocument()
    } catch {
      throw .io(error)
    }
  }

  @inline(__always)
  private mutating func writeID(_ prefix: [UInt8], _ row: Int, to out: inout JSONOutput) {
    idBuffer.removeAll(keepingCapacity: true)
    idBuffer.append(contentsOf: prefix)
    var n = row + 1
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    let count = withUnsafeMutableBytes(of: &digits) { raw -> Int in
      var i = 0
      repeat {
        raw[i] = UInt8(48 + n % 10)
        n /= 10
        i += 1
      } while n > 0
      return i
    }
    withUnsafeBytes(of: &digits) { raw in
      for i in stride(from: count - 1, through: 0, by: -1) { idBuffer.append(raw[i]) }
    }
    idBuffer.withUnsafeBytes { out.writeString(utf8: $0) }
  }

  private mutating func writeCell(
    _ column: Column, _ row: Int, _ prefixes: [[UInt8]], to out: inout JSONOutput, entity: String, property: String
  ) throws(StoreWriteError) {
    switch column {
    case let c as TextColumn:
      let v = c.values[row]
      if v == 0 {
        out.writeNull()
      } else {
        writeText(c.text(v), to: &out)
      }
    case let c as IntColumn:
      if c.present[row] { out.writeInt(c.values[row]) } else { out.writeNull() }
    case let c as DoubleColumn:
      if !c.present[row] {
        out.writeNull()
      } else {
        do {
          if c.isDate { try out.writeDate(c.values[row]) } else { try out.writeDouble(c.values[row]) }
        } catch {
          throw .value(error, "\(entity)/\(row + 1).\(property)")
        }
      }
    case let c as BoolColumn:
      switch c.values[row] {
      case 0: out.writeBool(false)
      case 1: out.writeBool(true)
      default: out.writeNull()
      }
    case let c as ToOneColumn:
      if let t = c.target(row) { writeID(prefixes[Int(t.entity)], Int(t.row), to: &out) } else { out.writeNull() }
    case let c as ToManyColumn:
      out.beginArray()
      for p in c.values[row] {
        let t = ObjectRef(packed: p)
        writeID(prefixes[Int(t.entity)], Int(t.row), to: &out)
      }
      out.endArray()
    case let c as ValueColumn:
      try writeValue(c.values[row], to: &out)
    default:
      out.writeNull()
    }
  }

  private func writeText(_ t: Text, to out: inout JSONOutput) {
    switch t {
    case .native(let s): out.writeString(s)
    case .slice(let s):
      if let input { out.writeString(raw: input.buffer(s), hasEscapes: s.hasEscapes) } else { out.writeNull() }
    }
  }

  /// Writes any value (Transformable contents, Decimal text, Binary data).
  private mutating func writeValue(_ v: Value, to out: inout JSONOutput) throws(StoreWriteError) {
    switch v {
    case .null: out.writeNull()
    case .bool(let b): out.writeBool(b)
    case .int(let i): out.writeInt(i)
    case .double(let d):
      do { try out.writeDouble(d) } catch { throw .value(error, "a Transformable value") }
    case .decimal(let s): out.writeString(s)
    case .string(let t): writeText(t, to: &out)
    case .date(let t):
      do { try out.writeDate(t) } catch { throw .value(error, "a date") }
    case .data(let bytes): bytes.withUnsafeBytes { out.writeBase64($0) }
    case .json(let s): try copyJSON(s, to: &out)
    case .array(let items):
      out.beginArray()
      for x in items { try writeValue(x, to: &out) }
      out.endArray()
    case .dictionary(let pairs):
      out.beginObject()
      for (k, x) in pairs.sorted(by: { $0.0 < $1.0 }) {
        out.writeKey(k)
        try writeValue(x, to: &out)
      }
      out.endObject()
    case .sourceObject, .destinationObject, .special:
      throw .unwritable("an object reference cannot be stored in an attribute")
    }
  }

  /// Re-emits a raw JSON value of the input in the output's style, token by token (object keys
  /// and numbers as the input wrote them).
  private func copyJSON(_ s: ByteSlice, to out: inout JSONOutput) throws(StoreWriteError) {
    guard let input else {
      out.writeNull()
      return
    }
    let raw = UnsafeRawBufferPointer(rebasing: input.unsafeBytes[s.start..<s.end])
    var scanner = JSONScanner(raw)
    do {
      while true {
        let t = try scanner.next()
        switch t.kind {
        case .endOfInput: return
        case .beginObject: out.beginObject()
        case .endObject: out.endObject()
        case .beginArray: out.beginArray()
        case .endArray: out.endArray()
        case .key: out.writeKey(raw: scanner.rawBytes(t), hasEscapes: t.hasEscapes)
        case .string: out.writeString(raw: scanner.rawBytes(t), hasEscapes: t.hasEscapes)
        case .number: out.writeEncodedValue(scanner.rawBytes(t))
        case .true: out.writeBool(true)
        case .false: out.writeBool(false)
        case .null: out.writeNull()
        }
      }
    } catch {
      throw .unwritable("a Transformable value is not valid JSON: \(error.message)")
    }
  }
}

/// Why a store could not be written.
public enum StoreWriteError: Error, Sendable, CustomStringConvertible {
  case io(StoreIOError)
  case value(StoreValueError, String)
  case unwritable(String)

  public var description: String {
    switch self {
    case .io(let e): "\(e)"
    case .value(let e, let what): "\(what): \(e.message)"
    case .unwritable(let m): m
    }
  }
}
