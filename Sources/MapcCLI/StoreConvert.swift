import ArgumentParser
import Foundation
import MapRuntime
import MapcKit

extension MapcCommand {
  struct StoreConvert: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "convert",
      abstract: "Convert a store from one store format to another.",
      discussion: """
        Finds the version of the model bundle whose entity version hashes the store records \
        (its format found from its content), reads every object of the store with that \
        version's model, and writes it in the format --to names (default: the one OUTPUT's \
        extension names, .json or .sqlite), replacing OUTPUT (and an SQLite store's -wal and \
        -shm) atomically. The store UUID and the metadata keys the store carries are kept; \
        an SQLite store converted to SQLite also keeps each row's Z_OPT and Core Data's \
        persistent-history and CloudKit tables. Without --model, the model an SQLite store \
        carries (Z_MODELCACHE) is used, and a note says so. \
        export is convert --to json of an SQLite store, import convert --to sqlite of a JSON \
        store. Exit status: 0 written, 1 the \
        model cannot be read, 2 the store cannot be read, matches no version or cannot be \
        written (nothing written), 64 usage error or an output that would write over an input \
        (nothing read or written).
        """)

    @Argument(help: "The store: any format mapc reads.")
    var store: String

    @Option(
      help:
        "The model bundle (.xcdatamodeld) or SwiftData schema (.swift, a folder, an .xcodeproj) the store is a version of (default: the model an SQLite store carries). Repeated, the Swift files of all its paths are read together."
    )
    var model: [String] = []

    @OptionGroup var swiftSources: SwiftSourceOptions

    @Option(name: .shortAndLong, help: "Where to write the converted store.")
    var output: String

    @Option(help: ArgumentHelp("The format to write: \(StoreFormatChoice.names) (default: OUTPUT's extension)."))
    var to: String?

    @Flag(help: "Write a JSON store without whitespace.")
    var compact = false

    @Flag(help: "No progress and no summary line.")
    var quiet = false

    @OptionGroup var progressOption: ProgressOption

    @OptionGroup var memoryLimitOption: MemoryLimitOption

    func validate() throws {
      try ModelArgument(model, swift: swiftSources).validate(option: "--model")
      let formats = StoreFormatChoice.formats
      if let to, StoreFormats.named(to, among: formats) == nil {
        throw ValidationError("unknown store format '\(to)' for --to (formats: \(StoreFormatChoice.names))")
      }
      if StoreConverter.destination(named: to, output: output, among: formats) == nil {
        throw ValidationError(
          "give --to \(formats.map(\.name).joined(separator: "|")): the extension of \(output) names no store format")
      }
    }

    func run() throws {
      memoryLimitOption.apply()
      let formats = StoreFormatChoice.formats(compact: compact)
      try StoreConversion.run(
        store, model: model.isEmpty ? nil : ModelArgument(model, swift: swiftSources), output: output,
        to: StoreConverter.destination(named: to, output: output, among: formats)!, among: formats, verb: "converted",
        command: "store convert", quiet: quiet, progress: progressOption.reporter(quiet: quiet))
    }
  }
}
