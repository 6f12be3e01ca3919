import MapRuntime

extension SwiftSchema {
  /// The `VersionedSchema` enums that are versions of the schema (Specs/swiftdata-schema.md
  /// §6): with a `SchemaMigrationPlan`, those its `schemas` list and those a container's
  /// declaration names (`Schema(versionedSchema: V.self)`); a note for each other one, left out
  /// (a stale copy of a version would otherwise be a version, the last one current). Without a
  /// plan, every one.
  static func planned(
    _ schemas: [SwiftTypeDeclaration], files: [SwiftSourceFile], _ declarations: SwiftDeclarations,
    conditions: SwiftBuildConditions
  ) -> (versions: [SwiftTypeDeclaration], notes: [Diagnostic]) {
    guard let plan = migrationPlan(declarations), let (value, location) = plan.staticValues["schemas"],
      let listed = try? typeList(value, what: "schemas", at: location)
    else { return (schemas, []) }
    var named = Set(listed.map { String($0.split(separator: ".").last ?? "") })
    for t in SwiftContainerDeclarations(files: files, conditions: conditions).types {
      named.insert(String(t.name.split(separator: ".").last ?? ""))
    }
    let kept = schemas.filter { named.contains($0.name) }
    guard !kept.isEmpty else { return (schemas, []) }
    let notes = schemas.filter { !named.contains($0.name) }.map {
      Diagnostic(
        .note, id: "",
        "VersionedSchema \($0.qualifiedName) is not in the schemas of the migration plan \(plan.name) (nor named by a model container): it is left out, with its classes",
        at: $0.location)
    }
    return (kept, notes)
  }

  /// The first `SchemaMigrationPlan` with a static `schemas`.
  static func migrationPlan(_ declarations: SwiftDeclarations) -> SwiftTypeDeclaration? {
    declarations.types.first { t in
      t.inherited.contains { $0 == "SchemaMigrationPlan" || $0.hasSuffix(".SchemaMigrationPlan") }
        && t.staticValues["schemas"] != nil
    }
  }
}
