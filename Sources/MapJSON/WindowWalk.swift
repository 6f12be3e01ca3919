import MapJSONText
import MapRuntime

/// One window of a `ChunkReader`: walks the document's structure from where the window starts,
/// reads the objects of streamed arrays into a graph of its own, skips everything else (the
/// held document gets it), and says each point between two whole values it passes, so that the
/// next window can start there. Offsets are the window's (`base` + offset is the file's).
struct WindowWalk {
  var reader: StoreReader
  /// The file offset of the window's first byte (its resume prefix included).
  let base: Int
  let layout: StoreLayout
  let streamed: Set<Int>
  /// The streamed arrays' contents in this window (after `[`, up to `]` or the last safe point).
  var streamedContent: [Range<Int>] = []
  /// The window offsets of the objects' id quotes, one per hash in `reader.idHashes`.
  var idOffsets: [Int] { reader.idOffsets }

  private var openContent: Int?
  private var safeRows: [Int] = []
  private var safeErrors = 0
  private var safeHashes = 0
  private var safePending = 0
  private var safeOffset = 0

  /// What the window may hold: its bytes, and `bytesPerReference` for each id its objects refer
  /// to (each becomes a link, or a stub, in memory: `ChunkLinks`).
  let capacity: Int
  /// What an id an object refers to counts against the window besides its text: a stub, its
  /// links and their destination counterparts take about 300–400 bytes in memory, six times
  /// this, as a window's bytes are counted (`MemoryBudget.window`; Core Data SQLite counts a
  /// member so too, `CoreDataReader.bytesPerMember`).
  static let bytesPerReference = 64

  /// Thrown after an object that takes the window past its `capacity`: the chunk ends before it.
  struct Full: Error {}

  init(input: InputBytes, base: Int, layout: StoreLayout, streamed: Set<Int>, maxErrors: Int, capacity: Int) {
    self.capacity = capacity
    reader = StoreReader(input: input, layout: layout, maxErrors: maxErrors, splitMinimum: .max, expectedIDs: 0)
    reader.indexesIDs = false
    reader.locatesErrors = false
    reader.keepsIDOffsets = true
    self.base = base
    self.layout = layout
    self.streamed = streamed
    safeRows = [Int](repeating: 0, count: layout.entities.count)
  }

  typealias Safe = (Int, ChunkReader.Resume) -> Void

  /// Walks from `place` to the end of the document (or throws where the window ends inside a
  /// value). `safe` gets each point between whole values, as a file offset.
  mutating func run(from place: ChunkReader.Resume, safe: Safe) throws {
    switch place {
    case .start:
      let open = try reader.scanner.next()
      guard open.kind == .beginObject else {
        // Not a store: the held document (the whole file) says why.
        mark(open.start, .start, safe)
        return
      }
      try top(safe)
    case .top:
      try top(safe)
    case .objects:
      try objects(safe)
      try top(safe)
    case .array(let e, _):
      openContent = reader.scanner.position
      try array(e, safe)
      try objects(safe)
      try top(safe)
    }
  }

  private mutating func top(_ safe: Safe) throws {
    while let key = try reader.scanner.nextKey() {
      if reader.scanner.string(key, equals: "objects") {
        let value = try reader.scanner.next()
        if value.kind == .beginObject {
          try objects(safe)
          continue
        }
        try reader.skipRest(value)
      } else {
        _ = try reader.scanner.skipValue()
      }
      mark(reader.scanner.position, .top, safe)
    }
    mark(reader.scanner.position, .start, safe)
  }

  /// The members of `objects`, up to its `}`.
  private mutating func objects(_ safe: Safe) throws {
    while let key = try reader.scanner.nextKey() {
      let name = reader.text(key)
      if let e = layout.entityIndex(name), streamed.contains(e) {
        let value = try reader.scanner.next()
        if value.kind == .beginArray {
          openContent = value.end
          mark(value.end, .array(entity: e, first: true), safe)
          try array(e, safe)
          continue
        }
        try reader.skipRest(value)
      } else {
        _ = try reader.scanner.skipValue()
      }
      mark(reader.scanner.position, .objects, safe)
    }
    mark(reader.scanner.position, .top, safe)
  }

  /// The elements of a streamed array, up to its `]`.
  private mutating func array(_ e: Int, _ safe: Safe) throws {
    let reading = StoreReader.EntityReading(reader.graph.tables[e])
    let name = layout.entities[e].name
    while true {
      let t = try reader.scanner.next()
      if t.kind == .endArray {
        if let start = openContent { streamedContent.append(start..<t.start) }
        openContent = nil
        mark(t.end, .objects, safe)
        return
      }
      if t.kind == .beginObject {
        try reader.readObject(reading, open: t)
        if reader.pending.count > 0
          && reader.scanner.position + reader.pending.count * Self.bytesPerReference > capacity
        {
          throw Full()
        }
      } else {
        try reader.report(
          "store-structure", "each element of objects.\(name) must be an object", at: reader.quoteStart(t))
        try reader.skipRest(t)
      }
      mark(reader.scanner.position, .array(entity: e, first: false), safe)
    }
  }

  /// A point between whole values: what was read up to here is kept if the window ends later.
  private mutating func mark(_ offset: Int, _ place: ChunkReader.Resume, _ safe: Safe) {
    for (e, t) in reader.graph.tables.enumerated() { safeRows[e] = t.count }
    safeErrors = reader.errors.count
    safeHashes = reader.idHashes.count
    safePending = reader.pending.count
    safeOffset = offset
    safe(base + offset, place)
  }

  /// Takes back what was read after the last safe point (the window ended inside a value).
  mutating func rollBack() {
    for (e, t) in reader.graph.tables.enumerated() where t.count > safeRows[e] {
      t.truncate(to: safeRows[e])
      for c in t.columns { c.truncate(to: safeRows[e]) }
      t.ids?.truncate(to: safeRows[e])
    }
    reader.errors.removeLast(reader.errors.count - safeErrors)
    if reader.errorOffsets.count > safeErrors { reader.errorOffsets.removeLast(reader.errorOffsets.count - safeErrors) }
    reader.idHashes.removeLast(reader.idHashes.count - safeHashes)
    reader.idOffsets.removeLast(reader.idOffsets.count - safeHashes)
    reader.pending.removeLast(reader.pending.count - safePending)
    closeOpenContent()
  }

  /// Closes the open array's content at the window's last safe point.
  private mutating func closeOpenContent() {
    if let start = openContent {
      streamedContent.append(start..<max(start, safeOffset))
      openContent = nil
    }
  }
}
