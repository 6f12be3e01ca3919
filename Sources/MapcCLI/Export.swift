import ArgumentParser
import Foundation
import MapCompiler
import MapRuntime
import MapSyntax

extension MapcCommand {
  struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a mapping as an Xcode .xcmappingmodel (for Xcode to compile into the app).",
      discussion: """
        Compiles the mapping (XML file or .xcmappingmodel) and writes OUT.xcmappingmodel/xcmapping.xml \
        as Xcode writes it: the XML-store envelope, one object per entity mapping and \
        destination property, both models as embedded snapshots, value expressions as \
        NSKeyedArchiver archives. <forEach> and source expressions other than the default \
        fetch have no counterpart in Xcode's format and are errors. \
        A call of mapc's own $entityPolicy functions (dateFromString:format:, defaultValue:for:, \
        trim: and the rest of that library) would stop the migration on the device \
        with "unrecognized selector": export refuses it, naming each call, unless \
        --policy-source FILE.swift is given; then it writes there, for the app target, an \
        NSEntityMigrationPolicy subclass that implements them, and names it in each entity \
        mapping that calls them (a mapping with a policy of its own gets a subclass of that \
        policy). Exit status: 0 written, 1 errors in the input (nothing written), 64 usage error \
        or an output that would write over an input (nothing read or written). \
        --stages BUNDLE writes instead, to a .swift file, the NSStagedMigrationManager of the \
        bundle's history: lightweight stages for runs of inferable steps, a custom stage with \
        handler stubs for each step named with --custom, each version by its checksum; a step \
        a mapping model covers or that cannot be inferred is refused by name (a staged \
        migration never runs mapping models).
        """)

    @Argument(help: "The mapping XML file (or an .xcmappingmodel); not with --stages.")
    var mapping: String?

    @OptionGroup var models: ModelOptions

    @Option(name: .shortAndLong, help: "The .xcmappingmodel folder to write (with --stages: the .swift file).")
    var output: String

    @OptionGroup var staged: StagesOptions

    @Option(
      name: .customLong("policy-source"),
      help: ArgumentHelp(
        "Write the Swift policy classes that implement mapc's functions on the device to this file.",
        valueName: "file.swift"))
    var policySource: String?

    func validate() throws {
      if staged.isSet {
        guard mapping == nil else { throw ValidationError("give either a mapping or --stages BUNDLE, not both") }
        if models.source != nil || models.destination != nil || policySource != nil {
          throw ValidationError("--source, --destination and --policy-source go with a mapping, not with --stages")
        }
        guard output.hasSuffix(".swift") else {
          throw ValidationError("with --stages, --output must name a .swift file")
        }
        return
      }
      guard mapping != nil else { throw ValidationError("give the mapping to export, or --stages BUNDLE") }
      if let option = staged.usedWithoutStages { throw ValidationError("\(option) goes with --stages") }
      guard output.hasSuffix(".xcmappingmodel") || output.hasSuffix(".xcmappingmodel/") else {
        throw ValidationError("--output must name a .xcmappingmodel folder")
      }
      if let policySource, !policySource.hasSuffix(".swift") {
        throw ValidationError("--policy-source must name a .swift file")
      }
    }

    func run() throws {
      if staged.isSet { return try staged.run(output: output) }
      guard let mapping else { return }
      var files = models.files(reading: mapping, as: "mapping")
      files.writes(output, option: "--output", kind: .folder)
      files.writes(policySource, option: "--policy-source")
      try files.refuseClash()
      let result = XcodeExport.text(
        mappingPath: mapping, outputPath: output, source: models.sourceOverride,
        destination: models.destinationOverride,
        policySource: policySource != nil)
      files.reads(result.models, as: "model")
      // Known once the mapping compiled, even when exporting it then failed (a call a device
      // lacks): an output over an input is refused first (exit 64).
      if result.text != nil || !result.models.isEmpty { try files.refuseClash() }
      // The policy classes first: a mapping model naming classes that were not written would
      // fail on the device.
      if let policySource, let swift = result.policySource, result.text != nil {
        do {
          try AtomicFileWriter.replaceContents(of: policySource, with: swift)
        } catch {
          Console.report(result.diagnostics)
          throw Console.writeFailure("policy classes", path: policySource, error: error)
        }
      }
      try Console.writeGenerated(
        result.text, diagnostics: result.diagnostics, as: "mapping model", to: output,
        with: XcodeExport.write(_:toWrapper:))
    }
  }
}
