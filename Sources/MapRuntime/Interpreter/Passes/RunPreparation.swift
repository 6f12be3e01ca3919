/// Making a run ready: what `MigrationManager.init` asks for before any pass runs.
enum RunPreparation {
  /// A context ready to run: every entity mapping linked into closures (`Linker`), the plan of
  /// pass 1 for each, and new destination objects starting with the model's defaults, as Core
  /// Data's insert gives them. `problems`: what is already wrong with the run (policies that
  /// could not be made); they are thrown with any linking error.
  static func prepared(
    plan: MigrationPlan, source: ObjectGraph, options: MigrationManagerOptions, usesDefaultPolicy: [Bool],
    problems: [MigrationError]
  ) throws(MigrationFailure) -> MigrationContext {
    let context = MigrationContext(plan: plan, source: source, options: options, usesDefaultPolicy: usesDefaultPolicy)
    var problems = problems
    do {
      let linker = Linker(context: context)
      context.linked = try plan.entityMappings.enumerated().map { (i, m) throws(MigrationError) in
        try linker.link(m, index: i)
      }
    } catch {
      problems.append(error)
    }
    if !problems.isEmpty { throw MigrationFailure(problems) }
    for (i, lm) in context.linked.enumerated() {
      guard let e = lm.destinationEntity else { continue }
      lm.creation = CreationPlan(
        table: context.destination.tables[e], entity: e, codes: lm.attributeCodes, columns: lm.attributeColumns,
        ops: lm.attributeOps, associations: context.associations[i], hasForEach: lm.forEach != nil)
    }
    let destination = context.destination
    for e in destination.tables.indices {
      for (column, value) in InstanceCreation.destinationDefaults(e, of: context) {
        destination.tables[e].columns[column].setFill(value)
      }
    }
    return context
  }
}
