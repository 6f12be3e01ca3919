import MapRuntime

extension SwiftSchema {
  /// The classes of a schema without versions (Specs/swiftdata-schema.md §1.2): those the model
  /// container's declarations name, with the model classes they lead to, and a note for each
  /// `@Model` class left out; every `@Model` class, and a note saying so, when no declaration
  /// names a type. A type a declaration names that is no model is `swift-container-type`.
  static func containerClasses(
    files: [SwiftSourceFile], models: [SwiftTypeDeclaration], _ declarations: SwiftDeclarations,
    conditions: SwiftBuildConditions
  ) throws(SwiftSchemaError) -> ([SwiftTypeDeclaration], [Diagnostic]) {
    let containers = SwiftContainerDeclarations(files: files, conditions: conditions)
    // A `Schema(...)` that names no model and no VersionedSchema of the files is another
    // library's type of that name (or names types mapc cannot see): not SwiftData's.
    var swiftData: [MapRuntime.SourceLocation: Bool] = [:]
    for t in containers.types where t.bySchema {
      swiftData[t.declaration] = (swiftData[t.declaration] ?? false) || root(t, declarations) != nil
    }
    var notes: [Diagnostic] = swiftData.filter { !$0.value }.keys.sorted { $0.description < $1.description }
      .map {
        Diagnostic(
          .note, id: "", "this Schema(...) names no @Model class of the given files: it is not read as SwiftData's",
          at: $0)
      }
    let named = containers.types.filter { !$0.bySchema || swiftData[$0.declaration] == true }
    let places = containers.places.filter { swiftData[$0] != false }
    guard let first = named.first else {
      let why =
        places.isEmpty
        ? "no model container declaration (ModelContainer(for:), Schema([...])) in the files"
        : "the model container declaration at \(places[0]) names its types through a value mapc does not follow"
      notes.append(
        Diagnostic(.note, id: "", "\(why): every @Model class of the files (\(models.count)) is in the schema"))
      return (models, notes)
    }
    var roots: [SwiftTypeDeclaration] = []
    var names: Set<String> = []
    var errors: [Diagnostic] = []
    for t in named {
      do throws(Diagnostic) {
        guard let found = root(t, declarations) else {
          throw Diagnostic(
            .error, id: "swift-container-type",
            "the model container names '\(t.name)', which is no @Model class of the given files", at: t.location)
        }
        for d in try found() where names.insert(d.qualifiedName).inserted { roots.append(d) }
      } catch {
        errors.append(error)
      }
    }
    if !errors.isEmpty { throw SwiftSchemaError(errors, notes: notes) }
    let classes = closure(roots, declarations)
    let reached = Set(classes.map(\.qualifiedName))
    notes += models.filter { !reached.contains($0.qualifiedName) }.map {
      Diagnostic(
        .note, id: "",
        "@Model class \($0.qualifiedName) is not reached from the model container (declared at \(first.declaration)): it is left out",
        at: $0.location)
    }
    return (classes, notes)
  }

  /// What a named type gives the schema: a model class, or a `VersionedSchema`'s models (read
  /// when called, so that an error in them is reported only for a declaration that counts);
  /// nil when it is neither.
  static func root(_ t: SwiftContainerType, _ declarations: SwiftDeclarations)
    -> (() throws(Diagnostic) -> [SwiftTypeDeclaration])?
  {
    if case .model(let d)? = SwiftStorage.resolve(t.name, from: t.scope, in: declarations) { return { [d] } }
    if let d = declarations.lookup(t.name, from: t.scope), case .enumeration = d.kind,
      d.inherited.contains(where: { $0 == "VersionedSchema" || $0.hasSuffix(".VersionedSchema") })
    {
      return { () throws(Diagnostic) in try modelsList(d, declarations) }
    }
    return nil
  }
}
