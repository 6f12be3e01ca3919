import Foundation
import MapModelReader
import MapRuntime
import MapSwiftSchema
import MapSyntax
import MapTools

/// Where a model is read from: an Xcode model (`.xcdatamodeld` bundle, `.xcdatamodel` folder,
/// `contents` file), or a SwiftData schema in Swift source (`.swift` files, folders of them, an
/// `.xcodeproj`; Specs/swiftdata-schema.md), several Swift paths being read together.
public struct ModelSource: Sendable {
  /// What reading a SwiftData schema says besides its errors, for the caller to show.
  public enum Message: Sendable {
    /// Notes (which classes were read), rendered one line each (`PLACE: note: MESSAGE`).
    case notes(String)
    /// Warnings about the schema.
    case warnings([Diagnostic])
  }

  /// Receives the messages of reading a schema.
  public typealias Messages = @Sendable (Message) -> Void

  /// The paths: one, or several Swift paths read together.
  public var paths: [String]
  /// For Swift source: the Swift files to leave out (globs).
  public var excludes: [String]
  /// For an Xcode project: the target whose Swift files are read.
  public var xcodeTarget: String?
  /// For Swift source: the `#if` conditions that hold.
  public var conditions: SwiftBuildConditions

  /// The model at `paths`.
  public init(
    _ paths: [String], excludes: [String] = [], xcodeTarget: String? = nil,
    conditions: SwiftBuildConditions = SwiftBuildConditions()
  ) {
    self.paths = paths
    self.excludes = excludes
    self.xcodeTarget = xcodeTarget
    self.conditions = conditions
  }

  /// How messages name it: the path, or the paths joined.
  public var display: String { paths.joined(separator: ", ") }

  /// The selection of Swift files these paths and settings make.
  public var selection: SwiftSourceSelection {
    SwiftSourceSelection(paths: paths, excludes: excludes, xcodeTarget: xcodeTarget, conditions: conditions)
  }

  /// Whether `path` names Swift source: a `.swift` file, an Xcode project, or a folder that is
  /// no Xcode model and holds `.swift` files.
  public static func isSwiftSource(_ path: String) -> Bool {
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

  /// Every version of the model in chain order (a bundle's, or a Swift schema's), `order`
  /// naming them when given.
  public func versions(order: [String]? = nil, messages: Messages = { _ in }) throws(DiagnosticsError)
    -> ModelVersions
  {
    let path = display
    guard paths.count > 1 || Self.isSwiftSource(path) else {
      return try ModelVersions.load(bundle: path, order: order)
    }
    let schema = try swiftSchema(name: Self.defaultName(paths[0]), messages: messages)
    var versions = try schema.versions.map { v throws(DiagnosticsError) in
      ModelVersion(name: v.name, model: try Self.checked(v, path: path))
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
  public func load(version: String?, messages: Messages = { _ in }) throws(DiagnosticsError) -> LoadedModel {
    let path = display
    guard paths.count > 1 || Self.isSwiftSource(path) else {
      return try ModelLoader.load(path: path, version: version)
    }
    let schema = try swiftSchema(name: Self.defaultName(paths[0]), messages: messages)
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
    return LoadedModel(model: try Self.checked(chosen, path: path), warnings: [], contentsPath: path)
  }

  /// The version name of a schema without `VersionedSchema`: the file's, folder's or Xcode
  /// project's name.
  public static func defaultName(_ path: String) -> String {
    let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
    let base = (trimmed as NSString).lastPathComponent
    for suffix in [".swift", ".xcodeproj"] where base.hasSuffix(suffix) { return String(base.dropLast(suffix.count)) }
    return base
  }

  /// Reads the Swift schema; its notes and warnings go to `messages`, its errors are thrown as
  /// diagnostics (after the notes, which tell which classes were read).
  public func swiftSchema(name: String, messages: Messages = { _ in }) throws(DiagnosticsError) -> SwiftSchema {
    let schema: SwiftSchema
    do {
      schema = try SwiftSchema.read(selection, name: name)
    } catch {
      Self.notes(error.notes, to: messages)
      throw DiagnosticsError(error.diagnostics)
    }
    Self.notes(schema.warnings, to: messages)
    let warnings = schema.warnings.filter { $0.severity != .note }
    if !warnings.isEmpty { messages(.warnings(warnings)) }
    return schema
  }

  /// The notes among `diagnostics`, one line each (`PLACE: note: MESSAGE`, no id).
  static func notes(_ diagnostics: [Diagnostic], to messages: Messages) {
    let notes = diagnostics.filter { $0.severity == .note }.map { n in
      DiagnosticLine.render(.note, n.message, id: nil, place: DiagnosticLine.place(n.location, file: n.file))
    }
    if !notes.isEmpty { messages(.notes(notes.joined(separator: "\n"))) }
  }

  /// The model of a version exactly as `mapc model` writes it: written as an Xcode model and
  /// read back, so that every command sees (and checks) the same model as a written bundle.
  public static func checked(_ version: SwiftSchemaVersion, path: String) throws(DiagnosticsError) -> ObjectModel {
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
}
