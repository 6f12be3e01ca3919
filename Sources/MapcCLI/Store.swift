import ArgumentParser

extension MapcCommand {
  /// `mapc store info|export`: Core Data SQLite stores (Specs/sqlite-store.md).
  struct Store: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Inspect and convert Core Data SQLite stores.",
      discussion: """
        info prints a store's format, metadata, model version hashes, entities and rows per \
        entity; export converts a Core Data SQLite store to the JSON store of mapc run (mapc \
        repository: Specs/sqlite-store.md, Specs/store-format.md).
        """,
      subcommands: [StoreInfo.self, StoreExport.self])
  }
}
