import ArgumentParser
import Foundation
import MapCompiler
import MapRuntime
import MapcKit

extension MapcCommand {
  struct Compile: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Check a mapping (XML file or Xcode .xcmappingmodel) against its models and write a binary plan (.cdm).",
      discussion: """
        Reads the mapping (format version 1; `mapc infer` writes one to start from), loads the source and \
        destination models it names (or --source/--destination), checks every entity mapping \
        and expression, and writes the plan. Every problem is reported as \
        path:line:column: error: message [rule-id]. Exit status: 0 plan written (warnings may \
        be printed), 1 errors in the input (nothing written), 64 usage error or an output that \
        would write over an input (nothing read or written).
        """)

    @Argument(help: "The mapping XML file.")
    var mapping: String

    @OptionGroup var models: ModelOptions

    @Option(name: .shortAndLong, help: "Where to write the plan.")
    var output: String

    @Flag(
      help:
        "Leave file names, lines, columns and expression texts out of the plan, so that two mappings saying the same thing in different files (an .xcmappingmodel and its mapc import) give the same bytes."
    )
    var noSourcePositions = false

    @Flag(help: "No summary line on success.")
    var quiet = false

    func run() throws {
      var files = models.files(reading: mapping, as: "mapping")
      files.writes(output, option: "--output")
      try files.refuseClash()
      let result = MappingCompilation.compile(
        mappingPath: mapping, source: models.sourceOverride, destination: models.destinationOverride)
      Console.report(result.diagnostics)
      guard let plan = result.plan else { throw ExitCode(.inputErrors) }
      files.reads(
        result.modelPaths(mapping: mapping, source: models.sourceOverride, destination: models.destinationOverride),
        as: "model")
      try files.refuseClash()
      do {
        // Paths in the plan are relative to the plan's own folder: the same plan from any
        // working directory, and `mapc run`/`dump` resolve them against where the plan is.
        let bytes = PlanWriter.encode(
          plan, sourcePositions: !noSourcePositions, relativeTo: PlanReader.folder(of: output))
        try AtomicFileWriter.replaceContents(of: output, with: bytes)
        if !quiet {
          let warnings = result.diagnostics.filter { $0.severity == .warning }.count
          let count = plan.entityMappings.count
          Console.say(
            "mapc: compiled \(plan.name): \(count) entity mapping\(count == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"); wrote \(output) (\(bytes.count) bytes)"
          )
        }
      } catch {
        throw Console.writeFailure("plan", path: output, error: error)
      }
    }
  }
}

/// `--source MODEL [--source-version NAME] --destination MODEL [--destination-version NAME]`.
struct ModelOptions: ParsableArguments {
  @Option(help: "Source model to use instead of the one the mapping names.")
  var source: String?

  @Option(help: "Version of the --source bundle (default: its current version).")
  var sourceVersion: String?

  @Option(help: "Destination model to use instead of the one the mapping names.")
  var destination: String?

  @Option(help: "Version of the --destination bundle (default: its current version).")
  var destinationVersion: String?

  var sourceOverride: MappingCompilation.ModelOverride? {
    source.map { MappingCompilation.ModelOverride(path: $0, version: sourceVersion) }
  }

  var destinationOverride: MappingCompilation.ModelOverride? {
    destination.map { MappingCompilation.ModelOverride(path: $0, version: destinationVersion) }
  }

  /// What a command with these options reads: `mapping` (as `role`) and the models given.
  func files(reading mapping: String, as role: String) -> OutputTarget {
    var files = OutputTarget()
    files.reads(mapping, as: role)
    files.reads(source, as: "model")
    files.reads(destination, as: "model")
    return files
  }
}
