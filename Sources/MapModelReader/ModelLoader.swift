import Foundation
import MapRuntime
import MapSyntax

/// A model read from disk, with the warnings found while reading it.
public struct LoadedModel: Sendable {
  public var model: ObjectModel
  /// Findings that do not stop loading (for example `model-missing-inverse`).
  public var warnings: [Diagnostic]
  /// The `contents` file that was read.
  public var contentsPath: String

  public init(model: ObjectModel, warnings: [Diagnostic], contentsPath: String) {
    self.model = model
    self.warnings = warnings
    self.contentsPath = contentsPath
  }
}

/// Reads an Xcode data model: a `.xcdatamodeld` bundle, a `.xcdatamodel` folder, or a
/// `contents` file (see `Specs/model-input.md`).
public enum ModelLoader {
  /// Loads the model at `path`. For a bundle, `version` picks a version by name (`Model 2` or
  /// `Model 2.xcdatamodel`); without it the bundle's current version is used. For a folder or
  /// a `contents` file, `version` must match the folder's name when given.
  ///
  /// Throws every error found (with any warnings); returns the warnings otherwise.
  public static func load(path: String, version: String? = nil) throws(DiagnosticsError)
    -> LoadedModel
  {
    let resolved = try resolve(path: path, version: version)
    let document = try XMLReader.parse(contentsOf: resolved.contentsPath)
    return try load(document: document, versionName: resolved.versionName)
  }

  /// Builds a model from an already parsed `contents` document.
  public static func load(document: XML.Document, versionName: String?) throws(DiagnosticsError)
    -> LoadedModel
  {
    var reader = ModelReader()
    let (model, sources) = reader.read(document, versionName: versionName)
    var diagnostics = reader.diagnostics
    if document.root.name == "model" {
      diagnostics += ModelChecker.check(model, sources, root: document.root)
    }
    diagnostics = diagnostics.sortedByLocation()
    if diagnostics.hasErrors { throw DiagnosticsError(diagnostics) }
    return LoadedModel(model: model, warnings: diagnostics, contentsPath: document.path)
  }

  /// Where a model's `contents` file is, and the version name it goes by.
  public struct Resolved: Sendable, Hashable {
    public var contentsPath: String
    public var versionName: String?
  }

  /// Finds the `contents` file `path` designates, choosing the version of a bundle.
  public static func resolve(path: String, version: String? = nil) throws(DiagnosticsError)
    -> Resolved
  {
    let fm = FileManager.default
    var path = path
    while path.count > 1, path.hasSuffix("/") { path.removeLast() }
    var isDirectory: ObjCBool = false
    guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw fail("model-path", "no such file or directory", path)
    }
    guard isDirectory.boolValue else {
      // A bare `contents` file; it goes by its folder's name when that is a version folder.
      let parent = PathText.folder(of: path)
      let name: String? =
        parent.hasSuffix(".xcdatamodel")
        ? ((parent as NSString).lastPathComponent as NSString).deletingPathExtension : nil
      try checkVersion(version, matches: name, path)
      return Resolved(contentsPath: path, versionName: name)
    }
    let children = (try? fm.contentsOfDirectory(atPath: path)) ?? []
    // By version name, each name cut once (a bundle's versions are resolved one by one, so a
    // comparator that cut names itself made loading a 90-version bundle quadratic in path work).
    let versions = children.filter { $0.hasSuffix(".xcdatamodel") }
      .map { (name: String($0.dropLast(".xcdatamodel".count)), folder: $0) }
      .sorted { $0.name < $1.name }.map(\.folder)
    if path.hasSuffix(".xcdatamodeld") || (!children.contains("contents") && !versions.isEmpty) {
      let folder = try chooseVersion(in: path, versions: versions, requested: version)
      return try resolveFolder(join(path, folder))
    }
    try checkVersion(version, matches: versionName(ofFolder: path), path)
    return try resolveFolder(path)
  }

  private static func versionName(ofFolder path: String) -> String {
    ((path as NSString).lastPathComponent as NSString).deletingPathExtension
  }

  private static func join(_ a: String, _ b: String) -> String {
    a == "/" ? "/" + b : a + "/" + b
  }

  private static func fail(_ id: String, _ message: String, _ file: String) -> DiagnosticsError {
    DiagnosticsError([.error(id, message, at: nil, file: file)])
  }

  private static func checkVersion(_ requested: String?, matches name: String?, _ path: String)
    throws(DiagnosticsError)
  {
    guard let requested else { return }
    let wanted = requested.hasSuffix(".xcdatamodel") ? String(requested.dropLast(12)) : requested
    if wanted != name {
      throw fail(
        "model-version-not-found",
        "version '\(requested)' was asked for, but this is not a .xcdatamodeld bundle"
          + (name.map { " (its version is '\($0)')" } ?? ""), path)
    }
  }

  /// A `.xcdatamodel` folder: its `contents`, or a clear refusal of the Xcode 3 format.
  private static func resolveFolder(_ folder: String) throws(DiagnosticsError) -> Resolved {
    let fm = FileManager.default
    let contents = join(folder, "contents")
    if fm.fileExists(atPath: contents) {
      return Resolved(contentsPath: contents, versionName: versionName(ofFolder: folder))
    }
    if fm.fileExists(atPath: join(folder, "elements")) {
      throw fail(
        "model-xcode3-format",
        "Xcode 3 model format is not supported (this folder has a binary 'elements' file and no "
          + "'contents'); open and save the model in Xcode 4 or later to convert it", folder)
    }
    throw fail(
      "model-path",
      "not a data model: expected a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file",
      folder)
  }

  /// The version folder of a bundle: the requested one, else `.xccurrentversion`'s, else the
  /// only one.
  private static func chooseVersion(in bundle: String, versions: [String], requested: String?)
    throws(DiagnosticsError) -> String
  {
    let available = versions.map { "'\(($0 as NSString).deletingPathExtension)'" }
      .joined(separator: ", ")
    if let requested {
      let folder = requested.hasSuffix(".xcdatamodel") ? requested : requested + ".xcdatamodel"
      guard versions.contains(folder) else {
        throw fail(
          "model-version-not-found",
          "the bundle has no version '\(requested)' (versions: \(available.isEmpty ? "none" : available))",
          bundle)
      }
      return folder
    }
    let currentVersionPath = join(bundle, ".xccurrentversion")
    guard FileManager.default.fileExists(atPath: currentVersionPath) else {
      if versions.count == 1 { return versions[0] }
      throw fail(
        "model-current-version",
        versions.isEmpty
          ? "the bundle contains no .xcdatamodel version"
          : "the bundle has no .xccurrentversion and \(versions.count) versions (\(available)); pick one with --version",
        bundle)
    }
    let plist = try XMLReader.parse(contentsOf: currentVersionPath)
    guard let (name, location) = currentVersionName(plist) else {
      throw DiagnosticsError([
        .error(
          "model-current-version", "no _XCCurrentVersionName string in the property list",
          at: plist.root.location)
      ])
    }
    let folder = name.hasSuffix(".xcdatamodel") ? name : name + ".xcdatamodel"
    guard versions.contains(folder) else {
      throw DiagnosticsError([
        .error(
          "model-current-version",
          "the current version '\(name)' is not in the bundle (versions: \(available.isEmpty ? "none" : available))",
          at: location)
      ])
    }
    return folder
  }

  /// The version a bundle's `.xccurrentversion` names (without `.xcdatamodel`), or nil when it
  /// has none, cannot be read or names none (a real bundle's may lack the key).
  public static func namedCurrentVersion(in bundle: String) -> String? {
    let path = join(bundle, ".xccurrentversion")
    guard FileManager.default.fileExists(atPath: path), let plist = try? XMLReader.parse(contentsOf: path),
      let (name, _) = currentVersionName(plist)
    else { return nil }
    return name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
  }

  /// `_XCCurrentVersionName` from `<plist><dict><key>…</key><string>…</string></dict></plist>`.
  private static func currentVersionName(_ plist: XML.Document) -> (String, SourceLocation)? {
    guard plist.root.name == "plist", let dict = plist.root.firstElement(named: "dict") else {
      return nil
    }
    let items = dict.elements
    for (i, item) in items.enumerated()
    where item.name == "key" && item.text.trimmingXMLSpace == "_XCCurrentVersionName" {
      guard i + 1 < items.count, items[i + 1].name == "string" else { return nil }
      let value = items[i + 1]
      return (value.text.trimmingXMLSpace, value.textNodes.first?.location ?? value.location)
    }
    return nil
  }
}
