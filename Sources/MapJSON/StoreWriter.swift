import Foundation
import MapJSONText
import MapRuntime

/// Writes an `ObjectGraph` as a JSON store in the exact bytes of `Specs/store-format.md`: metadata first, then
/// entities by name, objects in creation order, `id` first and properties by name, every
/// property present (`null`, `[]`).
public struct StoreWriter {
  /// What a store records besides its objects (the same for every format).
  public typealias Metadata = StoreWriteMetadata

  /// The bytes string slices refer to (the source store's input), if any.
  let input: InputBytes?
  let graph: ObjectGraph
  /// How the Transformable payloads in `input` are encoded (nil or `RawJSON`: JSON text).
  let codec: (any TransformableCodec.Type)?
  /// Called with the objects written so far, after each chunk of rows (see
  /// `StoreWriteOptions.objectProgress`).
  var objectProgress: (@Sendable (Int) -> Void)?

  package init(graph: ObjectGraph, input: InputBytes?, codec: (any TransformableCodec.Type)? = nil) {
    self.graph = graph
    self.input = input
    self.codec = codec
  }

  /// Writes the whole document, final newline included; flushes `out`.
  package mutating func write(metadata: Metadata, to out: inout JSONOutput) throws(StoreWriteError) {
    graph.finalize()
    Self.writeHeader(metadata, layout: graph.layout, keyHighWater: graph.keyHighWater, to: &out)
    let order = Self.entityOrder(graph.layout)
    let cells = makeCells()
    defer { cells.release() }
    var written = 0
    for e in order {
      out.writeKey(graph.tables[e].layout.name)
      out.beginArray()
      try writeObjects(graph.tables[e], e, cells.idKey, cells.cells, after: written, to: &out)
      out.endArray()
      written += graph.tables[e].count
      objectProgress?(written)
    }
    out.endObject()
    out.endObject()
    do {
      try out.finishDocument()
    } catch {
      throw .io(error)
    }
  }

  /// The entities in the order a store lists them: by name.
  static func entityOrder(_ layout: StoreLayout) -> [Int] {
    layout.entities.indices.sorted { layout.entities[$0].name < layout.entities[$1].name }
  }

  /// Opens the document, writes its metadata and opens `objects`: `{"metadata": {…}, "objects":
  /// {`, the first entity's key next.
  static func writeHeader(
    _ metadata: Metadata, layout: StoreLayout, keyHighWater: [String: Int64], to out: inout JSONOutput
  ) {
    out.beginObject()
    out.writeKey(PreparedKey("metadata"))
    out.beginObject()
    out.writeKey(PreparedKey("format"))
    out.writeString("mapc-store")
    out.writeKey(PreparedKey("formatVersion"))
    out.writeInt(ObjectIdentityKey.formatVersion(layout))
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
    var generated = metadata.generated
    if let keyMax = ObjectKeysJSON.metadataValue(keyHighWater, layout) {
      generated.append((ObjectKeysJSON.metadataKey, keyMax))
    }
    let generatedKeys = Set(generated.map(\.key))
    let copied = metadata.extra.filter { !generatedKeys.contains($0.key) }
    for (key, value) in (copied + generated).sorted(by: { $0.key < $1.key }) {
      out.writeKey(key)
      MetadataJSON.write(value, to: &out)
    }
    out.endObject()
    out.writeKey(PreparedKey("objects"))
    out.beginObject()
  }

  /// What rendering the graph's cells takes: the entities' id prefixes, the objects' numbers
  /// where tables have them, the input; `release()` frees it.
  struct Cells {
    let cells: CellWriting
    let idKey: PreparedKey
    let release: () -> Void
  }

  func makeCells() -> Cells {
    let idKey = PreparedKey(ObjectIdentityKey.writtenKey(graph.layout))
    var prefixBlob: [UInt8] = []
    var prefixStart: [Int] = [0]
    for t in graph.tables {
      prefixBlob += PreparedStringPrefix(t.layout.name + "/").encoded
      prefixStart.append(prefixBlob.count)
    }
    let inputBase = input.map { UnsafeRawPointer($0.unsafeBytes.baseAddress!) }
    let blob = UnsafeMutableRawBufferPointer.allocate(byteCount: max(prefixBlob.count, 1), alignment: 1)
    let starts = UnsafeMutableBufferPointer<Int>.allocate(capacity: prefixStart.count)
    // Ids by the objects' own numbers where a table has them (`ObjectKeys+JSON.swift`).
    let numbers = ObjectKeysJSON.idNumbers(graph).map { n in
      n.map { n in
        let b = UnsafeMutableBufferPointer<Int64>.allocate(capacity: n.count)
        _ = b.initialize(from: n)
        return b
      }
    }
    let numberTable = UnsafeMutableBufferPointer<UnsafePointer<Int64>?>.allocate(capacity: max(numbers.count, 1))
    prefixBlob.withUnsafeBytes { blob.copyMemory(from: $0) }
    _ = starts.initialize(from: prefixStart)
    for (e, n) in numbers.enumerated() { numberTable[e] = n.map { UnsafePointer($0.baseAddress!) } }
    var cells = CellWriting(
      input: inputBase, prefixes: UnsafeRawPointer(blob.baseAddress!), prefixStart: UnsafePointer(starts.baseAddress!),
      numbers: UnsafePointer(numberTable.baseAddress!))
    if let codec, ObjectIdentifier(codec) != ObjectIdentifier(RawJSON.self), let input {
      cells.foreignCodec = codec
      cells.foreignInput = Unmanaged.passUnretained(input)
    }
    let input = self.input
    return Cells(cells: cells, idKey: idKey) {
      blob.deallocate()
      starts.deallocate()
      for n in numbers { n?.deallocate() }
      numberTable.deallocate()
      withExtendedLifetime(input) {}
    }
  }

  /// The objects of table `e` but its stubs, written to `out` (a writer continuing the array
  /// they are elements of: `JSONOutput.init(fileDescriptor:path:continuing:isFirst:bufferCapacity:)`).
  func writeObjects(of e: Int, _ cells: Cells, to out: inout JSONOutput) throws(StoreWriteError) {
    let table = graph.tables[e]
    try writeObjects(table, e, cells.idKey, cells.cells, after: 0, count: table.realCount, to: &out)
  }

  /// Writes the first `count` objects of one table (default: all): `id` first, then each
  /// property in layout order.
  /// Large tables are cut into chunks of rows that helper threads render ahead of the writer
  /// (see `RenderPipeline`); the chunks are written in order, so the bytes are the same as one
  /// thread would write.
  func writeObjects(
    _ table: EntityTable, _ e: Int, _ idKey: PreparedKey, _ cells: CellWriting, after written: Int,
    count: Int? = nil, to out: inout JSONOutput
  ) throws(StoreWriteError) {
    let rows = RowWriter(table: table, entity: e, idKey: idKey, cells: cells)
    defer { rows.release() }
    let n = count ?? table.count
    let chunk = StoreWriter.rowsPerChunk
    let workers = Cores.workers
    guard workers > 1, n >= 2 * chunk else {
      try rows.write(0..<n, to: &out)
      return
    }
    let continuing = out.continuation()
    let pipeline = RenderPipeline(chunks: (n + chunk - 1) / chunk, lookahead: 2 * workers) { k, reusing in
      let lo = k * chunk
      let hi = min(n, lo + chunk)
      var part = JSONOutput(
        continuing: continuing, isFirst: lo == 0, reusing: reusing, initialCapacity: (hi - lo) * 128)
      do throws(StoreWriteError) {
        try rows.write(lo..<hi, to: &part)
        return .success(part.takeBytes())
      } catch {
        return .failure(error)
      }
    }
    pipeline.start(helpers: workers - 1)
    defer { pipeline.stop() }
    for k in 0..<pipeline.chunks {
      switch pipeline.take(k) {
      case .success(let bytes):
        out.appendRendered(bytes)
        pipeline.written(k, keeping: bytes)
        objectProgress?(written + min(n, (k + 1) * chunk))
      case .failure(let error):
        throw error
      }
    }
  }

  /// Rows of a table per chunk rendered by one thread.
  static let rowsPerChunk = 4_096

  /// Writes any value (Transformable contents, Decimal text, Binary data).
  static func writeValue(_ v: Value, to out: inout JSONOutput, _ w: CellWriting) throws(StoreWriteError) {
    switch v {
    case .null: out.writeNull()
    case .bool(let b): out.writeBool(b)
    case .int(let i): out.writeInt(i)
    case .double(let d):
      do { try out.writeDouble(d) } catch { throw .value(error, "a Transformable value") }
    case .decimal(let s): out.writeString(s)
    case .string(let t): w.writeText(t, to: &out)
    case .date(let t):
      do { try out.writeDate(t) } catch { throw .value(error, "a date") }
    case .data(let bytes): bytes.withUnsafeBytes { out.writeBase64($0) }
    case .transformable(let s):
      if let codec = w.foreignCodec, let input = w.foreignInput {
        try writeForeign(s, codec, input.takeUnretainedValue(), to: &out)
      } else {
        try copyJSON(s, from: w.input, to: &out)
      }
    case .array(let items):
      out.beginArray()
      for x in items { try writeValue(x, to: &out, w) }
      out.endArray()
    case .dictionary(let pairs):
      out.beginObject()
      for (k, x) in pairs.sorted(by: { $0.0 < $1.0 }) {
        out.writeKey(k)
        try writeValue(x, to: &out, w)
      }
      out.endObject()
    case .sourceObject, .destinationObject, .special:
      throw .unwritable("an object reference cannot be stored in an attribute")
    }
  }

  /// Writes a Transformable payload of another format in its JSON form (`TransformableText`).
  static func writeForeign(
    _ s: ByteSlice, _ codec: any TransformableCodec.Type, _ input: InputBytes, to out: inout JSONOutput
  ) throws(StoreWriteError) {
    // A Binary value kept in a file that is missing (Specs/sqlite-store.md §5): no bytes to write.
    if let why = codec.unreadable(input, s) { throw .unwritable(why) }
    let payload: TransformablePayload
    do {
      payload = try codec.payload(input, s)
    } catch {
      throw .unwritable("a Transformable value cannot be read: \(error.message)")
    }
    var text: [UInt8] = []
    TransformableText.appendJSON(payload, to: &text)
    let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: text.count, alignment: 1)
    defer { raw.deallocate() }
    text.withUnsafeBytes { raw.copyMemory(from: $0) }
    try copyJSON(
      ByteSlice(start: 0, count: text.count, hasEscapes: true), from: UnsafeRawPointer(raw.baseAddress!), to: &out)
  }

  /// Re-emits a raw JSON value of the input in the output's style, token by token (object keys
  /// and numbers as the input wrote them).
  static func copyJSON(_ s: ByteSlice, from input: UnsafeRawPointer?, to out: inout JSONOutput) throws(StoreWriteError)
  {
    guard let input else {
      out.writeNull()
      return
    }
    let raw = UnsafeRawBufferPointer(start: input + s.start, count: Int(s.count))
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
package enum StoreWriteError: Error, Sendable, CustomStringConvertible {
  case io(StoreIOError)
  case value(StoreValueError, String)
  case unwritable(String)

  /// The same error, saying which object and property it is about.
  func about(_ what: String) -> StoreWriteError {
    switch self {
    case .value(let e, _): .value(e, what)
    case .unwritable(let m): .unwritable("\(what): \(m)")
    case .io: self
    }
  }

  package var description: String {
    switch self {
    case .io(let e): "\(e)"
    case .value(let e, let what): "\(what): \(e.message)"
    case .unwritable(let m): m
    }
  }
}
