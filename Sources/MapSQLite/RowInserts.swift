/// How an entity's rows go into its table (`CoreDataWriter.writeRows`, and the rows of a run in
/// chunks, `CoreDataWriter.insertStreamed`): whole batches of rows in one multi-row `INSERT`,
/// the rows after the last whole batch one by one. Both writers insert through this one layout,
/// which the bytes of the file depend on.
struct RowInserts {
  /// The statement of one row, and of a batch (the same one when no batch is whole).
  let single: SQLiteStatement
  let batch: SQLiteStatement
  /// Parameters bound per row before the table's columns: `Z_PK`, and `Z_OPT` when versioned.
  let first: Int
  /// Parameters bound per row.
  let parameters: Int
  let perBatch: Int
  /// Rows inserted in whole batches (the first ones).
  let batched: Int

  /// The statements that insert `count` rows of entity `number` into `table`, whose columns
  /// after `Z_PK`, `Z_ENT` and `Z_OPT` are `names`' rest; `Z_OPT` is bound when `versioned`,
  /// else 1.
  init(
    _ db: SQLiteDatabase, table: CoreDataSchema.Table, number: Int, names: [String], versioned: Bool, count: Int
  ) throws(SQLiteDatabase.Failure) {
    first = versioned ? 2 : 1
    parameters = first + table.columns.count
    perBatch = max(1, min(CoreDataWriter.batchRows, CoreDataWriter.maximumParameters / parameters))
    batched = count - count % perBatch
    func insert(rows n: Int) throws(SQLiteDatabase.Failure) -> SQLiteStatement {
      let row = "(?, \(number), \(versioned ? "?" : "1")" + String(repeating: ", ?", count: table.columns.count) + ")"
      return try db.prepare(
        "INSERT INTO \(table.name) (\(names.joined(separator: ", "))) VALUES "
          + repeatElement(row, count: n).joined(separator: ", "))
    }
    single = try insert(rows: 1)
    batch = batched > 0 && perBatch > 1 ? try insert(rows: perBatch) : single
  }

  /// The statement row `row` (0-based) is bound into, and the index of its first parameter.
  func slot(_ row: Int) -> (statement: SQLiteStatement, base: Int) {
    row < batched ? (batch, (row % perBatch) * parameters) : (single, 0)
  }

  /// Runs the statement once row `row` completes it: the last row of a batch, or a single row.
  func finish(_ row: Int) throws(SQLiteDatabase.Failure) {
    guard row >= batched || (row + 1) % perBatch == 0 else { return }
    let statement = slot(row).statement
    _ = try statement.step()
    statement.rewind()
  }
}
