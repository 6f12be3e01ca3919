import MapJSONText
import MapRuntime

/// A JSON store handed on in memory between the steps of a fused chain (`StoreFormat.readBack`):
/// the graph and metadata that reading the store `write` would write gives, made without the
/// file. The metadata goes through the writer's own header and the reader's own parsing; the
/// objects keep their order and the ids the writer gives them (`ObjectKeysJSON.idNumbers`),
/// their values where each kind's JSON form reads back as the same value, their relationships
/// as the reader sets them, inverses completed by the reader's own completion. Wherever it
/// cannot follow the round trip exactly it gives up (nil: the store is written and read back).
extension JSONStoreFormat {
  public func readBack(
    _ graph: ObjectGraph, source: ObjectGraph?, metadata: StoreWriteMetadata, layout: StoreLayout, path: String,
    progress: (@Sendable (Int, Int) -> Void)?
  ) -> (ObjectGraph, StoreMetadata)? {
    guard layout.model == graph.layout.model else { return nil }
    // Strings and Transformable payloads of another format's input are written in their JSON
    // form, not as they are: only a graph of JSON text (or none) is followed.
    if let codec = source?.transformableCodec ?? graph.transformableCodec,
      ObjectIdentifier(codec) != ObjectIdentifier(RawJSON.self)
    {
      return nil
    }
    guard let header = HandedObjects.metadata(metadata, of: graph, layout: layout, path: path) else { return nil }
    var objects = HandedObjects(
      graph: graph, layout: layout, input: source?.input ?? graph.input, rendersValues: style == .compact)
    objects.progress = progress
    guard let result = objects.make() else { return nil }
    result.keyHighWater = header.keyHighWater
    return (result, header.metadata)
  }
}

/// The objects of `JSONStoreFormat.readBack`: a source graph of `layout` holding what the
/// reader would read from the objects `StoreWriter` writes of `graph`, or nil.
struct HandedObjects {
  let graph: ObjectGraph
  let layout: StoreLayout
  /// The bytes the graph's string slices are in (the writer's `input`).
  let input: InputBytes?
  /// Whether values a read keeps as the JSON text it finds (Transformable, Composite, …) are
  /// handed on as that text, rendered here by the writer's own code: only for a compact store,
  /// where a value's text is the same wherever it stands in the document.
  let rendersValues: Bool
  var progress: (@Sendable (Int, Int) -> Void)?
  /// The texts of those values, which the graph's input gets after its own bytes.
  private var rendered: [UInt8] = []
  /// The writer's cells (ids, the input), for rendering them.
  private var cells: StoreWriter.Cells?

  init(graph: ObjectGraph, layout: StoreLayout, input: InputBytes?, rendersValues: Bool) {
    self.graph = graph
    self.layout = layout
    self.input = input
    self.rendersValues = rendersValues
  }

  /// The metadata a read of the written store gives, and the highest numbers it carries
  /// (`mapcObjectKeyMax`): the writer's own header, closed with no objects, read by the
  /// reader. Nil if the reader would refuse it.
  static func metadata(_ metadata: StoreWriteMetadata, of graph: ObjectGraph, layout: StoreLayout, path: String) -> (
    metadata: StoreMetadata, keyHighWater: [String: Int64]
  )? {
    var out = JSONOutput(style: .compact, initialCapacity: 4096)
    StoreWriter.writeHeader(metadata, layout: graph.layout, keyHighWater: graph.keyHighWater, to: &out)
    out.endObject()
    out.endObject()
    guard (try? out.finishDocument()) != nil else { return nil }
    guard let (read, stored) = try? StoreReader.read(InputBytes(out.bytes, path: path), layout: layout) else {
      return nil
    }
    return (stored, read.keyHighWater)
  }

  mutating func make() -> ObjectGraph? {
    guard !graph.isStreamedChunk, graph.orderedPositions.isEmpty else { return nil }
    graph.finalize()
    defer { cells?.release() }
    let result = ObjectGraph(layout: layout, input: input, isSource: true, transformableCodec: RawJSON.self)
    let numbers = ObjectKeysJSON.idNumbers(graph)
    let inverses = InverseTable(layout: layout)
    let total = graph.objectCount
    var done = 0
    for (e, table) in graph.tables.enumerated() where table.count > 0 {
      // A chunk's stubs, and objects of an abstract entity (which the reader refuses).
      guard table.stubsFrom == nil, table.rowOffset == 0, !layout.entities[e].isAbstract else { return nil }
      let out = result.tables[e]
      out.appendObjects(table.count)
      let prefix = layout.entities[e].name + "/"
      for row in 0..<table.count {
        let number = numbers[e].map { $0[row] } ?? Int64(row) + 1
        out.ids!.set(row, .string(.native(prefix + String(number))))
      }
      for (p, property) in layout.entities[e].properties.enumerated() {
        let ok: Bool
        if let a = property.attribute {
          ok = copyAttribute(a.type, table.columns[p], to: out.columns[p], rows: table.count)
        } else {
          ok = copyRelationship(table, p, to: out, entry: inverses.entry(UInt32(e), p)!)
        }
        guard ok else { return nil }
      }
      done += table.count
      progress?(done, total)
    }
    var contradicts = false
    StoreReader.completeInverses(result, inverses) { _, _, _, _, _ in contradicts = true }
    guard !contradicts else { return nil }
    result.finalize()
    if !rendered.isEmpty {
      // Slices of the input keep their places: the texts rendered come after its bytes.
      result.replaceInput(
        InputBytes(
          joining: input.map { UnsafeRawBufferPointer(start: $0.unsafeBytes.baseAddress, count: $0.count) }
            ?? UnsafeRawBufferPointer(start: nil, count: 0), rendered, path: input?.path ?? "<memory>"))
    }
    // Numbers come from the ids on demand, as a read takes them.
    result.pendingObjectKeys = { ObjectKeysJSON.readNumbers($0) }
    return result
  }

  /// Copies a column whose values each read back as themselves from their JSON form (B.5 of
  /// `Specs/store-format.md`); false for one that holds a value that would not, or that the
  /// reader refuses.
  private mutating func copyAttribute(_ type: AttributeType, _ column: Column, to out: Column, rows: Int) -> Bool {
    switch type {
    case .integer16, .integer32, .integer64:
      let c = column as! IntColumn
      let range = type.integerRange!
      for row in 0..<rows where c.present[row] && !range.contains(c.values[row]) { return false }
    case .double, .float:
      // Finite numbers print in a form that reads back to the bit; NaN and infinities have none.
      let c = column as! DoubleColumn
      for row in 0..<rows where c.present[row] && !c.values[row].isFinite { return false }
    case .date:
      // A date's text can stand for another double (within a second of 2001, `Specs/store-
      // format.md` A.3): each one with a fraction is what its text reads back as.
      let c = column as! DoubleColumn
      out.append(column, rows: rows, at: 0)
      let o = out as! DoubleColumn
      for row in 0..<rows where c.present[row] {
        let v = c.values[row]
        guard v.isFinite else { return false }
        guard v != v.rounded(.down) else { continue }
        guard let back = Self.dateReadBack(v) else { return false }
        if back.bitPattern != v.bitPattern { o.values[row] = back }
      }
      return true
    case .boolean:
      break
    case .string, .uri, .uuid:
      let c = column as! TextColumn
      for row in 0..<rows {
        let v = c.packed(row)
        guard v != 0 else { continue }
        // A slice without the bytes it is in is written as null.
        if v & 1 == 1 && input == nil { return false }
        if type == .uuid, !UUIDText.isValid(ObjectGraph.string(c.text(v), input: input)) { return false }
      }
    case .decimal:
      // Written as it is, read in canonical form.
      let c = column as! ValueColumn
      let o = out as! ValueColumn
      for row in 0..<rows {
        switch c.get(row) {
        case .null: o.set(row, .null)
        case .decimal(let text):
          guard let canonical = try? DecimalText.canonical(text) else { return false }
          o.set(row, .decimal(canonical))
        default: return false
        }
      }
      return true
    case .binary:
      let c = column as! ValueColumn
      for row in 0..<rows {
        switch c.get(row) {
        case .null, .data: continue
        default: return false
        }
      }
    default:
      // Transformable, Composite and the rarely used kinds: a read keeps the JSON text the
      // writer wrote, a slice of the file; here that text, rendered by the writer's own code.
      guard rendersValues else {
        for row in 0..<rows where !column.isNull(row) { return false }
        return true
      }
      return renderValues(column as! ValueColumn, to: out as! ValueColumn, rows: rows)
    }
    out.append(column, rows: rows, at: 0)
    return true
  }

  /// Each value of a column a read keeps as JSON text: its text as the writer writes it
  /// (`StoreWriter.writeValue`), which a read takes as a slice (`null` as nil); false where the
  /// writer refuses the value.
  private mutating func renderValues(_ column: ValueColumn, to out: ValueColumn, rows: Int) -> Bool {
    if cells == nil { cells = StoreWriter(graph: graph, input: input, codec: RawJSON.self).makeCells() }
    let base = input?.count ?? 0
    for row in 0..<rows {
      let value = column.get(row)
      if case .null = value { continue }
      var text = JSONOutput(style: .compact, initialCapacity: 256)
      do {
        try StoreWriter.writeValue(value, to: &text, cells!.cells)
      } catch {
        return false
      }
      let bytes = text.bytes
      if bytes.elementsEqual("null".utf8) { continue }
      out.set(row, .transformable(ByteSlice(start: base + rendered.count, count: bytes.count, hasEscapes: true)))
      rendered += bytes
    }
    return true
  }

  /// A finite Date attribute's value as a read of its written form gives it: the writer's ISO
  /// 8601 text read by the reader's parser, or itself where the writer uses `{"$date": n}` (the
  /// shortest text of a double reads back as it); nil where the reader would refuse the text.
  static func dateReadBack(_ seconds: Double) -> Double? {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { text -> Double? in
      guard let n = try? ISO8601DateCodec.format(seconds, into: text.baseAddress!) else { return seconds }
      return try? ISO8601DateCodec.parse(UnsafeRawBufferPointer(start: text.baseAddress!, count: n))
    }
  }

  /// Sets a relationship as the reader sets the references it lists: a target of another
  /// entity than the relationship holds, or listed twice, is refused.
  private func copyRelationship(_ table: EntityTable, _ p: Int, to out: EntityTable, entry: InverseTable.Entry) -> Bool
  {
    if let many = table.columns[p] as? ToManyColumn {
      let o = out.columns[p] as! ToManyColumn
      for row in 0..<table.count {
        let members = many.members(row)
        guard !members.isEmpty else { continue }
        o.reserve(row, extra: members.count)
        for m in members {
          let target = ObjectRef(packed: m)
          guard entry.destinationKinds.contains(Int(target.entity)), o.add(row, target) else { return false }
        }
      }
    } else {
      let one = table.columns[p] as! ToOneColumn
      let o = out.columns[p] as! ToOneColumn
      for row in 0..<table.count {
        guard let target = one.target(row) else { continue }
        guard entry.destinationKinds.contains(Int(target.entity)) else { return false }
        o.setTarget(row, target)
      }
    }
    return true
  }
}
