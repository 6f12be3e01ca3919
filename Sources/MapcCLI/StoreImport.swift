import ArgumentParser
import Foundation
import MapRuntime

extension MapcCommand {
  struct StoreImport: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Convert a JSON store to a Core Data SQLite store (store convert --to sqlite).",
      discussion: """
        store convert --to sqlite of a store read as JSON. Finds the version of the model \
        bundle whose entity version hashes the JSON store records, reads it with that \
        version's model, and writes a new SQLite store in the layout Core Data creates for that \
        version, replacing OUTPUT (with its -wal and -shm) atomically. The store UUID and the \
        metadata keys the JSON store carries are kept. Exit \
        status: 0 written, 1 the model cannot be read, 2 the store cannot be read, matches no \
        version or cannot be written (nothing written), 64 usage error or an output that \
        would write over an input (nothing read or written).
        """)

    @Argument(help: "The JSON store.")
    var store: String

    @Option(help: "The model bundle (.xcdatamodeld) or SwiftData schema (.swift) the store is a version of.")
    var model: String

    @Option(name: .shortAndLong, help: "Where to write the SQLite store.")
    var output: String

    @Flag(help: "No progress and no summary line.")
    var quiet = false

    @OptionGroup var progressOption: ProgressOption

    func run() throws {
      let formats = StoreFormatChoice.formats
      try StoreConversion.run(
        store, bundle: model, output: output, from: StoreFormats.named("json", among: formats),
        to: StoreFormats.named("sqlite", among: formats)!, among: formats, verb: "imported", command: "store import",
        quiet: quiet, progress: progressOption.reporter(quiet: quiet))
    }
  }
}
