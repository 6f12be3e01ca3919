import ArgumentParser
import Foundation
import MapRuntime
import MapcKit
import MapTools

/// `mapc export --stages BUNDLE -o Stages.swift`: the options, and the run (Specs/staged-migration.md).
struct StagesOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Write the NSStagedMigrationManager stages of this model bundle's history (Swift) instead of a mapping model.",
      valueName: "bundle.xcdatamodeld"))
  var stages: String?

  @Option(help: "With --stages: a folder of mappings; a step one covers is refused (stages run no mapping model).")
  var mappings: String?

  @Option(
    help: ArgumentHelp(
      "With --stages: the step into this version needs code: a custom stage with handler stubs (repeatable).",
      valueName: "version"))
  var custom: [String] = []

  @Option(help: "With --stages: the last version (default: the bundle's current version).")
  var to: String?

  @Option(help: "With --stages: the name of the generated enum (default: the bundle's name and Stages).")
  var typeName: String?

  var isSet: Bool { stages != nil }

  var usedWithoutStages: String? {
    if mappings != nil { return "--mappings" }
    if !custom.isEmpty { return "--custom" }
    if to != nil { return "--to" }
    if typeName != nil { return "--type-name" }
    return nil
  }

  /// The enum's name: `--type-name`, else the bundle's name as an identifier, then `Stages`.
  func enumName(_ bundle: String) throws -> String {
    if let typeName {
      guard Self.isIdentifier(typeName) else {
        throw ValidationError(
          "--type-name must be a Swift type name (letters, digits and _, not starting with a digit)")
      }
      return typeName
    }
    let base = (bundle as NSString).lastPathComponent.replacingOccurrences(of: ".xcdatamodeld", with: "")
    var name = String(
      base.unicodeScalars.filter { $0.isASCII && ($0 == "_" || CharacterSet.alphanumerics.contains($0)) })
    if name.isEmpty || name.first!.isNumber { name = "Model" + name }
    return name + "Stages"
  }

  static func isIdentifier(_ s: String) -> Bool {
    guard let first = s.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
    return s.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || CharacterSet.alphanumerics.contains($0)) }
  }

  func run(output: String) throws {
    guard let bundle = stages else { return }
    guard output.hasSuffix(".swift") else { throw ValidationError("with --stages, --output must name a .swift file") }
    let typeName = try enumName(bundle)
    var files = OutputTarget()
    files.reads(bundle, as: "model")
    files.reads(mappings, as: "mappings")
    files.writes(output, option: "--output")
    try files.refuseClash()
    let (staged, diagnostics) = StagedMigration.plan(
      bundle: bundle, mappingPaths: mappings.map { [$0] } ?? [], custom: custom, target: to)
    try Console.writeGenerated(
      staged.map { StagesSwiftWriter.source($0, typeName: typeName) }, diagnostics: diagnostics,
      as: "stages", to: output
    ) { text, path in try AtomicFileWriter.replaceContents(of: path, with: text) }
    if let staged {
      let custom = staged.stages.filter { if case .custom = $0 { true } else { false } }.count
      Console.say(
        "mapc: wrote \(staged.stages.count) stage\(staged.stages.count == 1 ? "" : "s") (\(staged.stages.count - custom) lightweight, \(custom) custom) for \(staged.target - staged.first + 1) versions to \(output)"
      )
    }
  }
}
