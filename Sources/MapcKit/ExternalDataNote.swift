import MapRuntime

/// Binary values an SQLite store keeps outside the database in files that are missing
/// (Specs/sqlite-store.md §5): a command that writes an SQLite store from it carries each such
/// reference as it is, and says how many it carried.
package enum ExternalDataNote {
  /// The note to print once the new store is written, read before (a store migrated in place
  /// is gone after); nil for a JSON store, a model without such attributes, or a store where
  /// every file is there.
  package static func note(store path: String, format: (any StoreFormat)?, model: ObjectModel, into what: String)
    -> String?
  {
    guard let missing = format?.missingExternalFiles(path, model: model) else { return nil }
    guard !missing.isEmpty else { return nil }
    let total = missing.reduce(0) { $0 + $1.count }
    let list = missing.map { "\($0.entity).\($0.attribute) \($0.count)" }.joined(separator: ", ")
    return
      "\(path): \(total) Binary value\(total == 1 ? "" : "s") kept outside the database name\(total == 1 ? "s a file" : " files") that \(total == 1 ? "is" : "are") missing (\(list)); \(what) keeps \(total == 1 ? "that reference" : "those references") as \(total == 1 ? "it is" : "they are"), and a JSON export or a mapping that reads such a value refuses it"
  }
}
