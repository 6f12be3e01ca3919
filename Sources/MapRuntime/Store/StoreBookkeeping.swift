/// What a store holds besides the model's objects and which a store written from its graph
/// does not carry, as Core Data's migration into a new store does not: a command that reads
/// such a store and writes another says so.
public enum StoreBookkeeping: Sendable, Hashable {
  /// Persistent history with rows (Core Data's `ATRANSACTION` and `ACHANGE`).
  case persistentHistory(transactions: Int, changes: Int)
  /// CloudKit mirroring tables (Core Data's `ANSCK…`), by name.
  case cloudKitMirroring(tables: [String])
}
