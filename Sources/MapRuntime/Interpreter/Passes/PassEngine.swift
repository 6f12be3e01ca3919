/// Core Data's migration passes over a `MigrationContext`: pass 1 creates the destination
/// instances of every entity mapping (`beginEntityMapping`, `createDestinationInstances` per
/// source, `endInstanceCreation`), pass 2 sets their relationships (`createRelationships` per
/// instance, `endRelationshipCreation`), pass 3 validates the destination graph against its
/// model, then each mapping's `performCustomValidation` and `endEntityMapping`. Made by
/// `MigrationManager.migrate()` for one run.
final class PassEngine {
  typealias Pass = MigrationPass

  let c: MigrationContext
  /// The policies' hooks, for this run.
  let hooks: any PolicyHooks
  /// Called now and then with the pass, objects done and objects in the pass.
  let progress: (@Sendable (Pass, Int, Int) -> Void)?
  /// Per entity mapping, the relationships pass 2 sets straight from association tables, when
  /// all of them can be (see `DirectLink`).
  let directLinks: [[DirectLink]?]
  /// Pass 1 and pass 2 of the default policy, over the run.
  let creation: InstanceCreation
  let relationships: RelationshipSetting

  init(
    _ context: MigrationContext, creation: InstanceCreation, relationships: RelationshipSetting,
    hooks: any PolicyHooks, progress: (@Sendable (Pass, Int, Int) -> Void)?
  ) {
    self.c = context
    self.hooks = hooks
    self.progress = progress
    self.directLinks = context.linked.map { DirectLink.links(of: $0, in: context) }
    self.creation = creation
    self.relationships = relationships
  }

  /// Runs every pass. On failure nothing should be written: the destination graph is incomplete.
  func run(phases: PhaseTimer) throws(MigrationFailure) {
    try runPass(.createInstances, phases: phases)
    try c.stopIfErrors()
    c.destination.finalize()
    // A chunk's stubs made stubs (not validated, counted or written: `EntityTable.stubsFrom`).
    guard c.markDestinationStubs() else {
      throw MigrationFailure([
        MigrationError(
          "run-memory-limit",
          "the store cannot be migrated in chunks: the objects made from a chunk's stubs cannot be told from the others",
          file: c.plan.mappingPath)
      ])
    }
    phases.mark("pass 1: create instances")
    try runPass(.createRelationships, phases: phases)
    try c.stopIfErrors()
    c.destination.finalize()
    phases.mark("pass 2: relationships")
    DestinationValidation(c).validate(progress: progress)
    phases.mark("validate")
    try c.stopIfErrors()
    for i in c.plan.entityMappings.indices where !c.options.skippedMappings.contains(i) {
      c.state.currentMappingIndex = i
      hook(i, "performCustomValidation") { try hooks.performCustomValidation(i) }
      hook(i, "endEntityMapping") { try hooks.endEntityMapping(i) }
    }
    try c.stopIfErrors()
  }

  /// Objects the current pass has finished in earlier mappings, and the pass's total: progress
  /// is reported against one total per pass, which never changes while the pass runs.
  private var passDone = 0
  private var passTotal = 0

  /// Reports `done` objects of the current mapping (passDone more in earlier ones).
  private func report(_ pass: Pass, _ done: Int) {
    guard let progress else { return }
    progress(pass, min(passDone + done, passTotal), passTotal)
  }

  /// The objects a pass will go through: pass 1, the instances of every mapping's source entity
  /// (its own, as the fetch takes them; a filter only makes it finish early); pass 2, the
  /// instances pass 1 made.
  private func total(of pass: Pass) -> Int {
    switch pass {
    case .createInstances:
      var counts: [String: Int] = [:]
      for t in c.source.tables { counts[t.layout.name, default: 0] += t.count }
      return c.plan.entityMappings.reduce(0) { sum, m in
        sum + (m.sourceExpression == nil ? 0 : m.sourceEntity.flatMap { counts[$0] } ?? 0)
      }
    case .createRelationships:
      return c.associations.reduce(0) { $0 + $1.instanceCount }
    case .validate:
      return c.destination.objectCount
    }
  }

  private func runPass(_ pass: Pass, phases: PhaseTimer) throws(MigrationFailure) {
    passDone = 0
    passTotal = progress == nil ? 0 : total(of: pass)
    report(pass, 0)
    defer {
      passDone = passTotal
      report(pass, 0)
    }
    for (i, m) in c.plan.entityMappings.enumerated() where !c.options.skippedMappings.contains(i) {
      c.state.currentMappingIndex = i
      let isDefault = c.usesDefaultPolicy[i]
      switch pass {
      case .createInstances:
        hook(i, "beginEntityMapping") { try hooks.beginEntityMapping(i) }
        let lm = c.linked[i]
        if let code = lm.sourceExpression {
          var frame = Frame(mapping: i)
          let all: [Value]
          do {
            all = try c.elements(code(c, &frame))
          } catch {
            try c.record(error)
            continue
          }
          if isDefault, all.count >= c.options.parallelMinimum, let parallel = ParallelCreation(lm, source: c.source),
            parallel.run(all, sourceKey: c.sourceKey)
          {
            creation.parallelMappings.append(m.name)
          } else {
            try createOneByOne(i, lm, all, isDefault: isDefault, frame: &frame)
          }
          passDone += all.count
          report(pass, 0)
        } else if lm.forEach != nil {
          hook(i, "createDestinationInstances") {
            try hooks.createDestinationInstances(forSource: nil, mapping: i)
          }
        }
        hook(i, "endInstanceCreation") { try hooks.endInstanceCreation(i) }
        phases.mark("  " + TerminalText.escaped(m.name))
      case .createRelationships:
        let n = c.associations[i].instanceCount
        let lm = c.linked[i]
        var frame = Frame(mapping: i)
        let a = c.associations[i]
        let direct = isDefault ? directLinks[i] : nil
        var k = 0
        while k < n {
          let chunkEnd = min(n, (k | 0xFFFF) + 1)
          // Every relationship straight from association tables (see `DirectLink`) while
          // they can; an instance they cannot all link takes the general path, which links
          // again.
          if let direct {
            k = DirectLink.link(a, k..<chunkEnd, entity: lm.destinationEntity, with: direct)
          }
          if k < chunkEnd {
            let d = a.destination(at: k)
            relationships.currentInstanceIndex = k
            if isDefault {
              if !lm.relationshipCodes.isEmpty {
                try relationships.defaultRelationships(lm, d, source: a.source(at: k), frame: &frame)
              }
            } else {
              hook(i, "createRelationships") {
                try hooks.createRelationships(forDestination: d, mapping: i)
              }
              try c.checkLimit()
            }
            k += 1
          }
          if k == chunkEnd && k & 0xFFFF == 0 { report(pass, k) }
        }
        passDone += n
        relationships.currentInstanceIndex = -1
        hook(i, "endRelationshipCreation") { try hooks.endRelationshipCreation(i) }
        phases.mark("  " + TerminalText.escaped(m.name))
      case .validate:
        break
      }
    }
  }

  /// Pass 1 of mapping `i` for each source object in turn.
  private func createOneByOne(_ i: Int, _ lm: LinkedMapping, _ all: [Value], isDefault: Bool, frame: inout Frame)
    throws(MigrationFailure)
  {
    let m = c.plan.entityMappings[i]
    let table = lm.creation?.table
    let before = table?.count ?? 0
    // Room for the instances to come, so columns do not grow by copying: one per source, or for
    // a forEach, as many per source as the first ones made.
    if isDefault, let table, lm.forEach == nil { table.reserve(before + all.count) }
    var done = 0
    for s in all {
      if isDefault, let table, lm.forEach != nil, done == 4096, all.count > 2 * done {
        let perSource = Double(table.count - before) / Double(done)
        table.reserve(table.count + Int(perSource * Double(all.count - done) * 1.02) + 16)
      }
      guard case .sourceObject(let ref) = s else {
        try c.record(
          MigrationError(
            "run-source-not-object",
            "the source expression of \(m.name) must yield source objects, but yielded \(c.describe(s))",
            at: lm.sourceLocation))
        break
      }
      if isDefault {
        try creation.defaultCreate(lm, forSource: ref, frame: &frame)
      } else {
        hook(i, "createDestinationInstances") {
          try hooks.createDestinationInstances(forSource: ref, mapping: i)
        }
        try c.checkLimit()
      }
      done += 1
      if done & 0xFFFF == 0 { report(.createInstances, done) }
    }
  }

  /// Runs a policy hook; an error it throws is recorded against the mapping.
  /// Errors without a position are placed at the `<entityMapping>` element.
  private func hook(_ i: Int, _ name: String, _ body: () throws -> Void) {
    func placed(_ e: MigrationError) -> MigrationError {
      guard e.location == nil, e.file == nil else { return e }
      return MigrationError(e.code, e.message, at: c.plan.entityMappings[i].location, file: c.plan.mappingPath)
    }
    do {
      try body()
    } catch let e as MigrationError {
      c.appendError(placed(e))
    } catch let f as MigrationFailure {
      for e in f.errors { c.appendError(placed(e)) }
      if f.truncated { c.log.markTruncated() }
    } catch {
      let m = c.plan.entityMappings[i]
      c.appendError(
        MigrationError(
          "run-policy-error", "\(m.policyName ?? "policy").\(name) failed in mapping \(m.name): \(error)",
          at: m.location, file: c.plan.mappingPath))
    }
  }

}
