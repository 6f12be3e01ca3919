import ArgumentParser
import Foundation
import MapRuntime
import MapcKit
import MapSyntax
import MapTools

extension MapcCommand {
  struct Infer: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write the mapping Core Data's lightweight migration would infer between two models.",
      discussion: """
        Matches entities and properties by renaming identifier or name (never by guessing), \
        and writes the inferred mapping as a mapping XML file to start from and edit \
        (the rules of Core Data's lightweight migration). What cannot be inferred is reported at the model element at \
        fault, with the mapping to write instead. What the mapping drops (entities, attributes, \
        relationships) is said on standard error, one line per kind. Exit status: 0 written, 1 the change \
        cannot be inferred or a model cannot be read (nothing written), 64 usage error or an output that \
        would write over an input (nothing read or written).
        """)

    @Argument(help: "The source model (.xcdatamodeld bundle, .xcdatamodel folder or contents file).")
    var source: String

    @Argument(help: "The destination model.")
    var destination: String

    @Option(help: "Version of the SOURCE bundle (default: its current version).")
    var sourceVersion: String?

    @Option(help: "Version of the DESTINATION bundle (default: its current version).")
    var destinationVersion: String?

    @Option(name: .shortAndLong, help: "Where to write the mapping XML file.")
    var output: String

    func run() throws {
      var files = OutputTarget()
      files.reads(source, as: "model")
      files.reads(destination, as: "model")
      files.writes(output, option: "--output")
      try files.refuseClash()
      let result = InferredMappingFile.text(
        source: .init(path: source, version: sourceVersion),
        destination: .init(path: destination, version: destinationVersion),
        outputPath: output)
      try Console.writeGenerated(
        result.text, diagnostics: result.diagnostics, as: "mapping", to: output,
        with: { try AtomicFileWriter.replaceContents(of: $1, with: $0) })
      // What a store migrated with this mapping loses, besides the comment in the file.
      for line in result.drops.lines { Console.note(line) }
    }
  }
}
