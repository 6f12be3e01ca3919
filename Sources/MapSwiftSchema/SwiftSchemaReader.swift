import Foundation
import MapRuntime
import SwiftSyntax

/// One model version read from Swift source: a `VersionedSchema` enum, or every `@Model` class
/// of the files when they declare none.
public struct SwiftSchemaVersion: Sendable {
  /// The enum's name (`SchemaV2`), or the name the caller gave for a schema without versions.
  public var name: String
  /// `versionIdentifier` as Core Data records it (`"2.0.0"`); `"1.0.0"` without versions.
  public var identifier: String
  public var model: ObjectModel
}

/// A SwiftData schema read from Swift files (Specs/swiftdata-schema.md): its versions in chain
/// order, the last the current one.
public struct SwiftSchema: Sendable {
  public var versions: [SwiftSchemaVersion]
  /// Where the order of the versions comes from, for messages (`the migration plan
  /// MigrationPlan`, `their version identifiers`).
  public var order: String
  /// Findings that did not stop reading (a `@Model` class no version lists).
  public var warnings: [MapRuntime.Diagnostic]

  /// The identifier SwiftData writes for a schema without `VersionedSchema`.
  public static let unversionedIdentifier = "1.0.0"

  /// The `.swift` files `paths` designate: each file as given, each folder's `.swift` files
  /// (recursively, sorted by path; hidden files and folders, `.build/` among them, left out).
  public static func files(_ paths: [String]) throws(SwiftSchemaError) -> [String] {
    var result: [String] = []
    let fm = FileManager.default
    for path in paths {
      var isFolder: ObjCBool = false
      guard fm.fileExists(atPath: path, isDirectory: &isFolder) else {
        throw SwiftSchemaError([
          MapRuntime.Diagnostic(.error, id: "file-not-found", "no such file or folder", file: path)
        ])
      }
      guard isFolder.boolValue else {
        result.append(path)
        continue
      }
      let base = path.hasSuffix("/") ? String(path.dropLast()) : path
      let found = (fm.enumerator(atPath: base)?.allObjects as? [String] ?? [])
        .filter { $0.hasSuffix(".swift") && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
        .sorted()
      result += found.map { base + "/" + $0 }
    }
    return result
  }

  /// Reads the schema of the Swift files (or folders of them) at `paths`. `name` names the one
  /// version of a schema without `VersionedSchema`.
  public static func read(paths: [String], name: String) throws(SwiftSchemaError) -> SwiftSchema {
    try read(SwiftSourceSelection(paths: paths), name: name)
  }

  /// Reads the schema of the files `selection` chooses, as the build it describes.
  public static func read(_ selection: SwiftSourceSelection, name: String) throws(SwiftSchemaError) -> SwiftSchema {
    let (paths, notes) = try selection.files()
    var sources: [(String, String)] = []
    for path in paths {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw SwiftSchemaError([
          MapRuntime.Diagnostic(.error, id: "file-unreadable", "cannot read the file", file: path)
        ])
      }
      guard let text = String(data: data, encoding: .utf8) else {
        throw SwiftSchemaError([
          MapRuntime.Diagnostic(.error, id: "file-unreadable", "the file is not UTF-8 text", file: path)
        ])
      }
      sources.append((path, text))
    }
    if sources.isEmpty {
      throw SwiftSchemaError([
        MapRuntime.Diagnostic(
          .error, id: "swift-no-model", "no .swift file in \(selection.paths.joined(separator: ", "))",
          file: selection.paths.first)
      ])
    }
    do throws(SwiftSchemaError) {
      var schema = try read(sources: sources, name: name, conditions: selection.conditions)
      schema.warnings = notes + schema.warnings
      return schema
    } catch {
      throw SwiftSchemaError(error.diagnostics, notes: notes + error.notes)
    }
  }

  /// The stack the reading runs on: swift-syntax's parser and printer recurse, and nesting
  /// mapc does not see before parsing (a chain of `else if`) can go as deep as the files' step
  /// budget allows (Specs/limits.md). Reserved, not used: pages are taken as the stack grows.
  static let stackBytes = 512 << 20

  /// Reads the schema of Swift source texts, each with the path it is reported at.
  public static func read(
    sources: [(path: String, text: String)], name: String, conditions: SwiftBuildConditions = SwiftBuildConditions()
  ) throws(SwiftSchemaError) -> SwiftSchema {
    let result = LargeStackThread.run(stackBytes: stackBytes) { () -> Result<SwiftSchema, SwiftSchemaError> in
      do throws(SwiftSchemaError) {
        return .success(try readHere(sources: sources, name: name, conditions: conditions))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  private static func readHere(
    sources: [(path: String, text: String)], name: String, conditions: SwiftBuildConditions
  ) throws(SwiftSchemaError) -> SwiftSchema {
    var files: [SwiftSourceFile] = []
    var syntax: [MapRuntime.Diagnostic] = []
    for source in sources {
      do throws(MapRuntime.Diagnostic) {
        let file = try SwiftSourceFile(path: source.path, text: source.text)
        files.append(file)
        if let error = file.firstSyntaxError() { syntax.append(error) }
      } catch {
        syntax.append(error)
      }
    }
    if !syntax.isEmpty { throw SwiftSchemaError(syntax) }
    let declarations = SwiftDeclarations(files: files, conditions: conditions)
    var builder = SwiftModelBuilder(declarations: declarations)
    var diagnostics: [MapRuntime.Diagnostic] = []
    var seenCondition: Set<MapRuntime.Diagnostic> = []
    for d in declarations.diagnostics where seenCondition.insert(d).inserted { diagnostics.append(d) }
    if !diagnostics.isEmpty { throw SwiftSchemaError(diagnostics) }
    let schemas = declarations.types.filter { t in
      if case .enumeration = t.kind {
        return t.inherited.contains { $0 == "VersionedSchema" || $0.hasSuffix(".VersionedSchema") }
      }
      return false
    }
    let models = declarations.types.filter(\.isModel)
    var versions: [SwiftSchemaVersion] = []
    var order = "their version identifiers"
    if schemas.isEmpty {
      guard !models.isEmpty else {
        throw SwiftSchemaError([
          MapRuntime.Diagnostic(
            .error, id: "swift-no-model", "no @Model class in \(sources.map(\.path).joined(separator: ", "))",
            file: sources.first?.path)
        ])
      }
      let (classes, notes) = try containerClasses(files: files, models: models, declarations, conditions: conditions)
      diagnostics += notes
      if let model = builder.model(of: classes, identifier: unversionedIdentifier, name: name) {
        versions.append(SwiftSchemaVersion(name: name, identifier: unversionedIdentifier, model: model))
      }
      order = "one version"
    } else {
      var listed: Set<String> = []
      var seen: [String: SwiftTypeDeclaration] = [:]
      let (planned, leftOut) = planned(schemas, files: files, declarations, conditions: conditions)
      let leftOutNames = Set(schemas.map(\.qualifiedName)).subtracting(planned.map(\.qualifiedName))
      for schema in planned {
        do throws(MapRuntime.Diagnostic) {
          let identifier = try versionIdentifier(schema)
          if let other = seen[identifier] {
            throw MapRuntime.Diagnostic(
              .error, id: "swift-schema-version",
              "\(schema.name) and \(other.name) have the same versionIdentifier \(identifier)", at: schema.location)
          }
          seen[identifier] = schema
          let members = try modelsList(schema, declarations)
          let classes = closure(members, declarations)
          listed.formUnion(classes.map(\.qualifiedName))
          if let model = builder.model(of: classes, identifier: identifier, name: schema.name) {
            versions.append(SwiftSchemaVersion(name: schema.name, identifier: identifier, model: model))
          }
        } catch {
          diagnostics.append(error)
        }
      }
      diagnostics += builder.diagnostics
      if diagnostics.isEmpty {
        (versions, order) = ordered(versions, declarations)
      }
      diagnostics += leftOut
      // A class nested in a version left out is named by that version's note.
      for m in models where !listed.contains(m.qualifiedName) && !leftOutNames.contains(m.scope.joined(separator: "."))
      {
        diagnostics.append(
          MapRuntime.Diagnostic(
            .warning, id: "swift-model-outside-schema",
            "@Model class \(m.qualifiedName) is in no VersionedSchema's models: it is left out", at: m.location))
      }
    }
    if schemas.isEmpty { diagnostics += builder.diagnostics }
    if diagnostics.contains(where: { $0.severity == .error }) { throw SwiftSchemaError(diagnostics) }
    return SwiftSchema(versions: versions, order: order, warnings: diagnostics)
  }

  /// The classes with the model classes they lead to (relationships, superclasses) that are
  /// not among them: SwiftData's schema takes those in too.
  static func closure(_ classes: [SwiftTypeDeclaration], _ declarations: SwiftDeclarations) -> [SwiftTypeDeclaration] {
    var result = classes
    var seen = Set(classes.map(\.qualifiedName))
    var i = 0
    while i < result.count {
      let c = result[i]
      let scope = c.scope + [c.name]
      var names = c.inherited.prefix(1).map { ($0, c.scope) }
      for p in c.properties {
        guard
          let written = p.type.map({ SwiftWrittenType($0, in: p.source) })
            ?? p.initializer.flatMap(SwiftWrittenType.init(initialValue:))
        else { continue }
        var base = written
        while true {
          if case .optional(let inner) = base {
            base = inner
          } else if case .array(let inner) = base {
            base = inner
          } else {
            break
          }
        }
        if case .named(let n) = base { names.append((n, scope)) }
      }
      for (n, s) in names {
        if case .model(let d)? = SwiftStorage.resolve(n, from: s, in: declarations),
          seen.insert(d.qualifiedName).inserted
        {
          result.append(d)
        }
      }
      i += 1
    }
    return result
  }

  /// `static let versionIdentifier = Schema.Version(1, 2, 0)` (or a getter returning it) as
  /// `"1.2.0"`.
  static func versionIdentifier(_ schema: SwiftTypeDeclaration) throws(MapRuntime.Diagnostic) -> String {
    guard let (value, location) = schema.staticValues["versionIdentifier"] else {
      throw MapRuntime.Diagnostic(
        .error, id: "swift-schema-version", "\(schema.name) has no static versionIdentifier", at: schema.location)
    }
    let numbers: [Int]? = value.as(FunctionCallExprSyntax.self).flatMap { call in
      let values = call.arguments.compactMap {
        $0.expression.as(IntegerLiteralExprSyntax.self)?.representedLiteralValue
      }
      return values.count == call.arguments.count && values.count == 3 ? values : nil
    }
    guard let numbers else {
      throw MapRuntime.Diagnostic(
        .error, id: "swift-schema-version",
        "the versionIdentifier of \(schema.name) must be Schema.Version(major, minor, patch) with integer literals (found '\(value.trimmedDescription)')",
        at: location)
    }
    return numbers.map(String.init).joined(separator: ".")
  }

  /// `static var models: [any PersistentModel.Type] { [A.self, B.self] }`: the classes listed.
  static func modelsList(_ schema: SwiftTypeDeclaration, _ declarations: SwiftDeclarations)
    throws(MapRuntime.Diagnostic) -> [SwiftTypeDeclaration]
  {
    guard let (value, location) = schema.staticValues["models"] else {
      throw MapRuntime.Diagnostic(
        .error, id: "swift-schema-version", "\(schema.name) has no static models", at: schema.location)
    }
    var result: [SwiftTypeDeclaration] = []
    for name in try typeList(value, what: "models of \(schema.name)", at: location) {
      guard case .model(let d)? = SwiftStorage.resolve(name, from: schema.scope + [schema.name], in: declarations)
      else {
        throw MapRuntime.Diagnostic(
          .error, id: "swift-schema-version",
          "the models of \(schema.name) list '\(name)', which is no @Model class of the given files", at: location)
      }
      if !result.contains(where: { $0.qualifiedName == d.qualifiedName }) { result.append(d) }
    }
    return result
  }

  /// `[A.self, B.C.self]` as `["A", "B.C"]`.
  static func typeList(_ value: ExprSyntax, what: String, at location: MapRuntime.SourceLocation)
    throws(MapRuntime.Diagnostic) -> [String]
  {
    guard let array = value.as(ArrayExprSyntax.self) else {
      throw MapRuntime.Diagnostic(
        .error, id: "swift-schema-version", "the \(what) must be an array literal [A.self, …]", at: location)
    }
    var names: [String] = []
    for element in array.elements {
      guard let m = element.expression.as(MemberAccessExprSyntax.self), m.declName.baseName.text == "self",
        let base = m.base
      else {
        throw MapRuntime.Diagnostic(
          .error, id: "swift-schema-version",
          "the \(what) must list types as Name.self (found '\(element.expression.trimmedDescription)')", at: location)
      }
      names.append(base.trimmedDescription.replacingOccurrences(of: " ", with: ""))
    }
    return names
  }

  /// The versions in the order of a `SchemaMigrationPlan`'s `schemas` (those it does not list
  /// after them), else by version identifier.
  static func ordered(_ versions: [SwiftSchemaVersion], _ declarations: SwiftDeclarations) -> (
    [SwiftSchemaVersion], String
  ) {
    let byIdentifier = versions.sorted { a, b in
      let x = a.identifier.split(separator: ".").map { Int($0) ?? 0 }
      let y = b.identifier.split(separator: ".").map { Int($0) ?? 0 }
      return x != y ? x.lexicographicallyPrecedes(y) : a.name < b.name
    }
    guard let plan = migrationPlan(declarations), let (value, location) = plan.staticValues["schemas"],
      let names = try? typeList(value, what: "schemas", at: location)
    else { return (byIdentifier, "their version identifiers") }
    let simple = names.map { String($0.split(separator: ".").last ?? "") }
    let byName = Dictionary(versions.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    var placed: Set<String> = []
    var result: [SwiftSchemaVersion] = simple.compactMap { n in placed.insert(n).inserted ? byName[n] : nil }
    result += byIdentifier.filter { !placed.contains($0.name) }
    return (result, "the migration plan \(plan.name)")
  }
}
