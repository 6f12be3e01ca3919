/// One run of a plan as its expressions see it: the plan, the source graph and the destination
/// graph being built, the linked entity mappings, their association tables and which use the
/// default policy (all fixed once the context is made), and the evaluation state that changes
/// as the passes run. The state every part of the interpreter shares, and what they all do with
/// it (objects, errors, text; in this folder: comparison, description, Transformable values).
///
/// The parts are types of their own folders, given the context: `PassEngine` runs Core Data's
/// passes (`InstanceCreation`, `RelationshipSetting`, `DestinationValidation`), calling policies
/// through `hooks`; `KeyValueCoding`, `Coercion`, `BuiltinPolicyFunctions` are what linked
/// expressions call; `MigrationManager` (in `Policies/`, above) is the public face that policies
/// see. Linked expressions evaluate against the context. Not `Sendable`: one thread runs it
/// (`ParallelCreation` shares only columns and association tables, never the context).
final class MigrationContext {
  let plan: MigrationPlan
  let source: ObjectGraph
  let destination: ObjectGraph
  let options: MigrationManagerOptions
  /// The policies' hooks while the passes run (for `$entityPolicy` functions of custom
  /// policies): weak, the run's `PassEngine` holds them; nil outside a run.
  weak var hooks: (any PolicyHooks)?

  /// One per entity mapping, in plan order (set once by `RunPreparation.prepared`).
  @exclusivity(unchecked) var linked: [LinkedMapping] = []
  let associations: [Associations]
  /// Per entity mapping: whether its policy is the default one (the passes and the linker take
  /// their fast paths; a custom policy may create and associate objects its own way).
  let usesDefaultPolicy: [Bool]
  /// Global number of each source table's first object (see `sourceKey`).
  let sourceBase: [Int]
  let sourceObjectCount: Int
  let predicates: [String: Predicate]
  /// Inverse column per (entity, property) and target entity, for the destination graph.
  let destinationInverses: InverseTable

  /// What changes while expressions are evaluated: the mapping and object being run, caches.
  @exclusivity(unchecked) var state = EvaluationState()
  /// The errors so far.
  @exclusivity(unchecked) var log: ErrorLog

  /// The run's fixed parts, before its mappings are linked: `RunPreparation.prepared` (in
  /// `Passes/`) links them and makes the context ready to run.
  init(plan: MigrationPlan, source: ObjectGraph, options: MigrationManagerOptions, usesDefaultPolicy: [Bool]) {
    self.plan = plan
    self.source = source
    self.options = options
    self.log = ErrorLog(limit: options.maxErrors)
    self.destination = ObjectGraph(
      layout: .of(plan.destinationModel, reusing: options.destinationLayout), input: nil, isSource: false)
    var base: [Int] = []
    var total = 0
    for t in source.tables {
      base.append(total)
      total += t.count
    }
    self.sourceBase = base
    self.sourceObjectCount = total
    // Each mapping's association table indexes the source keys of its source entity and the
    // entities inheriting from it.
    self.associations = plan.entityMappings.map { m in
      var lo = total
      var hi = 0
      if let name = m.sourceEntity, let e = source.layout.entityIndex(name) {
        for k in source.layout.entities[e].kindIndexes where source.tables[k].count > 0 {
          lo = min(lo, base[k])
          hi = max(hi, base[k] + source.tables[k].count)
        }
      }
      return Associations(keys: lo < hi ? lo..<hi : 0..<0, sourceBase: base)
    }
    var preds: [String: Predicate] = [:]
    for p in plan.predicates { preds[p.text] = p.predicate }
    self.predicates = preds
    self.destinationInverses = InverseTable(layout: destination.layout)
    self.usesDefaultPolicy = usesDefaultPolicy
    destinationInverses.bind(to: destination)
  }

  /// The entity mapping whose hook or expression runs.
  var currentMappingIndex: Int { state.currentMappingIndex }

  // MARK: - Errors

  func appendError(_ e: MigrationError) { log.append(e) }

  func record(_ e: MigrationError) throws(MigrationFailure) {
    appendError(e)
    try checkLimit()
  }

  func checkLimit() throws(MigrationFailure) {
    if log.truncated { throw log.failure }
  }

  func stopIfErrors() throws(MigrationFailure) {
    if !log.errors.isEmpty { throw log.failure }
  }

  // MARK: - Objects

  /// Global number of a source object (for association tables).
  @inline(__always) func sourceKey(_ ref: ObjectRef) -> Int { sourceBase[Int(ref.entity)] + Int(ref.row) }

  /// The `id` of a source object as the input store spells it.
  func sourceID(_ ref: ObjectRef) -> String { source.idText(ref) }

  /// The id a destination object gets in the output store: `Entity/n`.
  func destinationID(_ ref: ObjectRef) -> String {
    let before = options.destinationNumbersBefore
    let e = Int(ref.entity)
    return "\(destination.table(ref).layout.name)/\(Int(ref.row) + 1 + (e < before.count ? before[e] : 0))"
  }

  /// Core Data's `destinationInstancesForEntityMappingNamed:sourceInstances:`.
  func destinationInstances(forEntityMappingNamed name: String, sourceInstances: [ObjectRef])
    throws -> [ObjectRef]
  {
    guard let i = plan.entityMappings.firstIndex(where: { $0.name == name }) else {
      throw MigrationError("run-unknown-mapping", "no entity mapping named \(name)")
    }
    var result: [ObjectRef] = []
    for s in sourceInstances { result.append(contentsOf: associations[i].destinations(forSourceKey: sourceKey(s))) }
    return result
  }

  /// Core Data's `sourceInstancesForEntityMappingNamed:destinationInstances:`.
  func sourceInstances(forEntityMappingNamed name: String, destinationInstances: [ObjectRef])
    throws -> [ObjectRef]
  {
    guard let i = plan.entityMappings.firstIndex(where: { $0.name == name }) else {
      throw MigrationError("run-unknown-mapping", "no entity mapping named \(name)")
    }
    let wanted = Set(destinationInstances.map(\.packed))
    var result: [ObjectRef] = []
    let a = associations[i]
    for k in 0..<a.instanceCount where wanted.contains(a.destination(at: k).packed) {
      if let s = a.source(at: k) { result.append(s) }
    }
    return result
  }

  /// The name of the property mapping a frame is evaluating, if any.
  func propertyName(_ frame: Frame) -> String? {
    guard frame.mapping >= 0, frame.mapping < linked.count else { return nil }
    let names = linked[frame.mapping].propertyNames
    guard frame.propertyIndex >= 0, frame.propertyIndex < names.count else { return nil }
    return names[frame.propertyIndex]
  }

  // MARK: - Strings

  /// The characters of a text value.
  func string(_ t: Text) -> String {
    switch t {
    case .native(let s): return s
    case .slice(let s): return source.input?.decodeString(s) ?? ""
    }
  }

  /// UTF-16 length, or a value known to be below `atLeast` / within bounds when the UTF-8
  /// byte count alone decides it (every character takes 1–3 UTF-8 bytes per UTF-16 unit).
  func utf16Length(_ t: Text, atLeast lo: Int?, atMost hi: Int?) -> Int {
    if case .slice(let s) = t, !s.hasEscapes {
      let bytes = Int(s.count)
      let fewest = (bytes + 2) / 3
      if (lo.map { fewest >= $0 } ?? true) && (hi.map { bytes <= $0 } ?? true) { return max(fewest, lo ?? 0) }
    }
    return utf16Length(t)
  }

  /// UTF-16 length, as NSString's `length` counts.
  func utf16Length(_ t: Text) -> Int {
    switch t {
    case .native(let s): return s.utf16.count
    case .slice(let s):
      if s.hasEscapes { return string(t).utf16.count }
      guard let input = source.input else { return 0 }
      var n = 0
      for b in input.buffer(s) {
        if b & 0xC0 != 0x80 { n += 1 }
        if b >= 0xF0 { n += 1 }
      }
      return n
    }
  }
}
