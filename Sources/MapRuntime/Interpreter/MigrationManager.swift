/// Runs a plan over a source object graph and builds the destination graph, in Core Data's
/// passes: create instances, create relationships, validate, then custom validation and end.
///
/// Policies receive the manager in every hook; its public methods are what a custom policy
/// uses (reading source values, creating and associating destination instances, setting values).
public final class MigrationManager: @unchecked Sendable {
  public struct Options: Sendable {
    /// Stop collecting after this many errors.
    public var maxErrors: Int = 50
    /// What `now()` returns (seconds since 2001-01-01); fixed so runs are reproducible.
    public var now: Double = 0
    /// Source objects an entity mapping needs before pass 1 spreads it over the cores (see
    /// `ParallelCreation`); the result is the same either way.
    public var parallelMinimum: Int = ParallelCreation.defaultMinimum
    public init(maxErrors: Int = 50, now: Double = 0, parallelMinimum: Int = ParallelCreation.defaultMinimum) {
      self.maxErrors = maxErrors
      self.now = now
      self.parallelMinimum = parallelMinimum
    }
  }

  /// The three passes, for progress reports.
  public enum Pass: String, Sendable {
    case createInstances = "create instances"
    case createRelationships = "create relationships"
    case validate = "validate"
  }

  public let plan: MigrationPlan
  public let source: ObjectGraph
  public let destination: ObjectGraph
  public let options: Options
  /// Called now and then with the pass, objects done and objects in the pass.
  public var progress: (@Sendable (Pass, Int, Int) -> Void)?

  @exclusivity(unchecked) var linked: [LinkedMapping] = []
  @exclusivity(unchecked) var associations: [Associations]
  @exclusivity(unchecked) var policies: [EntityMigrationPolicy] = []
  let sourceBase: [Int]
  let sourceObjectCount: Int
  let predicates: [String: Predicate]
  @exclusivity(unchecked) var errors: [MigrationError] = []
  @exclusivity(unchecked) var truncated = false
  /// Inverse column per (entity, property) and target entity, for the destination graph.
  let destinationInverses: InverseTable
  /// The two Transformable values parsed last (a forEach collection and a value indexed by
  /// `$index` are the usual pair).
  @exclusivity(unchecked) var jsonCacheStart = (-1, -1)
  @exclusivity(unchecked) var jsonCacheValue0: Value = .null
  @exclusivity(unchecked) var jsonCacheValue1: Value = .null
  /// Which of the two was used last (the other is replaced next).
  @exclusivity(unchecked) var jsonCacheLast = 0
  @exclusivity(unchecked) var datePatterns: [String: DatePattern] = [:]
  @exclusivity(unchecked) var randomState: UInt64 = 0

  @exclusivity(unchecked) public internal(set) var currentMappingIndex = 0
  /// Entity mappings whose pass 1 ran on every core (see `ParallelCreation`), in order.
  public internal(set) var parallelMappings: [String] = []
  /// Per-source values of `createDirect` (kept to avoid allocating for every source object).
  @exclusivity(unchecked) var directScratch: [Value] = []
  /// Core Data's `NSMigrationManager.userInfo`: free for policies, e.g. to pass results from
  /// one entity mapping's policy to another's (each mapping has its own policy instance).
  public var userInfo: [String: Any] = [:]
  /// While a policy function (`EntityMigrationPolicy.perform`) runs: the variables of the
  /// expression that called it (`$source`, `$destination`, `$item`, `$index`, the property).
  public internal(set) var currentFrame: Frame?
  @exclusivity(unchecked) var currentInstanceIndex = -1

  public init(plan: MigrationPlan, source: ObjectGraph, options: Options = Options()) throws(MigrationFailure) {
    self.plan = plan
    self.source = source
    self.options = options
    self.destination = ObjectGraph(layout: StoreLayout(model: plan.destinationModel), input: nil, isSource: false)
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
    destinationInverses.bind(to: destination)

    var problems: [MigrationError] = []
    for m in plan.entityMappings {
      guard let name = m.policyName, !name.isEmpty else {
        policies.append(DefaultEntityMigrationPolicy())
        continue
      }
      switch PolicyRegistry.resolve(name) {
      case .found(let type):
        policies.append(type.init())
      case .ambiguous(let candidates):
        policies.append(DefaultEntityMigrationPolicy())
        problems.append(
          MigrationError(
            "run-unknown-policy",
            "Couldn't create mapping policy for class named \(name): the name is ambiguous, it could be \(candidates.joined(separator: " or ")); write the module-qualified name",
            at: m.location, file: plan.mappingPath))
      case .missing:
        policies.append(DefaultEntityMigrationPolicy())
        problems.append(
          MigrationError(
            "run-unknown-policy",
            "Couldn't create mapping policy for class named \(name): no policy of that name is registered in this executable (see Specs/functions.md, custom policies)",
            at: m.location, file: plan.mappingPath))
      }
    }
    do {
      let linker = Linker(manager: self)
      self.linked = try plan.entityMappings.enumerated().map { (i, m) throws(MigrationError) in
        try linker.link(m, index: i)
      }
    } catch {
      problems.append(error)
    }
    if !problems.isEmpty { throw MigrationFailure(problems) }
    for (i, lm) in linked.enumerated() {
      guard let e = lm.destinationEntity else { continue }
      lm.creation = CreationPlan(
        table: destination.tables[e], entity: e, codes: lm.attributeCodes, columns: lm.attributeColumns,
        ops: lm.attributeOps, associations: associations[i], hasForEach: lm.forEach != nil)
    }
    for lm in linked where lm.allRelationshipsLinked && !lm.relationshipColumns.isEmpty {
      guard let e = lm.destinationEntity else { continue }
      var links: [DirectLink] = []
      for (k, column) in lm.relationshipColumns.enumerated() {
        let i = lm.relationshipLinks[k]
        guard let link = DirectLink(
          column: column, of: e, linking: associations[i], madeBy: linked[i], in: destination, destinationInverses)
        else { break }
        links.append(link)
      }
      if links.count == lm.relationshipColumns.count { lm.directLinks = links }
    }
    // New destination objects start with the model's defaults, as Core Data's insert gives them.
    for e in destination.tables.indices {
      for (column, value) in destinationDefaults(e) { destination.tables[e].columns[column].setFill(value) }
    }
  }

  // MARK: - Running

  /// Runs every pass. On failure nothing should be written: the destination graph is incomplete.
  public func migrate() throws(MigrationFailure) { try migrate(phases: PhaseTimer(enabled: false)) }

  func migrate(phases: PhaseTimer) throws(MigrationFailure) {
    try runPass(.createInstances, phases: phases)
    try stopIfErrors()
    destination.finalize()
    phases.mark("pass 1: create instances")
    try runPass(.createRelationships, phases: phases)
    try stopIfErrors()
    destination.finalize()
    phases.mark("pass 2: relationships")
    validateDestination()
    phases.mark("validate")
    try stopIfErrors()
    for (i, m) in plan.entityMappings.enumerated() {
      currentMappingIndex = i
      hook(i, "performCustomValidation") { try policies[i].performCustomValidation(m, manager: self) }
      hook(i, "endEntityMapping") { try policies[i].endEntityMapping(m, manager: self) }
    }
    try stopIfErrors()
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
  /// (subentities included; a filter only makes it finish early); pass 2, the instances pass 1
  /// made.
  private func total(of pass: Pass) -> Int {
    switch pass {
    case .createInstances:
      var counts: [String: Int] = [:]
      for t in source.tables {
        counts[t.layout.name, default: 0] += t.count
        var parent = plan.sourceModel.entity(named: t.layout.name)?.parentName
        var seen = 0
        while let p = parent, seen < plan.sourceModel.entities.count {
          counts[p, default: 0] += t.count
          parent = plan.sourceModel.entity(named: p)?.parentName
          seen += 1
        }
      }
      return plan.entityMappings.reduce(0) { sum, m in sum + (m.sourceExpression == nil ? 0 : m.sourceEntity.flatMap { counts[$0] } ?? 0) }
    case .createRelationships:
      return associations.reduce(0) { $0 + $1.instanceCount }
    case .validate:
      return destination.objectCount
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
    for (i, m) in plan.entityMappings.enumerated() {
      currentMappingIndex = i
      let policy = policies[i]
      switch pass {
      case .createInstances:
        hook(i, "beginEntityMapping") { try policy.beginEntityMapping(m, manager: self) }
        let lm = linked[i]
        if let code = lm.sourceExpression {
          var frame = Frame(mapping: i)
          let sources: Value
          do {
            sources = try code(&frame)
          } catch {
            try record(error)
            continue
          }
          let all = elements(sources)
          let isDefault = policy is DefaultEntityMigrationPolicy
          if isDefault, all.count >= options.parallelMinimum, let parallel = ParallelCreation(lm, source: source),
            parallel.run(all, sourceKey: sourceKey)
          {
            parallelMappings.append(m.name)
          } else {
            try createOneByOne(i, lm, all, isDefault: isDefault, frame: &frame)
          }
          passDone += all.count
          report(pass, 0)
        } else if lm.forEach != nil {
          hook(i, "createDestinationInstances") {
            try policy.createDestinationInstances(forSource: nil, mapping: m, manager: self)
          }
        }
        hook(i, "endInstanceCreation") { try policy.endInstanceCreation(m, manager: self) }
        phases.mark("  \(m.name)")
      case .createRelationships:
        let n = associations[i].instanceCount
        let isDefault = policy is DefaultEntityMigrationPolicy
        let lm = linked[i]
        var frame = Frame(mapping: i)
        let a = associations[i]
        let direct = isDefault ? lm.directLinks : nil
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
            currentInstanceIndex = k
            if isDefault {
              if !lm.relationshipCodes.isEmpty {
                try defaultRelationships(lm, d, source: a.source(at: k), frame: &frame)
              }
            } else {
              hook(i, "createRelationships") {
                try policy.createRelationships(forDestination: d, mapping: m, manager: self)
              }
              try checkLimit()
            }
            k += 1
          }
          if k == chunkEnd && k & 0xFFFF == 0 { report(pass, k) }
        }
        passDone += n
        currentInstanceIndex = -1
        hook(i, "endRelationshipCreation") { try policy.endRelationshipCreation(m, manager: self) }
        phases.mark("  \(m.name)")
      case .validate:
        break
      }
    }
  }

  /// Pass 1 of mapping `i` for each source object in turn.
  private func createOneByOne(_ i: Int, _ lm: LinkedMapping, _ all: [Value], isDefault: Bool, frame: inout Frame)
    throws(MigrationFailure)
  {
    let m = plan.entityMappings[i]
    let policy = policies[i]
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
        try record(
          MigrationError(
            "run-source-not-object",
            "the source expression of \(m.name) must yield source objects, but yielded \(describe(s))",
            at: lm.sourceLocation))
        break
      }
      if isDefault {
        try defaultCreate(lm, forSource: ref, frame: &frame)
      } else {
        hook(i, "createDestinationInstances") {
          try policy.createDestinationInstances(forSource: ref, mapping: m, manager: self)
        }
        try checkLimit()
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
      return MigrationError(e.code, e.message, at: plan.entityMappings[i].location, file: plan.mappingPath)
    }
    do {
      try body()
    } catch let e as MigrationError {
      appendError(placed(e))
    } catch let f as MigrationFailure {
      for e in f.errors { appendError(placed(e)) }
      if f.truncated { truncated = true }
    } catch {
      let m = plan.entityMappings[i]
      appendError(
        MigrationError(
          "run-policy-error", "\(m.policyName ?? "policy").\(name) failed in mapping \(m.name): \(error)",
          at: m.location, file: plan.mappingPath))
    }
  }

  // MARK: - Errors

  func appendError(_ e: MigrationError) {
    if errors.count < options.maxErrors {
      errors.append(e)
    } else {
      truncated = true
    }
  }

  func record(_ e: MigrationError) throws(MigrationFailure) {
    appendError(e)
    try checkLimit()
  }

  func checkLimit() throws(MigrationFailure) {
    if truncated { throw MigrationFailure(errors, truncated: true) }
  }

  private func stopIfErrors() throws(MigrationFailure) {
    if !errors.isEmpty { throw MigrationFailure(errors, truncated: truncated) }
  }

  // MARK: - Objects

  /// Global number of a source object (for association tables).
  @inline(__always) func sourceKey(_ ref: ObjectRef) -> Int { sourceBase[Int(ref.entity)] + Int(ref.row) }

  /// The `id` of a source object as the input store spells it.
  public func sourceID(_ ref: ObjectRef) -> String { source.idText(ref) }

  /// The id a destination object gets in the output store: `Entity/n`.
  public func destinationID(_ ref: ObjectRef) -> String {
    "\(destination.table(ref).layout.name)/\(ref.row + 1)"
  }

  /// Creates a destination instance with the model's defaults; used by custom policies too.
  public func createDestinationInstance(entityNamed name: String) throws -> ObjectRef {
    guard let e = destination.layout.entityIndex(name) else {
      throw MigrationError("run-unknown-entity", "the destination model has no entity \(name)")
    }
    return createDestinationInstance(entity: e)
  }

  @inline(__always) func createDestinationInstance(entity e: Int) -> ObjectRef {
    ObjectRef(entity: e, row: destination.tables[e].appendObject())
  }

  /// Records that `destination` was made from `source` by the current entity mapping.
  public func associate(source: ObjectRef?, destination: ObjectRef) {
    associations[currentMappingIndex].add(
      source: source, sourceKey: source.map(sourceKey), destination: destination)
  }

  /// Core Data's `destinationInstancesForEntityMappingNamed:sourceInstances:`.
  public func destinationInstances(forEntityMappingNamed name: String, sourceInstances: [ObjectRef])
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
  public func sourceInstances(forEntityMappingNamed name: String, destinationInstances: [ObjectRef])
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

  /// A property of a source object (nil for unknown keys).
  public func sourceValue(_ ref: ObjectRef, _ key: String) -> Value {
    let t = source.table(ref)
    guard let p = t.layout.propertyIndex(key) else { return .null }
    return t.columns[p].read(Int(ref.row))
  }

  /// A property of a destination object.
  public func destinationValue(_ ref: ObjectRef, _ key: String) -> Value {
    let t = destination.table(ref)
    guard let p = t.layout.propertyIndex(key) else { return .null }
    return t.columns[p].read(Int(ref.row))
  }

  /// Sets a destination property as a mapping expression would (type coercion, inverses).
  public func setDestinationValue(_ value: Value, forKey key: String, of ref: ObjectRef) throws {
    let t = destination.table(ref)
    guard let p = t.layout.propertyIndex(key) else {
      throw MigrationError("run-unknown-property", "\(t.layout.name) has no property \(key)")
    }
    try assign(value, to: ref, property: p, location: nil)
  }

  /// The name of the property mapping a frame is evaluating, if any.
  public func propertyName(_ frame: Frame) -> String? {
    guard frame.mapping >= 0, frame.mapping < linked.count else { return nil }
    let names = linked[frame.mapping].propertyNames
    guard frame.propertyIndex >= 0, frame.propertyIndex < names.count else { return nil }
    return names[frame.propertyIndex]
  }

  // MARK: - Strings

  /// The characters of a text value.
  public func string(_ t: Text) -> String {
    switch t {
    case .native(let s): return s
    case .slice(let s): return source.input?.decodeString(s) ?? ""
    }
  }
}

/// A linked entity mapping: entity indexes resolved, expressions turned into closures. Kept in
/// parallel arrays of plain values so that running it for each object copies no strings.
final class LinkedMapping: @unchecked Sendable {
  let mapping: EntityMapping
  let sourceEntity: Int?
  let destinationEntity: Int?
  let sourceExpression: Code?
  let sourceLocation: SourceLocation?
  let forEach: Code?
  /// The column of `key` when `forEach` is `$source.key` with `key` a Transformable attribute
  /// of the source entity (what the parallel pass 1 reads directly), else nil.
  var forEachColumn: Int?
  /// Attribute mappings: destination column and expression.
  let attributeColumns: [Int]
  let attributeCodes: [Code]
  /// How each attribute mapping is carried out: through its expression, or for the common
  /// shapes (`$item`, `$index`, `$source.key`, `$source.key[$index]`, a constant) directly.
  /// Filled in by `Linker`.
  var attributeOps: [AttributeOp] = []
  /// Everything pass 1 needs to create this mapping's instances (nil without a destination
  /// entity). Set by `MigrationManager` once the mapping is linked.
  var creation: CreationPlan?
  /// Relationship mappings: destination column, expression, to-many or not.
  let relationshipColumns: [Int]
  let relationshipCodes: [Code]
  let relationshipIsToMany: [Bool]
  /// For each relationship mapping, the entity mapping whose association table gives its value
  /// directly (see `Linker.associationLink`), or -1.
  let relationshipLinks: [Int]
  /// Whether every relationship mapping has such a link.
  let allRelationshipsLinked: Bool
  /// Those links with what they touch looked up, when every one could be (see `DirectLink`).
  var directLinks: [DirectLink]?
  /// Names of the attribute mappings then the relationship mappings (`Frame.property` indexes them).
  let propertyNames: [String]
  /// Where each property mapping is in the mapping file (same order as `propertyNames`).
  let propertyLocations: [SourceLocation?]

  init(
    mapping: EntityMapping, sourceEntity: Int?, destinationEntity: Int?, sourceExpression: Code?,
    sourceLocation: SourceLocation?, forEach: Code?,
    attributes: [(name: String, column: Int, code: Code, location: SourceLocation?)],
    relationships: [(name: String, column: Int, code: Code, location: SourceLocation?, isToMany: Bool, link: Int)]
  ) {
    self.mapping = mapping
    self.sourceEntity = sourceEntity
    self.destinationEntity = destinationEntity
    self.sourceExpression = sourceExpression
    self.sourceLocation = sourceLocation
    self.forEach = forEach
    attributeColumns = attributes.map(\.column)
    attributeCodes = attributes.map(\.code)
    relationshipColumns = relationships.map(\.column)
    relationshipCodes = relationships.map(\.code)
    relationshipIsToMany = relationships.map(\.isToMany)
    relationshipLinks = relationships.map(\.link)
    allRelationshipsLinked = relationships.allSatisfy { $0.link >= 0 }
    propertyNames = attributes.map(\.name) + relationships.map(\.name)
    propertyLocations = attributes.map(\.location) + relationships.map(\.location)
  }

  /// The location of the mapping of property `name`, else of the entity mapping.
  func location(ofProperty name: String) -> SourceLocation? {
    propertyNames.firstIndex(of: name).flatMap { propertyLocations[$0] } ?? mapping.location
  }
}

/// What creating one instance of an entity mapping uses, looked up once: the destination
/// table, the attribute expressions and how each is carried out, the association table.
final class CreationPlan: @unchecked Sendable {
  let table: EntityTable
  let entity: Int
  let codes: [Code]
  let columns: [Int]
  let ops: [AttributeOp]
  let associations: Associations
  /// Whether every attribute mapping has a direct form, so instances can be made without
  /// evaluating any expression (`$item` and `$index` only with a forEach).
  let isDirect: Bool

  init(
    table: EntityTable, entity: Int, codes: [Code], columns: [Int], ops: [AttributeOp], associations: Associations,
    hasForEach: Bool
  ) {
    self.table = table
    self.entity = entity
    self.codes = codes
    self.columns = columns
    self.ops = ops
    self.associations = associations
    self.isDirect = ops.allSatisfy { op in
      switch op {
      case .code: false
      case .index, .item: hasForEach
      case .constant, .sharedText, .sourceValue, .sourceElement, .sourceDate: true
      }
    }
  }
}

/// A way to set one attribute of a new destination instance.
enum AttributeOp {
  /// Evaluate the expression and store its value, converted to the attribute's type.
  case code
  /// `$index` into an integer attribute whose range holds every possible index.
  case index(IntColumn)
  /// A constant, already converted to the attribute's type.
  case constant(Value)
  /// A constant string, stored once in the column's side table and shared by every object.
  case sharedText(TextColumn, UInt64)
  /// `$item`.
  case item
  /// `$source.key`, an attribute of the mapping's source entity (other entities, such as
  /// subentities, take the expression).
  case sourceValue(entity: Int, column: Int)
  /// `$source.key[$index]`, with `key` a Transformable attribute of the mapping's source entity
  /// that holds an array (anything else takes the expression).
  case sourceElement(entity: Int, column: Int)
  /// `FUNCTION($entityPolicy, "dateFromString:format:", $source.key, "pattern")` into a Date
  /// attribute, with `key` an attribute of the mapping's source entity and the default policy.
  case sourceDate(entity: Int, column: Int, pattern: DatePattern)
}
