#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import MapJSONText
import MapRuntime

/// Reads a JSON store a window of bytes at a time (`ChunkedStoreFormat`, `Specs/limits.md`
/// "Memory").
///
/// The objects of the streamed entities' arrays are read, window by window, into a graph per
/// window, by the same code as a whole store (`StoreReader.readObject`). Everything else (the
/// metadata, the other entities' arrays, anything out of the ordinary) is copied into a second
/// document, the store with the streamed arrays emptied, which the whole-store reader reads
/// and checks last; its positions are mapped back to the file's.
///
/// Each window starts at a point between two values of the document whose place in it is
/// known; the scanner is put back into that place by a few bytes of JSON written before the
/// window's bytes (`Resume.prefix`). A window that ends inside a value is read again from the
/// last whole value, larger when no value fitted; a value larger than the budget allows is
/// refused (`run-memory-limit`). Ids must be unique across the store: their hashes and offsets
/// are kept, sorted at the end, and equal hashes compared by the ids' text.
final class ChunkReader: StoreChunkReader {
  private let path: String
  private let fd: Int32
  private let fileSize: Int
  private let layout: StoreLayout
  private let streamed: Set<Int>
  private let budget: MemoryBudget
  private let maxErrors: Int

  /// Where the next window starts, and the place in the document there.
  private(set) var position = 0
  private var resume = Resume.start
  /// The store with the streamed arrays emptied, and where each of its pieces came from.
  private var held: [UInt8] = []
  private var heldPieces: [(heldStart: Int, fileStart: Int)] = []
  /// File offset up to which the held document has the file's bytes.
  private var heldCursor = 0
  private var heldGiven = false
  /// Errors so far, with the file offsets they are at (line and column are found at the end).
  private var errors: [(error: MigrationError, offset: Int)] = []
  private var stopped = false
  /// The file offset of the last syntax error met at a window's end (see `readWindow`).
  private var lastSyntaxError = -1
  /// The top-level object was read to its end (what follows goes to the held document).
  private var ended = false
  /// Id hash and file offset of every object read (`IDSpill`).
  private let ids: IDSpill
  private var metadata = StoreMetadata()
  /// With stubs: the links the chunks' objects write, both sides counted (`ChunkLinks`).
  private var links: ChunkLinks?
  /// The owners of the links out of chunks that have no other side (`ChunkLinks.outside`),
  /// whose ids are in `ids` too, checked at the end (`checkIDs`).
  private let outsideLinks: OutsideLinkFile
  /// The first pass of `memberPlaces`: the chunks only, for what their lists say of their
  /// stubs; no ids kept, nothing held, no part read whole.
  private let collecting: Bool
  /// Where members of objects in other chunks stand in their owners' lists: kept by the first
  /// pass (`collecting`), given to the chunks by the second (`MemberPlaces`).
  var places: MemberPlaces?
  /// The first pass stopped where its places passed what memory holds for them.
  private(set) var placesFull = false

  /// A place between values where a window can start.
  enum Resume: Equatable {
    case start
    /// After a value of the top-level object.
    case top
    /// After a value of `objects`.
    case objects
    /// In a streamed entity's array, after its `[` (`first`) or after an element.
    case array(entity: Int, first: Bool)

    /// The JSON that puts a scanner there, and how many tokens it is.
    var prefix: (bytes: [UInt8], tokens: Int) {
      switch self {
      case .start: ([], 0)
      case .top: (Array(#"{"":0"#.utf8), 3)
      case .objects: (Array(#"{"":{"":0"#.utf8), 5)
      case .array(_, true): (Array(#"{"":{"":["#.utf8), 5)
      case .array(_, false): (Array(#"{"":{"":[0"#.utf8), 6)
      }
    }
  }

  init(
    path: String, layout: StoreLayout, streamed: Set<Int>, stubs: Bool, budget: MemoryBudget, maxErrors: Int,
    scratch: String, collecting: Bool = false
  ) throws(MigrationFailure) {
    self.path = path
    self.collecting = collecting
    self.links = stubs ? ChunkLinks(layout: layout) : nil
    links?.checks = !collecting
    self.layout = layout
    self.streamed = streamed
    self.budget = budget
    self.maxErrors = max(maxErrors, 1)
    // The checks of a whole-store read: a regular file, not too large to be a store.
    do {
      _ = try InputBytes(contentsOf: path, regularFileOnly: true, limit: 0)
    } catch {
      throw MigrationFailure(error, file: path)
    }
    fd = open(path, O_RDONLY | O_CLOEXEC)
    var info = stat()
    guard fd >= 0, fstat(fd, &info) == 0 else {
      let e = errno
      if fd >= 0 { _ = close(fd) }
      throw MigrationFailure(StoreIOError.system(e, path: path, operation: "read"), file: path)
    }
    fileSize = Int(info.st_size)
    // A quarter of the limit for the ids in memory (16 bytes each), reserved up to what a store
    // of small objects (a few hundred bytes each) needs, so that the list does not grow by
    // copying (which holds the old and the new list at once).
    ids = IDSpill(capacity: budget.limit / 64, folder: scratch, expected: collecting ? 0 : fileSize / 256)
    outsideLinks = OutsideLinkFile(folder: scratch)
  }

  deinit { _ = close(fd) }

  func next() throws(MigrationFailure) -> ObjectGraph? {
    var window = budget.window
    while !stopped && !ended {
      switch try readWindow(size: window) {
      case .chunk(let graph):
        graph.isStreamedChunk = true
        return graph
      case .moved:
        window = budget.window
      case .needsMore(let byReferences):
        guard window < budget.largestValue else {
          let references =
            byReferences ? ", with the ids it refers to (\(WindowWalk.bytesPerReference) bytes each)," : ","
          throw refusal(
            "a single value of the store, at byte \(position)\(references) is larger than a quarter of --memory-limit \(budget.limit) (\(budget.largestValue) bytes)"
          )
        }
        window = min(window * 2, budget.largestValue)
      case .ended:
        ended = true
      }
    }
    if !errors.isEmpty { throw located(errors) }
    guard !heldGiven && !collecting else { return nil }
    heldGiven = true
    return try readHeld()
  }

  var progressTotal: Int { fileSize }

  func finish() throws(MigrationFailure) -> StoreMetadata {
    try checkIDs()
    if let links, !links.bothSidesAgree {
      throw refusal(
        "the two sides of some relationship between objects read in different chunks do not name each other (the store writes one side only, which a store read whole fills in, or names an object it lacks), which a run in chunks cannot fill in or check; give a --memory-limit that holds it whole"
      )
    }
    if let places, places.placed != places.kept {
      throw refusal(
        "the first pass kept the places of \(places.kept) members of to-many relationships in other chunks than their owners', and the chunks took \(places.placed) of them; nothing is written (a store read whole gives every member its place; give a --memory-limit that holds it whole)"
      )
    }
    return metadata
  }

  // MARK: - Windows

  enum Outcome {
    case chunk(ObjectGraph)
    /// Read on, nothing to hand over yet.
    case moved
    /// Not one whole value fitted: read a larger window.
    /// (`byReferences`: its ids, counted as `WindowWalk.bytesPerReference`, filled it.)
    case needsMore(byReferences: Bool)
    /// The document ended (or a syntax error stopped it).
    case ended
  }

  private func readWindow(size: Int) throws(MigrationFailure) -> Outcome {
    let (prefix, prefixTokens) = resume.prefix
    let length = min(size, fileSize - position)
    let isLast = position + length >= fileSize
    let allocated = prefix.count + length + InputBytes.paddingCount
    let buffer = LargeBuffer.allocate(byteCount: allocated)
    prefix.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: prefix.count) }
    var filled = 0
    while filled < length {
      let n = pread(fd, buffer + prefix.count + filled, length - filled, off_t(position + filled))
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        LargeBuffer.deallocate(buffer, byteCount: allocated)
        throw MigrationFailure(StoreIOError.system(n < 0 ? errno : EIO, path: path, operation: "read"), file: path)
      }
      filled += n
    }
    (buffer + prefix.count + length).initializeMemory(as: UInt8.self, repeating: 0, count: InputBytes.paddingCount)
    let input = InputBytes(adopting: buffer, allocated: allocated, count: prefix.count + length, path: path)
    var walk = WindowWalk(
      input: input, base: position - prefix.count, layout: layout, streamed: streamed, maxErrors: maxErrors,
      capacity: prefix.count + size)
    let start = position
    do {
      for _ in 0..<prefixTokens { _ = try walk.reader.scanner.next() }
      try walk.run(from: resume) { safe, place in
        // A whole value was read: the window may be left here.
        position = safe
        resume = place
      }
      // The document's top-level object ended in this window; the held document gets the rest.
      ended = true
    } catch is WindowWalk.Full {
      // The objects' references fill the window before its bytes do: the chunk ends at the
      // last whole value; an object that fills it alone needs a larger window.
      walk.rollBack()
      if position == start { return .needsMore(byReferences: true) }
    } catch let e as JSONSyntaxError
      where !isLast && (lastSyntaxError != walk.base + e.byteOffset || Self.runsToTheEnd(e))
    {
      // The window ends inside a value, or the value is wrong: read again from the last whole
      // value, with the bytes after it. An error found again at the same place is the store's,
      // but for a string or document cut by the window's end (its place is the string's start,
      // the same in a larger window that still ends inside it): that one is the store's only
      // in the file's last window.
      lastSyntaxError = walk.base + e.byteOffset
      walk.rollBack()
      if position == start { return .needsMore(byReferences: false) }
    } catch let e as JSONSyntaxError {
      walk.rollBack()
      walk.reader.errors.append(
        walk.reader.error(e.code.rawValue, e.message, at: e.byteOffset))
      walk.reader.errorOffsets.append(e.byteOffset)
      stopped = true
    } catch {
      // Too many errors.
      stopped = true
    }
    if links != nil && !stopped && !walk.reader.pending.isEmpty {
      // The chunk's references: to its own objects, or to stubs of the others.
      do {
        try links!.resolve(&walk.reader)
      } catch {
        stopped = true
      }
      keepOutsideLinks(base: walk.base)
    }
    // Every window, links or not: on disk, the places keep what each chunk will look up.
    if collecting && !stopped, let outcome = places?.collect(walk.reader.graph, window: walk.base) {
      collected(outcome)
    }
    if !collecting && !stopped {
      do throws(StoreIOError) {
        try places?.place(walk.reader.graph, window: walk.base)
      } catch {
        stopped = true
        errors.append((MigrationError(error, file: path), position))
      }
    }
    take(walk)
    if errors.count >= maxErrors { stopped = true }
    let graph = walk.reader.graph
    if !stopped && errors.isEmpty && graph.tables.contains(where: { $0.count > 0 }) {
      graph.finalize()
      // The numbers in the chunk's ids, where all of a table's have them (a conversion in
      // chunks asks: `StreamingConversion`).
      graph.pendingObjectKeys = { ObjectKeysJSON.readNumbers($0) }
      return .chunk(graph)
    }
    return stopped || ended ? .ended : .moved
  }

  /// Takes the chunk's links out of it that have no other side into `ids` (marked) and
  /// `outsideLinks`, for `checkIDs`.
  private func keepOutsideLinks(base: Int) {
    guard !collecting, let list = links?.outside, !list.isEmpty else { return }
    links!.outside.removeAll(keepingCapacity: true)
    do throws(StoreIOError) {
      for link in list where !stopped {
        let offset = link.offset + base
        try outsideLinks.append(offset: offset, owner: link.owner, property: link.property)
        if try !ids.append((link.hash, offset | IDSpill.referenceFlag)) { tooManyIDs() }
      }
    } catch {
      stopped = true
      errors.append((MigrationError(error, file: path), position))
    }
  }

  /// Whether `e` is what a window's end gives a value it cuts whatever the window's size.
  private static func runsToTheEnd(_ e: JSONSyntaxError) -> Bool {
    e.code == .unterminatedString || e.code == .unexpectedEndOfInput
  }

  /// Takes over what a window found: errors, id hashes, the bytes of the held document.
  private func take(_ walk: WindowWalk) {
    for (e, offset) in zip(walk.reader.errors, walk.reader.errorOffsets) {
      errors.append((e, offset + walk.base))
    }
    guard !collecting else { return }
    do throws(StoreIOError) {
      for (hash, offset) in zip(walk.reader.idHashes, walk.idOffsets) where !stopped {
        if try !ids.append((hash, offset + walk.base)) { tooManyIDs() }
      }
    } catch {
      stopped = true
      errors.append((MigrationError(error, file: path), position))
    }
    for gap in walk.streamedContent {
      copyHeld(upTo: gap.lowerBound + walk.base, from: walk)
      heldCursor = gap.upperBound + walk.base
    }
    copyHeld(upTo: position, from: walk)
  }

  /// Stops the first pass where what it keeps does not fit (in memory: it is taken again, on
  /// disk, `placesFull`) or cannot be kept.
  private func collected(_ outcome: MemberPlaces.Collected) {
    let why: String
    switch outcome {
    case .kept: return
    case .full:
      placesFull = true
      stopped = true
      return
    case .tooMany(let most):
      why = Self.tooManyPlaces(most, limit: budget.limit)
    case .failed(let error):
      stopped = true
      errors.append((MigrationError(error, file: path), position))
      return
    case .unnumbered(let owner):
      why =
        "\(owner) lists objects of other chunks through a to-many relationship without an inverse, and its id does not give an entity and a number (Entity/number), which their rows need for its key: the store cannot go a chunk at a time; give a --memory-limit that holds it whole"
    }
    stopped = true
    errors.append((MigrationError("run-memory-limit", why, file: path), position))
  }

  /// Why a store is refused whose places on disk pass `most` records.
  static func tooManyPlaces(_ most: Int, limit: Int) -> String {
    "the store's to-many relationships list more members outside their owners' chunks than the first pass keeps on disk with --memory-limit \(limit) (\(most) places or look-ups of a list: \(PlaceSpill.maxRuns) sorted runs of \(most / PlaceSpill.maxRuns)); give a larger --memory-limit"
  }

  private func tooManyIDs() {
    stopped = true
    errors.append(
      (
        MigrationError(
          "run-memory-limit",
          "the store has more than \(IDSpill.maxRuns) times \(budget.limit / 64) objects and links out of chunks, more than the check that ids are unique and name objects takes with --memory-limit \(budget.limit)",
          file: path), position
      ))
  }

  /// Copies the file's bytes from `heldCursor` to `end` (inside the window) into the held
  /// document.
  private func copyHeld(upTo end: Int, from walk: WindowWalk) {
    guard end > heldCursor else { return }
    if heldPieces.last.map({ $0.fileStart + (held.count - $0.heldStart) != heldCursor }) ?? true {
      heldPieces.append((held.count, heldCursor))
    }
    let bytes = walk.reader.input.unsafeBytes
    held.append(contentsOf: bytes[(heldCursor - walk.base)..<(end - walk.base)])
    if held.count > budget.held {
      stopped = true
      errors.append(
        (
          MigrationError(
            "run-memory-limit",
            "the store's entities that cannot be read a chunk at a time take more than a quarter of --memory-limit \(budget.limit) (\(budget.held) bytes)",
            file: path), heldCursor
        ))
    }
    heldCursor = end
  }

  private func refusal(_ why: String) -> MigrationFailure {
    MigrationFailure([MigrationError("run-memory-limit", why, file: path)])
  }

  // MARK: - The held document

  private func readHeld() throws(MigrationFailure) -> ObjectGraph {
    if heldCursor < fileSize {
      // Only reached when the document ended early; the whole-store reader says how.
      var rest = [UInt8](repeating: 0, count: fileSize - heldCursor)
      let n = rest.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(heldCursor)) }
      heldPieces.append((held.count, heldCursor))
      held += rest.prefix(max(n, 0))
      heldCursor = fileSize
    }
    let input = InputBytes(held, path: path)
    do {
      let (graph, metadata) = try StoreReader.read(input, layout: layout, maxErrors: maxErrors, splitMinimum: .max)
      self.metadata = metadata
      heldIDs(graph)
      return graph
    } catch {
      throw located(
        error.errors.map { e in (e, heldOffset(e.location.map { ($0.line, $0.column) }, in: input)) },
        truncated: error.truncated)
    }
  }

  /// The held document's objects' ids, by hash and file offset, for `checkUniqueIDs`.
  private func heldIDs(_ graph: ObjectGraph) {
    for t in graph.tables {
      guard let ids = t.ids else { continue }
      for row in 0..<t.count {
        guard case .string(let text) = ids.get(row) else { continue }
        let (s, offset): (String, Int) =
          switch text {
          case .native(let s): (s, 0)
          case .slice(let slice): (graph.input?.decodeString(slice) ?? "", fileOffset(ofHeld: slice.start - 1))
          }
        _ = try? self.ids.append((Array(s.utf8).withUnsafeBytes { IDIndex.hash($0) }, offset))
      }
    }
  }

  private func fileOffset(ofHeld offset: Int) -> Int {
    var lo = 0
    var hi = heldPieces.count - 1
    guard hi >= 0 else { return offset }
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if heldPieces[mid].heldStart <= offset { lo = mid } else { hi = mid - 1 }
    }
    return heldPieces[lo].fileStart + (offset - heldPieces[lo].heldStart)
  }

  /// The file offset of a (line, column) of the held document.
  private func heldOffset(_ place: (Int, Int)?, in input: InputBytes) -> Int {
    guard let (line, column) = place, line > 0 else { return -1 }
    let bytes = input.unsafeBytes
    var l = 1
    var c = 1
    var i = 0
    while i < bytes.count && (l < line || (l == line && c < column)) {
      LineCursor.step(bytes[i], &l, &c)
      i += 1
    }
    return fileOffset(ofHeld: i)
  }

  // MARK: - Ids across the store

  /// The checks of the ids across chunks: no two objects have the same id, and each id a link
  /// out of a chunk names (`outsideLinks`) is an object's. Equal hashes are compared by the
  /// ids' text.
  private func checkIDs() throws(MigrationFailure) {
    var found: [(MigrationError, Int)] = []
    var dangling: [(offset: Int, id: String)] = []
    let flag = IDSpill.referenceFlag
    do {
      try ids.equalHashes(singles: outsideLinks.count > 0) { group in
        // (Most groups are one object's id: answered before the lists below are made.)
        if group.count == 1 && group[0].offset & flag == 0 { return true }
        let objects = group.filter { $0.offset & flag == 0 }
        let named = group.filter { $0.offset & flag != 0 }
        // (An object's id alone under its hash, or one named by links only, is read no further.)
        guard objects.count > 1 || !named.isEmpty else { return true }
        let texts = objects.map { idText(at: $0.offset) }
        for a in texts.indices.dropFirst() {
          guard let t = texts[a], let first = (0..<a).first(where: { texts[$0] == t }) else { continue }
          found.append(
            (
              MigrationError(
                "store-duplicate-id",
                "duplicate id \(t): an object uses the id of an earlier object (at byte \(objects[first].offset)); ids must be unique in a store",
                file: path), objects[a].offset
            ))
        }
        for link in named {
          let offset = link.offset & ~flag
          if let t = idText(at: offset), !texts.contains(t) { dangling.append((offset, t)) }
        }
        return found.count + dangling.count < maxErrors
      }
      if !dangling.isEmpty {
        let named = try outsideLinks.links(at: Set(dangling.map(\.offset)))
        for (offset, id) in dangling {
          let link = named[offset]
          found.append(
            (
              MigrationError(
                "store-dangling-id", StoreReader.dangling(link?.owner ?? "an object", link?.property ?? "?", id),
                file: path), offset
            ))
        }
      }
    } catch {
      throw MigrationFailure(error, file: path)
    }
    if !found.isEmpty { throw located(found.sorted { $0.1 < $1.1 }) }
  }

  /// The id whose string starts (its quote) at `offset` of the file: its first 256 bytes read,
  /// eight times more while the string goes on, up to the largest value the limit allows.
  private func idText(at offset: Int) -> String? {
    guard offset >= 0 && offset < fileSize else { return nil }
    var n = min(256, fileSize - offset)
    while true {
      var bytes = [UInt8](repeating: 0, count: n + InputBytes.paddingCount)
      let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, n, off_t(offset)) }
      guard got > 0 else { return nil }
      let text = bytes.withUnsafeBytes { raw -> String? in
        var scanner = JSONScanner(UnsafeRawBufferPointer(rebasing: raw[0..<got]))
        guard let t = try? scanner.next(), t.kind == .string else { return nil }
        return scanner.decodeString(t)
      }
      if text != nil || got < n || n >= min(budget.largestValue, fileSize - offset) { return text }
      n = min(n * 8, budget.largestValue, fileSize - offset)
    }
  }

  // MARK: - Positions

  /// The errors, each located at its file offset's line and column.
  private func located(_ list: [(error: MigrationError, offset: Int)], truncated: Bool = false) -> MigrationFailure {
    let sorted = list.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
    let positions = FilePositions.of(sorted.map(\.element.offset), fd: fd, size: fileSize)
    let errors = zip(sorted, positions).map { item, p in
      var e = item.element.error
      if let p { e.location = SourceLocation(file: path, line: p.line, column: p.column) }
      return e
    }
    return MigrationFailure(Array(errors.prefix(maxErrors)), truncated: truncated || errors.count >= maxErrors)
  }
}

/// Line and column of file offsets, counted as `LineCursor` counts them, in one pass.
enum FilePositions {
  static func of(_ offsets: [Int], fd: Int32, size: Int) -> [(line: Int, column: Int)?] {
    var result: [(line: Int, column: Int)?] = []
    var line = 1
    var column = 1
    var at = 0
    var block = [UInt8](repeating: 0, count: 1 << 20)
    var blockStart = 0
    var blockCount = 0
    for target in offsets {
      guard target >= 0 else {
        result.append(nil)
        continue
      }
      let end = min(target, size)
      while at < end {
        if at >= blockStart + blockCount {
          blockStart = at
          blockCount = block.withUnsafeMutableBytes { max(pread(fd, $0.baseAddress!, $0.count, off_t(at)), 0) }
          if blockCount == 0 { break }
        }
        LineCursor.step(block[at - blockStart], &line, &column)
        at += 1
      }
      result.append((line, column))
    }
    return result
  }
}
