import ArgumentParser
import Foundation
import MapCompiler
import MapRuntime
import MapSQLite

extension MapcCommand {
  struct StoreImport: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Convert a JSON store to a Core Data SQLite store.",
      discussion: """
        Finds the version of the model bundle whose entity version hashes the JSON store \
        records, reads it with that version's model, and writes a new SQLite store in the \
        layout Core Data creates for that version, replacing OUTPUT (with its -wal and -shm) \
        atomically. The store UUID and the metadata keys the JSON store carries are kept. Exit \
        status: 0 written, 1 the model cannot be read, 2 the store cannot be read, matches no \
        version or cannot be written (nothing written), 64 usage error or an output that \
        would write over an input (nothing read or written).
        """)

    @Argument(help: "The JSON store.")
    var store: String

    @Option(help: "The model bundle (.xcdatamodeld) whose version the store is at.")
    var model: String

    @Option(name: .shortAndLong, help: "Where to write the SQLite store.")
    var output: String

    func run() throws {
      var files = OutputTarget()
      files.reads(store, as: "store")
      files.reads(model, as: "model")
      files.writes(output, option: "--output", kind: .store)
      try files.refuseClash()
      TemporaryFiles.installSignalHandlers()
      try StoreConversion.convert(
        store, bundle: model, output: output, from: JSONStoreFormat(), to: SQLiteStoreFormat(),
        options: StoreWriteOptions(), verb: "imported")
    }
  }
}
