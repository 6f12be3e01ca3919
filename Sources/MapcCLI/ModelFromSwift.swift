import ArgumentParser
import Foundation
import MapModelReader
import MapRuntime
import MapSwiftSchema
import MapcKit
import MapTools

extension MapcCommand {
  struct ModelFromSwift: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "model",
      abstract: "Write the Core Data model of a SwiftData schema in Swift source as an Xcode model.",
      discussion: """
        Reads the @Model classes of the given Swift files (or folders of them) and maps them \
        to Core Data as SwiftData does: each VersionedSchema enum is one \
        model version, named after the enum, its versionIdentifier the version identifier, in \
        the order of a SchemaMigrationPlan's schemas (else of their identifiers); without \
        VersionedSchema the classes the model container's declaration reaches \
        (ModelContainer(for:), .modelContainer(for:), Schema([...]), with the classes their \
        relationships lead to; every @Model class when no declaration names a type) form one \
        version ("1.0.0", as SwiftData writes it), named after the output; other @Model \
        classes are left out, each named in a note. #if is evaluated as for an Apple platform \
        with SwiftData (change it with --define and --undefine); --exclude and --xcode-target \
        choose the files. Writes OUT.xcdatamodeld (one folder per version, the last one \
        current, and the order in .mapc-version-order) or, for one version, OUT.xcdatamodel. \
        The same Swift paths are accepted as --model wherever a command takes a model. \
        Exit status: 0 written, 1 the Swift source cannot be read as a schema (swift-* \
        diagnostics at file:line:column) or the model cannot be written, 64 usage error.
        """)

    @Argument(
      help:
        "The Swift files, folders of them, or Xcode projects (.xcodeproj, with --xcode-target) that declare the schema; their files are read together."
    )
    var sources: [String]

    @Option(name: .shortAndLong, help: "The .xcdatamodeld (or, for one version, .xcdatamodel) folder to write.")
    var output: String

    @OptionGroup var swiftSources: SwiftSourceOptions

    func validate() throws {
      guard !sources.isEmpty else { throw ValidationError("give at least one Swift file or folder") }
      guard StoreModel.folderName(output) != nil else {
        throw ValidationError("--output must name a .xcdatamodel or .xcdatamodeld folder")
      }
      if swiftSources.xcodeTarget != nil && !sources.contains(where: SwiftSourceSelection.isXcodeProject) {
        throw ValidationError("--xcode-target needs an Xcode project (.xcodeproj) among the sources")
      }
    }

    func run() throws {
      var files = OutputTarget()
      files.reads(sources, as: "Swift source")
      files.writes(output, option: "--output", kind: .folder)
      try files.refuseClash()
      let (target, name, bundle) = StoreModel.folderName(output)!
      let schema: SwiftSchema
      var models: [(String, ObjectModel)] = []
      do {
        schema = try ModelInput.swiftSchema(ModelArgument(sources, swift: swiftSources), name: name)
        for v in schema.versions {
          models.append((v.name, try ModelInput.checked(v, path: sources[0])))
        }
      } catch {
        throw Console.failure(error)
      }
      guard bundle || models.count == 1 else {
        Console.error(
          "the schema has \(models.count) versions (\(models.map { "'\($0.0)'" }.joined(separator: ", "))): write them to a .xcdatamodeld bundle",
          id: "usage-model-output", place: output)
        throw ExitCode(.usage)
      }
      do {
        for (version, model) in models {
          let folder = bundle ? "\(target)/\(version).xcdatamodel" : target
          try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
          try AtomicFileWriter.replaceContents(of: folder + "/contents", with: ModelXMLWriter.contents(model))
        }
        if bundle {
          try AtomicFileWriter.replaceContents(
            of: target + "/.xccurrentversion", with: StoreModel.currentVersion(models[models.count - 1].0))
          if models.count > 1 {
            try AtomicFileWriter.replaceContents(
              of: target + "/" + ModelVersions.orderFileName, with: models.map { $0.0 + "\n" }.joined())
          }
        }
      } catch {
        throw Console.writeFailure("model", path: output, error: error)
      }
      let entities = models.map { "\($0.0): \($0.1.entities.count) entit\($0.1.entities.count == 1 ? "y" : "ies")" }
        .joined(separator: ", ")
      Console.say(
        "mapc: wrote \(models.count) model version\(models.count == 1 ? "" : "s") (\(entities); order: \(schema.order)) to \(output)"
      )
    }
  }
}
