import Foundation
import MapJSONText
import MapRuntime

/// Writes objects of one table, `id` first and then each property in layout order, from any
/// thread: it holds the table's encoded keys and unretained columns, and reads the graph only.
struct RowWriter: @unchecked Sendable {
  let table: EntityTable
  let entity: Int
  let idKey: PreparedKey
  let cells: CellWriting
  private let columns: [ColumnCells]
  private let keys: UnsafeMutableRawBufferPointer
  private let keyStart: [Int]

  init(table: EntityTable, entity: Int, idKey: PreparedKey, cells: CellWriting) {
    self.table = table
    self.entity = entity
    self.idKey = idKey
    self.cells = cells
    var blob: [UInt8] = []
    var starts: [Int] = [0]
    for p in table.layout.properties {
      blob += PreparedKey(p.name).encoded
      starts.append(blob.count)
    }
    keyStart = starts
    columns = table.columns.map { ColumnCells($0, rows: table.count) }
    keys = UnsafeMutableRawBufferPointer.allocate(byteCount: max(blob.count, 1), alignment: 1)
    blob.withUnsafeBytes { keys.copyMemory(from: $0) }
  }

  /// Frees the encoded keys; the writer must not be used afterwards.
  func release() {
    keys.deallocate()
    withExtendedLifetime(table) {}
  }

  func write(_ rows: Range<Int>, to out: inout JSONOutput) throws(StoreWriteError) {
    for row in rows {
      out.beginObject()
      out.writeKey(idKey)
      cells.writeID(ObjectRef(entity: entity, row: row), to: &out)
      for c in 0..<columns.count {
        out.writeKey(encoded: UnsafeRawBufferPointer(rebasing: keys[keyStart[c]..<keyStart[c + 1]]))
        do {
          try cells.writeCell(columns[c], row, to: &out)
        } catch {
          throw error.about("\(table.layout.name)/\(row + 1).\(table.layout.properties[c].name)")
        }
      }
      out.endObject()
    }
  }
}
