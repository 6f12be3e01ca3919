import ArgumentParser
import Foundation
import MapRuntime
import MapcKit

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

    @Option(
      help:
        "The model bundle (.xcdatamodeld) or SwiftData schema (.swift, a folder, an .xcodeproj) the store is a version of. Repeated, the Swift files of all its paths are read together."
    )
    var model: [String]

    @OptionGroup var swiftSources: SwiftSourceOptions

    func validate() throws {
      guard !model.isEmpty else { throw ValidationError("give the model with --model") }
      try ModelArgument(model, swift: swiftSources).validate(option: "--model")
    }

    @Option(name: .shortAndLong, help: "Where to write the SQLite store.")
    var output: String

    @Flag(help: "No progress and no summary line.")
    var quiet = false

    @OptionGroup var progressOption: ProgressOption

    @OptionGroup var memoryLimitOption: MemoryLimitOption

    func run() throws {
      memoryLimitOption.apply()
      let formats = StoreFormatChoice.formats
      try StoreConversion.run(
        store, model: ModelArgument(model, swift: swiftSources), output: output,
        from: StoreFormats.named("json", among: formats),
        to: StoreFormats.named("sqlite", among: formats)!, among: formats, verb: "imported", command: "store import",
        quiet: quiet, progress: progressOption.reporter(quiet: quiet))
    }
  }
}
