import Foundation
import MapRuntime

/// The Transformable values of the second half of a large table, copied into their payloads
/// (`TransformableBlobs`) on a second core while the reading thread works through the first
/// half (Specs/sqlite-store.md §5.1). Reading the blobs is much of the cost of reading a store
/// that has them; the rows
/// themselves are still read, checked and added to the graph by the one reading thread, in
/// `Z_PK` order, which takes each converted value from here when it reaches the second half.
///
/// The second half is read through a connection of its own (`CoreDataStoreFile.sharedLocation`),
/// the same rows in the same order. A failure here is not an error: the reading thread then
/// converts those values itself, so the result never depends on this thread.
final class TransformablePrefetch: @unchecked Sendable {
  /// Tables whose `Z_PK` range is smaller than this are read by one thread.
  static let minimumRows: Int64 = 20_000

  /// Rows with a `Z_PK` above this are converted here.
  let split: Int64
  /// Per selected column of the reading thread's query: its slot here, or -1.
  let slotOfColumn: [Int]
  private let slotCount: Int
  private let finished = DispatchSemaphore(value: 0)
  // Written by the converting thread only, read after `finished` is signalled.
  private var text: TransformableBlobs
  private var keys: [Int64] = []
  private var slices: [ByteSlice?] = []
  private var failed = false

  /// Starts converting, or returns nil when the table is too small or has no archive column.
  /// `columns`: the query's selected column names; `archives`: selected column → true for an
  /// archive, false for a custom transformer's bytes; `expected`: the bytes of payloads to
  /// reserve room for (`TransformableBlobs`).
  init?(
    location: SQLiteDatabase.Location?, database: SQLiteDatabase, table: String, columns: [String],
    archives: [Int: Bool], expected: Int
  ) {
    guard let location, !archives.isEmpty else { return nil }
    let quoted = SQLiteDatabase.quote(table)
    // Two subqueries: SQLite reads only the ends of the table for a lone min() or max(), but
    // scans every row for `SELECT min(Z_PK), max(Z_PK)`.
    guard
      let range = try? database.rows("SELECT (SELECT min(Z_PK) FROM \(quoted)), (SELECT max(Z_PK) FROM \(quoted))")
        .first,
      range.count == 2, let low = range[0].integer, let high = range[1].integer,
      // Keys from the file: a range wider than Int64 (Z_PK of Int64.min and a positive one) is
      // not split (the reader refuses keys below 1 with `sqlite-layout`).
      case let (width, overflow) = high.subtractingReportingOverflow(low), !overflow, width >= Self.minimumRows
    else { return nil }
    split = low + width / 2
    text = TransformableBlobs(expected: expected)
    let order = archives.keys.sorted()
    var slots = [Int](repeating: -1, count: columns.count)
    for (slot, c) in order.enumerated() { slots[c] = slot }
    slotOfColumn = slots
    slotCount = order.count
    let sql =
      "SELECT Z_PK, \(order.map { SQLiteDatabase.quote(columns[$0]) }.joined(separator: ", ")) FROM \(quoted) "
      + "WHERE Z_PK > \(split) ORDER BY Z_PK"
    let decoding = order.map { archives[$0]! }
    DispatchQueue.global().async { self.convert(location: location, sql: sql, decoding: decoding) }
  }

  private func convert(location: SQLiteDatabase.Location, sql: String, decoding: [Bool]) {
    defer { finished.signal() }
    do {
      let connection = try SQLiteDatabase(location)
      let statement = try connection.prepare(sql)
      while try statement.step() {
        keys.append(statement.int64(0))
        for (k, archive) in decoding.enumerated() {
          slices.append(
            statement.withBlob(k + 1) { bytes -> ByteSlice? in
              guard case .transformable(let s) = text.value(bytes, decoding: archive, column: k) else { return nil }
              return s
            } ?? nil)
        }
      }
    } catch {
      failed = true
    }
  }

  /// Where the reading thread stands in the converted rows.
  struct Cursor {
    var row = 0
    /// Added to a converted slice once its text is part of the reader's (nil until then).
    var shift: Int?
  }

  /// The converted value of `column` (a selected column) for the row `key`, or nil when the
  /// reading thread must convert it. The first call waits for the conversion and appends its
  /// text to `into`.
  func value(
    key: Int64, column: Int, cursor: inout Cursor, into text: inout TransformableBlobs
  ) -> Value? {
    guard key > split, slotOfColumn[column] >= 0 else { return nil }
    if cursor.shift == nil {
      finished.wait()
      cursor.shift = failed ? 0 : text.append(self.text)
    }
    guard !failed, let shift = cursor.shift else { return nil }
    while cursor.row < keys.count && keys[cursor.row] < key { cursor.row += 1 }
    guard cursor.row < keys.count, keys[cursor.row] == key,
      let s = slices[cursor.row * slotCount + slotOfColumn[column]]
    else { return nil }
    return .transformable(ByteSlice(start: s.start + shift, count: Int(s.count), hasEscapes: s.hasEscapes))
  }
}
