import ArgumentParser
import Foundation
import MapCompiler
import MapRuntime

extension MapcCommand {
  struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Convert an Xcode .xcmappingmodel into a mapping XML file.",
      discussion: """
        Writes the mapping in mapc's text format, minimal (what Xcode and mapc infer is left \
        implicit), referring to the model files the mapping belongs to when they are found \
        (else to the .xcmappingmodel's embedded snapshots). Compiling the result gives the same \
        plan as compiling the .xcmappingmodel (compare with compile --no-source-positions). \
        Exit status: 0 written, 1 errors in the input (nothing written), 64 usage error or an output that \
        would write over an input (nothing read or written).
        """)

    @Argument(help: "The Xcode mapping model (X.xcmappingmodel or its xcmapping.xml).")
    var mapping: String

    @OptionGroup var models: ModelOptions

    @Option(name: .shortAndLong, help: "Where to write the mapping XML file.")
    var output: String

    func run() throws {
      var files = models.files(reading: mapping, as: "mapping model")
      files.writes(output, option: "--output")
      try files.refuseClash()
      let result = XcodeImport.text(
        xcmappingPath: mapping, outputPath: output, source: models.sourceOverride,
        destination: models.destinationOverride)
      files.reads(result.models, as: "model")
      if result.text != nil { try files.refuseClash() }
      try Console.writeGenerated(
        result.text, diagnostics: result.diagnostics, as: "mapping", to: output,
        with: { try AtomicFileWriter.replaceContents(of: $1, with: $0) })
    }
  }
}
