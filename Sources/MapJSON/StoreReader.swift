import MapJSONText
import MapRuntime

/// Reads a JSON object store (`Specs/store-format.md`) into an `ObjectGraph`,
/// checking it against the source model: unknown entities and properties, values of the
/// wrong type, integers out of range, missing, duplicate and dangling ids. Errors name the
/// file, line, column, object id and property; up to `maxErrors` are collected.
///
/// Strings stay slices of the input; Transformable values stay raw JSON until an expression
/// looks inside them.
public struct StoreReader {
  let input: InputBytes
  let layout: StoreLayout
  let graph: ObjectGraph
  let bytes: UnsafeRawBufferPointer
  var scanner: JSONScanner
  var errors: [MigrationError] = []
  let maxErrors: Int
  var ids: IDIndex
  var pending: [PendingReference] = []
  var metadata = StoreMetadata()
  /// False for a reader of the second half of an array (see `startSplit`): the reader of the
  /// first half indexes those ids when it takes the objects over. Such a reader hashes the
  /// ids it reads into `idHashes`, one per object in order, to save the first half that work.
  var indexesIDs = true
  var idHashes: [UInt64] = []
  /// With `keepsIDOffsets` (a window of `ChunkReader`): the offset of each hashed id's quote.
  var keepsIDOffsets = false
  var idOffsets: [Int] = []
  /// The offset of each error in `errors`, for a reader that does not locate them.
  var errorOffsets: [Int] = []
  let splitMinimum: Int
  /// Line and column of error offsets, found from the previous error's (errors mostly come in
  /// file order, so collecting many stays linear in the file's size).
  let lines = LineCursor()
  /// False for the reader of a split array's second half: its errors are never shown (a half
  /// with an error is thrown away), and counting the lines up to a guess in the middle of a
  /// large store would cost a pass over half of it.
  var locatesErrors = true
  /// Called every few thousand objects with the offset reached and the input's size (see
  /// `StoreReadOptions.byteProgress`); only the reader of the whole document reports.
  var progress: (@Sendable (Int, Int) -> Void)?

  struct PendingReference {
    var owner: ObjectRef
    var column: Int32
    var target: ByteSlice
  }

  struct Stop: Error {}

  /// Reads and checks the store. Throws every error found (reading stops at a syntax error).
  /// Arrays of objects with at least `splitMinimum` bytes after them are read on two threads
  /// (see `startSplit`); the result is the same either way.
  package static func read(
    _ input: InputBytes, layout: StoreLayout, maxErrors: Int = 50, splitMinimum: Int = defaultSplitMinimum,
    progress: (@Sendable (Int, Int) -> Void)? = nil
  ) throws(MigrationFailure) -> (ObjectGraph, StoreMetadata) {
    var reader = StoreReader(input: input, layout: layout, maxErrors: maxErrors, splitMinimum: splitMinimum)
    reader.progress = progress
    do {
      try reader.readDocument()
      reader.graph.finalize()
      reader.resolveReferences()
      if reader.errors.isEmpty {
        reader.graph.pendingObjectKeys = { ObjectKeysJSON.readNumbers($0) }
        reader.takeKeyHighWater()
        StringCompaction.compact(reader.graph)
      }
    } catch let e as JSONSyntaxError {
      reader.errors.append(reader.error(e.code.rawValue, e.message, at: e.byteOffset))
    } catch {
      // Stop: the error limit was reached.
    }
    if !reader.errors.isEmpty {
      throw MigrationFailure(reader.errors, truncated: reader.errors.count >= maxErrors)
    }
    return (reader.graph, reader.metadata)
  }

  /// `expectedIDs`: how many ids to size the id index for (a guess from the input size when nil).
  init(input: InputBytes, layout: StoreLayout, maxErrors: Int, splitMinimum: Int, expectedIDs: Int? = nil) {
    self.splitMinimum = splitMinimum
    self.input = input
    self.layout = layout
    self.graph = ObjectGraph(layout: layout, input: input, isSource: true, transformableCodec: RawJSON.self)
    self.bytes = input.unsafeBytes
    self.scanner = JSONScanner(input.unsafeBytes)
    self.maxErrors = maxErrors
    // Sized for a guess of the object count (stores take a few hundred bytes per object), so
    // the table seldom has to grow: growing rehashes every id read so far.
    self.ids = IDIndex(expected: expectedIDs ?? min(input.count / 400, 1 << 24))
  }

  func error(_ code: String, _ message: String, at offset: Int) -> MigrationError {
    let p = locatesErrors ? lines.position(of: offset, in: bytes) : JSONTextPosition(line: 0, column: 0)
    return MigrationError(code, message, at: SourceLocation(file: input.path, line: p.line, column: p.column))
  }

  mutating func report(_ code: String, _ message: String, at offset: Int) throws {
    errors.append(error(code, message, at: offset))
    if !locatesErrors { errorOffsets.append(offset) }
    if errors.count >= maxErrors { throw Stop() }
  }

  @inline(__always) func quoteStart(_ t: JSONToken) -> Int {
    t.kind == .string || t.kind == .key ? t.start - 1 : t.start
  }

  func text(_ t: JSONToken) -> String { scanner.decodeString(t) }

  // MARK: - Document

  mutating func readDocument() throws {
    let open = try scanner.next()
    guard open.kind == .beginObject else {
      try report(
        "store-structure",
        "a store is a JSON object with \"metadata\" and \"objects\", not \(JSONScanner.describe(open.kind))",
        at: open.start)
      return
    }
    var sawObjects = false
    var sawMetadata = false
    while let key = try scanner.nextKey() {
      let isMetadata = scanner.string(key, equals: "metadata")
      if isMetadata || scanner.string(key, equals: "objects") {
        // JSON readers disagree on a repeated key (most keep the last): a store must not have one.
        if isMetadata ? sawMetadata : sawObjects {
          try report(
            "store-duplicate-key", "\"\(text(key))\" appears twice at the top level of the store", at: quoteStart(key))
          _ = try scanner.skipValue()
          continue
        }
      }
      if isMetadata {
        sawMetadata = true
        try readMetadata()
      } else if scanner.string(key, equals: "objects") {
        sawObjects = true
        try readObjects()
      } else {
        try report(
          "store-structure", "unknown top-level key \"\(text(key))\"; a store has \"metadata\" and \"objects\"",
          at: quoteStart(key))
        _ = try scanner.skipValue()
      }
    }
    _ = try scanner.expect(.endOfInput)
    if !sawObjects {
      try report("store-structure", "the store has no \"objects\"", at: open.start)
    }
  }

  mutating func readMetadata() throws {
    let open = try scanner.next()
    guard open.kind == .beginObject else {
      try report("store-metadata", "\"metadata\" must be an object", at: quoteStart(open))
      if open.kind == .beginArray { try skipRest(open) }
      return
    }
    while let key = try scanner.nextKey() {
      let name = text(key)
      switch name {
      case "format":
        let t = try scanner.next()
        guard t.kind == .string, text(t) == "mapc-store" else {
          try report("store-metadata", "metadata.format must be \"mapc-store\"", at: quoteStart(t))
          try skipRest(t)
          continue
        }
        metadata.format = text(t)
      case "formatVersion":
        let t = try scanner.next()
        guard let v = scanner.int64(t), v == 1 || v == 2 else {
          try report(
            "store-format-version",
            "store format version \(String(decoding: scanner.rawBytes(t), as: UTF8.self)) is not supported; this mapc reads versions 1 and 2",
            at: quoteStart(t))
          try skipRest(t)
          continue
        }
        metadata.formatVersion = v
      case "modelVersionIdentifiers":
        let t = try scanner.next()
        guard t.kind == .beginArray else {
          try report(
            "store-metadata", "metadata.modelVersionIdentifiers must be an array of strings", at: quoteStart(t))
          try skipRest(t)
          continue
        }
        var list: [String] = []
        while true {
          let s = try scanner.next()
          if s.kind == .endArray { break }
          guard s.kind == .string else {
            try report("store-metadata", "metadata.modelVersionIdentifiers must hold strings", at: quoteStart(s))
            try skipRest(s)
            continue
          }
          list.append(text(s))
        }
        metadata.modelVersionIdentifiers = list
      case "entityVersionHashes":
        let t = try scanner.next()
        guard t.kind == .beginObject else {
          try report(
            "store-metadata", "metadata.entityVersionHashes must be an object of base64 strings", at: quoteStart(t))
          try skipRest(t)
          continue
        }
        var hashes: [(entity: String, hash: String)] = []
        while let k = try scanner.nextKey() {
          let v = try scanner.next()
          guard v.kind == .string else {
            try report("store-metadata", "the hash of \(text(k)) must be a base64 string", at: quoteStart(v))
            try skipRest(v)
            continue
          }
          hashes.append((text(k), text(v)))
        }
        metadata.entityVersionHashes = hashes
      default:
        metadata.extra.append((name, try MetadataJSON.read(try scanner.next(), &scanner)))
      }
    }
  }

  /// Skips what is left of a value whose first token was read.
  mutating func skipRest(_ first: JSONToken) throws {
    guard first.kind == .beginObject || first.kind == .beginArray else { return }
    var depth = 1
    while depth > 0 {
      let t = try scanner.next()
      if t.kind == .beginObject || t.kind == .beginArray { depth += 1 }
      if t.kind == .endObject || t.kind == .endArray { depth -= 1 }
    }
  }

  mutating func readObjects() throws {
    let open = try scanner.next()
    guard open.kind == .beginObject else {
      try report(
        "store-structure", "\"objects\" must be an object of entity name → array of objects", at: quoteStart(open))
      try skipRest(open)
      return
    }
    while let key = try scanner.nextKey() {
      let name = text(key)
      guard let e = layout.entityIndex(name) else {
        try report(
          "store-unknown-entity",
          "the source model has no entity \(name)\(Self.suggestion(name, layout.entities.map(\.name)))",
          at: quoteStart(key))
        _ = try scanner.skipValue()
        continue
      }
      if layout.entities[e].isAbstract {
        // The writer lists abstract entities with no objects (`[]`), so that is read back.
        let value = try scanner.skipValue()
        let inner = bytes[value].filter { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        if inner != [UInt8(ascii: "["), UInt8(ascii: "]")] {
          try report("store-abstract-entity", "entity \(name) is abstract and cannot have objects", at: quoteStart(key))
        }
        continue
      }
      let list = try scanner.next()
      guard list.kind == .beginArray else {
        try report("store-structure", "objects.\(name) must be an array of objects", at: quoteStart(list))
        try skipRest(list)
        continue
      }
      var part = startSplit(after: list, entity: e)
      defer { part?.cancel() }
      let reading = EntityReading(graph.tables[e])
      var objectsRead = 0
      while true {
        let t = try scanner.next()
        if let p = part, t.start >= p.start {
          // The first half ends here; the second was read right if it starts here too.
          part = nil
          if t.start == p.start, try adopt(p, entity: e) { break }
          p.cancel()
        }
        if t.kind == .endArray { break }
        guard t.kind == .beginObject else {
          try report("store-structure", "each element of objects.\(name) must be an object", at: quoteStart(t))
          try skipRest(t)
          continue
        }
        try readObject(reading, open: t)
        objectsRead += 1
        reserveRows(reading.table, after: objectsRead, from: list.end, to: t.start)
        if objectsRead & 4095 == 0, let progress { progress(t.start, bytes.count) }
      }
    }
  }

  /// Objects read from an array before its table makes room for the rest (see `reserveRows`).
  static let sizingSample = 512

  /// Once `objectsRead` objects of an array that starts at `start` have been read, the last of
  /// them at `last`: makes room in `table` for as many more objects as the rest of the input
  /// holds at the size of the others, so that large columns do not grow by copying (each copy
  /// touches fresh memory). Room never used is address space, not memory; still, no column
  /// reserves more bytes than the input has (other arrays may follow this one).
  func reserveRows(_ table: EntityTable, after objectsRead: Int, from start: Int, to last: Int) {
    guard objectsRead == Self.sizingSample else { return }
    let perObject = max((last - start) / (objectsRead - 1), 16)
    let rest = (bytes.count - last) / perObject
    table.reserve(min(table.count + rest + rest / 8, bytes.count / MemoryLayout<Value>.stride))
  }

  static func suggestion(_ name: String, _ names: [String]) -> String {
    let lower = name.lowercased()
    if let m = names.first(where: { $0.lowercased() == lower }) { return "; did you mean \(m)?" }
    return ""
  }
}
