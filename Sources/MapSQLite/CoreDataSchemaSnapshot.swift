import MapRuntime

/// The schema of a Core Data SQLite store as `sqlite_master` records it: one line per table,
/// index and trigger (`type name ON table: SQL`), sorted, SQLite's own objects left out. `mapc
/// test` compares a migrated store's schema with a new empty store's of the same version: an
/// upgraded user and a fresh install must get the same tables, columns and indexes.
public enum CoreDataSchemaSnapshot {
  /// The schema lines of the store at `path`.
  public static func lines(ofStoreAt path: String) throws(MigrationFailure) -> [String] {
    do throws(SQLiteDatabase.Failure) {
      let db = try SQLiteDatabase(.uri(SQLiteDatabase.immutableURI(path)))
      let rows = try db.rows(
        "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
      return rows.map { row in
        let text = row.map { cell -> String in
          if case .text(let s) = cell { return s }
          return ""
        }
        return "\(text[0]) \(text[1]) ON \(text[2]): \(normalized(text[3]))"
      }.sorted()
    } catch {
      throw MigrationFailure([
        MigrationError("sqlite-unreadable", "cannot read the store's schema: \(error.message)", file: path)
      ])
    }
  }

  /// The lines of `got` missing from `expected` and the other way round, as `- line` (only in
  /// expected) and `+ line` (only in got).
  public static func differences(expected: [String], got: [String]) -> [String] {
    let (e, g) = (Set(expected), Set(got))
    return expected.filter { !g.contains($0) }.map { "- " + $0 } + got.filter { !e.contains($0) }.map { "+ " + $0 }
  }

  /// SQL with runs of white space made one space, so that layout does not count.
  static func normalized(_ sql: String) -> String {
    sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
  }
}
