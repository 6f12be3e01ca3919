import ArgumentParser

extension MapcCommand {
  /// `mapc store info|export`: Core Data SQLite stores (Specs/sqlite-store.md).
  struct Store: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Inspect Core Data SQLite stores and convert them to and from JSON stores.",
      discussion: """
        info prints a store's format, metadata, model version hashes, entities and rows per \
        entity; export converts a Core Data SQLite store to the JSON store of mapc run, import \
        a JSON store to a Core Data SQLite store; model writes the model a store carries as an \
        Xcode model (mapc repository: Specs/sqlite-store.md, Specs/store-format.md).
        """,
      subcommands: [StoreInfo.self, StoreExport.self, StoreImport.self, StoreModel.self])
  }
}
