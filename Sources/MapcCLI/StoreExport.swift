import ArgumentParser
import Foundation
import MapRuntime
import MapcKit

extension MapcCommand {
  struct StoreExport: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Convert a Core Data SQLite store to a JSON store (store convert --to json).",
      discussion: """
        store convert --to json of a store read as SQLite. Finds the version of the model \
        bundle whose entity version hashes the store holds, reads every object of the store with that version's model, and writes the JSON \
        store of mapc run (atomically). Without --model, the model the store carries \
        (Z_MODELCACHE) is used, and a note says so. The store is only read; its -wal is honoured. Exit \
        status: 0 written, 1 the model cannot be read, 2 the store cannot be read or matches \
        no version (nothing written), 64 usage error or an output that \
        would write over an input (nothing read or written).
        """)

    @Argument(help: "The Core Data SQLite store.")
    var store: String

    @Option(
      help:
        "The model bundle (.xcdatamodeld) or SwiftData schema (.swift, a folder, an .xcodeproj) that wrote the store (default: its own). Repeated, the Swift files of all its paths are read together."
    )
    var model: [String] = []

    @OptionGroup var swiftSources: SwiftSourceOptions

    func validate() throws {
      try ModelArgument(model, swift: swiftSources).validate(option: "--model")
    }

    @Option(name: .shortAndLong, help: "Where to write the JSON store.")
    var output: String

    @Flag(help: "Write the JSON store without whitespace.")
    var compact = false

    @Flag(help: "No progress and no summary line.")
    var quiet = false

    @OptionGroup var progressOption: ProgressOption

    @OptionGroup var memoryLimitOption: MemoryLimitOption

    func run() throws {
      memoryLimitOption.apply()
      let formats = StoreFormatChoice.formats(compact: compact)
      try StoreConversion.run(
        store, model: model.isEmpty ? nil : ModelArgument(model, swift: swiftSources), output: output,
        from: StoreFormats.named("sqlite", among: formats),
        to: StoreFormats.named("json", among: formats)!, among: formats, verb: "exported", command: "store export",
        quiet: quiet, progress: progressOption.reporter(quiet: quiet))
    }
  }
}
