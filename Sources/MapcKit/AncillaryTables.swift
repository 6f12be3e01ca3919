import MapRuntime

/// Core Data's own tables of an SQLite store (persistent history `ACHANGE`, `ATRANSACTION`,
/// `ATRANSACTIONSTRING`; CloudKit mirroring `ANSCK…`): never entities of the model, and not
/// carried into a store mapc writes, as Core Data's migration through a new store does not
/// carry them (Specs/sqlite-store.md §4.1). Commands that read such a store and write another
/// say so.
package enum AncillaryTables {
  /// The notes to print once the new store is written, read before (a store migrated in place
  /// is gone after): one when the SQLite store at `path` has history rows, one when it has
  /// CloudKit tables (the format's `bookkeeping`); none for a JSON store or one that cannot be read (the command's own
  /// read reports that).
  package static func notes(store path: String, format: (any StoreFormat)?, into what: String) -> [String] {
    (format?.bookkeeping(path) ?? []).map { kept in
      switch kept {
      case .persistentHistory(let transactions, let changes):
        "\(path) holds persistent history (\(transactions) transactions, \(changes) changes); \(what) has none, as after Core Data's migration into a new store: apps that keep a history token must start again from the new store (Core Data's persistent history tables, ACHANGE and ATRANSACTION, are not carried over)"
      case .cloudKitMirroring(let tables):
        "\(path) holds CloudKit mirroring tables (\(tables.joined(separator: ", "))); \(what) has none: NSPersistentCloudKitContainer mirrors the new store afresh"
      }
    }
  }
}
