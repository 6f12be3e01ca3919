import Foundation
import MapRuntime

extension CoreDataWriter {
  /// The cells of a run of rows of one entity, worked out from the graph on a second core while
  /// the writing thread binds and inserts the run before it (Specs/sqlite-store.md §7). Only
  /// the common kinds are worked out here (numbers, keys, positions, texts the graph holds as
  /// plain bytes or strings); anything else (`slow`) is left to the writing thread's
  /// `slowValue`, which also reports what cannot be stored.
  struct RowChunk: @unchecked Sendable {
    enum Kind: UInt8 {
      case null, integer, real, text, string, slow
    }
    /// Rows of the entity this chunk holds.
    let rows: Range<Int>
    /// `rows.count × cells.count`, row by row.
    var kinds: [Kind] = []
    /// Per cell: the integer, the real's bit pattern, or the index in `texts` or `strings`.
    var payloads: [Int64] = []
    /// UTF-8 bytes in the graph's input, valid as long as the input is.
    var texts: [UnsafeRawBufferPointer] = []
    var strings: [String] = []

    init(rows: Range<Int>, cellCount: Int) {
      self.rows = rows
      kinds.reserveCapacity(rows.count * cellCount)
      payloads.reserveCapacity(rows.count * cellCount)
    }

    mutating func add(_ kind: Kind, _ payload: Int64 = 0) {
      kinds.append(kind)
      payloads.append(payload)
    }
  }

  /// What rendering an entity's rows reads: the writer's key tables and the entity's columns,
  /// none of which change while rows are written.
  struct RowSource: @unchecked Sendable {
    let table: EntityTable
    let cells: [Cell]
    let slots: Slots
    let keys: [[Int64]]
    let entityNumbers: [Int64]
    let entity: Int
    let input: InputBytes?

    /// Rows of this many objects are rendered on the second core, one run ahead.
    static let chunkRows = 8_192

    func key(_ r: ObjectRef) -> Int64 { keys[Int(r.entity)][Int(r.row)] }

    func render(_ rows: Range<Int>) -> RowChunk {
      var chunk = RowChunk(rows: rows, cellCount: cells.count)
      for row in rows {
        for cell in cells {
          switch cell {
          case .none:
            chunk.add(.null)
          case .attribute(let p, let k):
            render(table.value(row, p), slots.attributes[k].type, into: &chunk)
          case .element(let p, _):
            // Taken apart by `CoreDataWriter.compositeElement` on the inserting thread.
            if table.value(row, p).isNull { chunk.add(.null) } else { chunk.add(.slow) }
          case .foreignKey(let p):
            if let r = CoreDataWriter.ref(table.value(row, p)) { chunk.add(.integer, key(r)) } else { chunk.add(.null) }
          case .entityKey(let p):
            if let r = CoreDataWriter.ref(table.value(row, p)) {
              chunk.add(.integer, entityNumbers[Int(r.entity)])
            } else {
              chunk.add(.null)
            }
          case .order(let k):
            let positions = slots.orders[k][entity]
            if !positions.isEmpty, positions[row] != 0 { chunk.add(.integer, positions[row]) } else { chunk.add(.null) }
          case .hiddenKey(let k):
            if let owner = slots.hiddenOwner[k][ObjectRef(entity: entity, row: row)] {
              chunk.add(.integer, key(owner))
            } else {
              chunk.add(.null)
            }
          }
        }
      }
      return chunk
    }

    /// The common kinds of `slowValue`, the others left `slow`.
    private func render(_ v: Value, _ type: AttributeType, into chunk: inout RowChunk) {
      switch (v, type) {
      case (.null, _):
        chunk.add(.null)
      case (_, .transformable), (.string, .uuid), (.data, _), (.decimal, _):
        chunk.add(.slow)
      case (.int(let i), _):
        chunk.add(.integer, type == .boolean ? (i != 0 ? 1 : 0) : i)
      case (.bool(let b), _):
        chunk.add(.integer, b ? 1 : 0)
      case (.double(let d), _), (.date(let d), _):
        // -0.0 is refused by `encode` (Specs/sqlite-store.md §7).
        if d == 0 && d.sign == .minus { chunk.add(.slow) } else { chunk.add(.real, Int64(bitPattern: d.bitPattern)) }
      case (.string(.slice(let s)), _):
        if let bytes = input?.plainStringBytes(s) {
          chunk.texts.append(bytes)
          chunk.add(.text, Int64(chunk.texts.count - 1))
        } else {
          chunk.add(.slow)
        }
      case (.string(.native(let s)), _):
        chunk.strings.append(s)
        chunk.add(.string, Int64(chunk.strings.count - 1))
      default:
        chunk.add(.slow)
      }
    }
  }

  /// Renders the runs of `source`'s rows on a second core, each one run ahead of `insert`,
  /// which gets them in order.
  static func pipelined(
    _ source: RowSource, count: Int, insert: (RowChunk) throws -> Void
  ) throws {
    let runs = stride(from: 0, to: count, by: RowSource.chunkRows).map { $0..<min($0 + RowSource.chunkRows, count) }
    guard !runs.isEmpty else { return }
    final class Pending: @unchecked Sendable {
      let done = DispatchSemaphore(value: 0)
      var chunk: RowChunk?
    }
    func start(_ rows: Range<Int>) -> Pending {
      let pending = Pending()
      DispatchQueue.global().async {
        pending.chunk = source.render(rows)
        pending.done.signal()
      }
      return pending
    }
    var next = start(runs[0])
    for k in runs.indices {
      next.done.wait()
      let chunk = next.chunk!
      if k + 1 < runs.count { next = start(runs[k + 1]) }
      try insert(chunk)
    }
  }
}
