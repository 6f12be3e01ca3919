import ArgumentParser
import MapcKit

extension MapcCommand {
  /// `mapc store info|convert|export|import|model|check|repair`: stores of any format mapc knows (Specs/sqlite-store.md,
  /// Specs/store-format.md).
  struct Store: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Inspect stores and convert them from one store format to another.",
      discussion: """
        info prints a store's format, metadata, model version hashes, entities and rows per \
        entity; convert converts a store of any format to any other (\(StoreFormatChoice.names)); \
        export is convert --to json of an SQLite store, import convert --to sqlite of a JSON \
        store; model writes the model a store carries as an Xcode model; check finds what would \
        make Core Data fail or lose data on opening a store, and repair writes a repaired copy.
        """,
      subcommands: [
        StoreInfo.self, StoreConvert.self, StoreExport.self, StoreImport.self, StoreModel.self, StoreCheck.self,
        StoreRepair.self,
      ])
  }
}
