import Dispatch
import Foundation
import MapJSONText
import MapRuntime

/// Reading a large entity array on two threads.
///
/// When an array starts with many bytes after it, a second reader starts at a guess of an
/// element boundary half way along (a `{` after `},`) and reads from there to the array's `]`
/// into a graph of its own, while this reader reads from the start. The guess was right if
/// this reader's next element starts exactly there: its objects are then appended to this
/// graph's table, their ids indexed and their references kept, in order, and this reader goes
/// on after the `]`. A guess inside a string or a nested value, or a second half with any error
/// (even one that the guess caused), is thrown away and this reader reads on by itself, so
/// results and errors are those of reading alone.
extension StoreReader {
  /// Arrays with fewer bytes than this after their `[` are read on one thread (with one core,
  /// all are).
  public static let defaultSplitMinimum = Cores.workers > 1 ? 8 << 20 : Int.max

  /// The second half of an array, read on another thread.
  final class SplitPart: @unchecked Sendable {
    /// Where the second half's first element starts.
    let start: Int
    var reader: StoreReader
    /// Whether it read every element up to the array's `]` without an error.
    private var succeeded = false
    /// Set by `cancel`; under a lock, not `Synchronization.Atomic` (macOS 15; the package
    /// supports macOS 13).
    private var cancelled = false
    private let cancelLock = NSLock()
    private let finished = DispatchSemaphore(value: 0)

    init(start: Int, reader: StoreReader) {
      self.start = start
      self.reader = reader
    }

    func run(entity e: Int) {
      defer { finished.signal() }
      let reading = EntityReading(reader.graph.tables[e])
      var objectsRead = 0
      do {
        // The flag is looked at every 256 objects: its lock then costs nothing measurable.
        while objectsRead & 255 != 0 || !cancelLock.withLock({ cancelled }) {
          let t = try reader.scanner.next()
          if t.kind == .endArray {
            succeeded = reader.errors.isEmpty
            return
          }
          guard t.kind == .beginObject else { return }
          try reader.readObject(reading, open: t)
          objectsRead += 1
          reader.reserveRows(reading.table, after: objectsRead, from: start, to: t.start)
          if !reader.errors.isEmpty { return }
        }
      } catch {}
    }

    /// Waits for the part; whether it read its half without an error.
    func wait() -> Bool {
      finished.wait()
      return succeeded
    }

    /// Asks the part to stop (its work is not needed).
    func cancel() { cancelLock.withLock { cancelled = true } }
  }

  /// Starts reading the second half of the array whose `[` is `open`, when it is worth it.
  func startSplit(after open: JSONToken, entity e: Int) -> SplitPart? {
    let from = open.end
    guard bytes.count - from >= splitMinimum,
      let start = Self.elementStart(in: bytes, near: from + (bytes.count - from) / 2)
    else { return nil }
    // Its own layout, so that the two threads never share reference counts.
    var helper = StoreReader(
      input: input, layout: StoreLayout(model: layout.model), maxErrors: 1, splitMinimum: .max, expectedIDs: 0)
    helper.indexesIDs = false
    helper.locatesErrors = false
    helper.scanner = scanner
    helper.scanner.resume(atElement: start)
    let part = SplitPart(start: start, reader: helper)
    DispatchQueue.global().async { part.run(entity: e) }
    return part
  }

  /// Takes over the objects of a second half that was read right; false (nothing taken)
  /// when it was not.
  mutating func adopt(_ part: SplitPart, entity e: Int) throws -> Bool {
    guard part.wait() else { return false }
    let helper = part.reader
    let table = graph.tables[e]
    let first = table.count
    table.append(helper.graph.tables[e])
    for var p in helper.pending {
      p.owner = ObjectRef(entity: e, row: first + Int(p.owner.row))
      pending.append(p)
    }
    scanner = helper.scanner
    graph.splitEntities.append(table.layout.name)
    // The helper stopped at any object without an id, so there is one hash per object.
    precondition(helper.idHashes.count == table.count - first, "one id hash per adopted object")
    for (k, hash) in helper.idHashes.enumerated() {
      let row = first + k
      try index(ObjectRef(entity: e, row: row), hash: hash) {
        if case .string(.slice(let s)) = table.ids!.get(row) { return s.start - 1 }
        return 0
      }
    }
    return true
  }

  /// The offset of a `{` that follows `}` and `,` (with white space between), searched from
  /// `near` on for a megabyte: most likely the start of an array element.
  static func elementStart(in bytes: UnsafeRawBufferPointer, near: Int) -> Int? {
    let end = min(bytes.count, near + (1 << 20))
    var i = near
    while i < end {
      if bytes[i] == UInt8(ascii: "}") {
        var j = i + 1
        while j < end, isSpace(bytes[j]) { j += 1 }
        if j < end, bytes[j] == UInt8(ascii: ",") {
          j += 1
          while j < end, isSpace(bytes[j]) { j += 1 }
          if j < end, bytes[j] == UInt8(ascii: "{") { return j }
        }
      }
      i += 1
    }
    return nil
  }

  @inline(__always) private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }
}
