import ArgumentParser
import Foundation
import MapCompiler
import MapRuntime

extension MapcCommand {
  struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a mapping as an Xcode .xcmappingmodel (for Xcode to compile into the app).",
      discussion: """
        Compiles the mapping (XML file or .xcmappingmodel) and writes OUT.xcmappingmodel/xcmapping.xml \
        as Xcode writes it: the XML-store envelope, one object per entity mapping and \
        destination property, both models as embedded snapshots, value expressions as \
        NSKeyedArchiver archives. <forEach> and source expressions other than the default \
        fetch have no counterpart in Xcode's format and are errors. Exit status: 0 written, \
        1 errors in the input (nothing written), 64 usage error or an output that \
        would write over an input (nothing read or written).
        """)

    @Argument(help: "The mapping XML file (or an .xcmappingmodel).")
    var mapping: String

    @OptionGroup var models: ModelOptions

    @Option(name: .shortAndLong, help: "The .xcmappingmodel folder to write.")
    var output: String

    func validate() throws {
      guard output.hasSuffix(".xcmappingmodel") || output.hasSuffix(".xcmappingmodel/") else {
        throw ValidationError("--output must name a .xcmappingmodel folder")
      }
    }

    func run() throws {
      var files = models.files(reading: mapping, as: "mapping")
      files.writes(output, option: "--output", kind: .folder)
      try files.refuseClash()
      let result = XcodeExport.text(
        mappingPath: mapping, outputPath: output, source: models.sourceOverride, destination: models.destinationOverride
      )
      files.reads(result.models, as: "model")
      if result.text != nil { try files.refuseClash() }
      try Console.writeGenerated(
        result.text, diagnostics: result.diagnostics, as: "mapping model", to: output,
        with: XcodeExport.write(_:toWrapper:))
    }
  }
}
