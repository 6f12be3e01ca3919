import Foundation
import MapCompiler
import MapRuntime
import MapSwiftSchema

/// The one place the commands read a model given as `--model` (or as a model argument): an
/// Xcode model (`.xcdatamodeld` bundle, `.xcdatamodel` folder, `contents` file) or a SwiftData
/// schema in Swift source (`.swift` files, or a folder of them; Specs/swiftdata-schema.md).
enum ModelInput {
  /// Whether `path` names Swift source: a `.swift` file, or a folder that is no Xcode model and
  /// holds `.swift` files.
  static func isSwiftSource(_ path: String) -> Bool {
    let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
    if trimmed.hasSuffix(".swift") || SwiftSourceSelection.isXcodeProject(trimmed) { return true }
    if [".xcdatamodeld", ".xcdatamodel", ".momd", ".mom"].contains(where: { trimmed.hasSuffix($0) }) { return false }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: trimmed, isDirectory: &isFolder), isFolder.boolValue else {
      return false
    }
    let children = (try? FileManager.default.contentsOfDirectory(atPath: trimmed)) ?? []
    if children.contains(where: { $0.hasSuffix(".xcdatamodel") || $0 == "contents" }) { return false }
    return !((try? SwiftSchema.files([trimmed])) ?? []).isEmpty
  }

  /// Every version of the model at `path` in chain order (a bundle's, or a Swift schema's).
  static func versions(_ path: String, order: [String]? = nil) throws(DiagnosticsError) -> ModelVersions {
    try versions(ModelArgument([path]), order: order)
  }

  /// Every version of the model `model` names (one path, or several Swift paths read together).
  static func versions(_ model: ModelArgument, order: [String]? = nil) throws(DiagnosticsError) -> ModelVersions {
    let path = model.display
    guard model.paths.count > 1 || isSwiftSource(path) else {
      return try ModelVersions.load(bundle: path, order: order)
    }
    let schema = try swiftSchema(model, name: defaultName(model.paths[0]))
    var versions = try schema.versions.map { v throws(DiagnosticsError) in
      ModelVersion(name: v.name, model: try checked(v, path: path))
    }
    if let order {
      let names = versions.map(\.name)
      guard Set(order) == Set(names), order.count == names.count else {
        throw DiagnosticsError([
          .error(
            "model-version-order",
            "--version-order must list every version of the schema once (\(names.map { "'\($0)'" }.joined(separator: ", ")))",
            at: nil, file: path)
        ])
      }
      versions = order.compactMap { n in versions.first { $0.name == n } }
    }
    return ModelVersions(bundlePath: path, chain: versions)
  }

  /// One model: a version of a bundle (its current one by default), an `.xcdatamodel`, or a
  /// version of a Swift schema (its current one by default).
  static func load(_ path: String, version: String?) throws(DiagnosticsError) -> LoadedModel {
    try load(ModelArgument([path]), version: version)
  }

  /// One model of `model` (one path, or several Swift paths read together).
  static func load(_ model: ModelArgument, version: String?) throws(DiagnosticsError) -> LoadedModel {
    let path = model.display
    guard model.paths.count > 1 || isSwiftSource(path) else {
      return try ModelLoader.load(path: path, version: version)
    }
    let schema = try swiftSchema(model, name: defaultName(model.paths[0]))
    let chosen: SwiftSchemaVersion
    if let version {
      guard let found = schema.versions.first(where: { $0.name == version }) else {
        throw DiagnosticsError([
          .error(
            "model-version-not-found",
            "the schema has no version '\(version)' (versions: \(schema.versions.map { "'\($0.name)'" }.joined(separator: ", ")))",
            at: nil, file: path)
        ])
      }
      chosen = found
    } else {
      chosen = schema.versions[schema.versions.count - 1]
    }
    return LoadedModel(model: try checked(chosen, path: path), warnings: [], contentsPath: path)
  }

  /// The version name of a schema without `VersionedSchema`: the file's, folder's or Xcode
  /// project's name.
  static func defaultName(_ path: String) -> String {
    let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
    let base = (trimmed as NSString).lastPathComponent
    for suffix in [".swift", ".xcodeproj"] where base.hasSuffix(suffix) { return String(base.dropLast(suffix.count)) }
    return base
  }

  /// Reads a Swift schema; its warnings and notes are printed, its errors thrown as
  /// diagnostics (after the notes, which tell which classes were read).
  static func swiftSchema(_ model: ModelArgument, name: String) throws(DiagnosticsError) -> SwiftSchema {
    let schema: SwiftSchema
    do {
      schema = try SwiftSchema.read(model.selection(), name: name)
    } catch {
      sayNotes(error.notes)
      throw DiagnosticsError(error.diagnostics.map(diagnostic))
    }
    sayNotes(schema.warnings)
    Console.report(schema.warnings.filter { $0.severity != .note }.map(diagnostic))
    return schema
  }

  /// The notes among `diagnostics`, one line each (`PLACE: note: MESSAGE`, no id).
  static func sayNotes(_ diagnostics: [SwiftSchemaDiagnostic]) {
    let notes = diagnostics.filter { $0.severity == .note }.map { n in
      DiagnosticLine.render(.note, n.message, id: nil, place: DiagnosticLine.place(n.location, file: n.file))
    }
    if !notes.isEmpty { Console.sayRendered(notes.joined(separator: "\n")) }
  }

  /// The model of a version exactly as `mapc model` writes it: written as an Xcode model and
  /// read back, so that every command sees (and checks) the same model as a written bundle.
  static func checked(_ version: SwiftSchemaVersion, path: String) throws(DiagnosticsError) -> ObjectModel {
    let text = ModelXMLWriter.contents(version.model)
    if let why = ModelXMLWriter.unwritable(text) {
      throw DiagnosticsError([.error("model-unwritable", "version \(version.name): \(why)", at: nil, file: path)])
    }
    let document = try XMLReader.parse(
      bytes: Array(text.utf8), path: "\(path) (version \(version.name) as mapc model writes it)")
    var model = try ModelLoader.load(document: document, versionName: version.name).model
    model.path = path
    return model
  }

  static func diagnostic(_ d: SwiftSchemaDiagnostic) -> Diagnostic {
    switch d.severity {
    case .error: .error(d.id, d.message, at: d.location, file: d.file)
    case .warning, .note: .warning(d.id, d.message, at: d.location, file: d.file)
    }
  }
}
