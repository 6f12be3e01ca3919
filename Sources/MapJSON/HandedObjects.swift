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
    var objects = HandedObjects(graph: graph, layout: layout, input: source?.input ?? graph.input)
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
  var progress: (@Sendable (Int, Int) -> Void)?

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

  func make() -> ObjectGraph? {
    guard !graph.isStreamedChunk, graph.orderedPositions.isEmpty else { return nil }
    graph.finalize()
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
    // Numbers come from the ids on demand, as a read takes them.
    result.pendingObjectKeys = { ObjectKeysJSON.readNumbers($0) }
    return result
  }

  /// Copies a column whose values each read back as themselves from their JSON form (B.5 of
  /// `Specs/store-format.md`); false for one that holds a value that would not, or that the
  /// reader refuses.
  private func copyAttribute(_ type: AttributeType, _ column: Column, to out: Column, rows: Int) -> Bool {
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
      // Transformable, Composite and the rarely used kinds: JSON text of another writer's
      // making, which a read keeps as it finds it; only nil is followed.
      for row in 0..<rows where !column.isNull(row) { return false }
      return true
    }
    out.append(column, rows: rows, at: 0)
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
