/// Pass 1 of the default policy: the destination instances of one source instance, their
/// attributes (model defaults, direct forms, expressions) and their association. One per run
/// (`MigrationManager` makes it, its `PassEngine` and the policy API use it).
final class InstanceCreation {
  let run: MigrationContext
  /// Per-source values of `createDirect` (kept to avoid allocating for every source object).
  @exclusivity(unchecked) private var directScratch: [Value] = []
  /// Entity mappings whose pass 1 ran on every core (see `ParallelCreation`), in order.
  var parallelMappings: [String] = []

  init(_ run: MigrationContext) { self.run = run }

  /// What the default policy does for one source instance: one destination instance, or one
  /// per element of `forEach`; model defaults, then every attribute expression; then the
  /// association with the source.
  func defaultCreateDestinationInstances(forSource sourceRef: ObjectRef?) throws {
    try defaultCreate(run.linked[run.currentMappingIndex], forSource: sourceRef)
  }

  func defaultCreate(_ lm: LinkedMapping, forSource sourceRef: ObjectRef?) throws(MigrationFailure) {
    var frame = Frame(mapping: run.currentMappingIndex)
    try defaultCreate(lm, forSource: sourceRef, frame: &frame)
  }

  /// `defaultCreate` with a frame reused from one source object to the next.
  func defaultCreate(_ lm: LinkedMapping, forSource sourceRef: ObjectRef?, frame: inout Frame) throws(MigrationFailure)
  {
    guard let plan = lm.creation else { return }
    frame.reset(mapping: run.currentMappingIndex, source: sourceRef.map { .sourceObject($0) } ?? .null)
    var target = CreationTarget(plan: plan, source: sourceRef, sourceKey: sourceRef.map(run.sourceKey))
    if let forEach = lm.forEach {
      let items: [Value]
      do {
        items = try run.elements(forEach(run, &frame))
      } catch {
        // Named after the source object whose collection it is, as an attribute's error is.
        guard let sourceRef, error.code.hasPrefix("run-") else { return try run.record(error) }
        let who = "\(run.sourceID(sourceRef)) (forEach of \(lm.mapping.name))"
        return try run.record(
          MigrationError(error.code, "\(who): \(error.message)", at: error.location, file: error.file))
      }
      if plan.isDirect, let sourceRef, try createDirect(lm, &target, items, source: sourceRef) { return }
      var index: Int64 = 0
      for item in items {
        frame.item = item
        frame.index = .int(index)
        try createOne(lm, &target, &frame)
        index += 1
      }
    } else {
      if plan.isDirect, let sourceRef, try createDirect(lm, &target, nil, source: sourceRef) { return }
      try createOne(lm, &target, &frame)
    }
  }

  /// Creates the instances of a mapping whose every attribute mapping has a direct form
  /// (`CreationPlan.isDirect`) without evaluating expressions: one per element of `items`
  /// (the forEach collection), or one when `items` is nil. The source-dependent values are
  /// read once. Returns false, having created nothing, when the source object does not have
  /// the shape the direct forms expect (another entity, a Transformable that is not an array);
  /// the general path then runs.
  private func createDirect(_ lm: LinkedMapping, _ t: inout CreationTarget, _ items: [Value]?, source s: ObjectRef)
    throws(MigrationFailure) -> Bool
  {
    let ops = t.ops
    var perSource = directScratch
    directScratch = []
    defer { directScratch = perSource }
    if perSource.count != ops.count { perSource = Array(repeating: .null, count: ops.count) }
    for k in ops.indices {
      switch ops[k] {
      case .sourceValue(let e, let c):
        guard Int(s.entity) == e else { return false }
        perSource[k] = run.source.tables[e].columns[c].get(Int(s.row))
      case .sourceElement(let e, let c):
        // A malformed value is left to the general path, which reports it.
        guard Int(s.entity) == e, let list = try? sourceList(run.source.tables[e].columns[c].get(Int(s.row))) else {
          return false
        }
        perSource[k] = list
      case .sourceDate(let e, let c, let pattern):
        guard Int(s.entity) == e, let date = try? sourceDate(run.source.tables[e].columns[c].get(Int(s.row)), pattern)
        else {
          return false
        }
        perSource[k] = date
      default:
        break
      }
    }
    let table = t.table
    let count = items?.count ?? 1
    for i in 0..<count {
      let row = table.appendObject()
      for k in ops.indices {
        let v: Value
        switch ops[k] {
        case .index(let ints):
          ints.setInt(row, Int64(i))
          continue
        case .constant(let c):
          table.columns[t.columns[k]].set(row, c)
          continue
        case .sharedText(let texts, let packed):
          texts.setPacked(row, packed)
          continue
        case .item:
          v = items?[i] ?? .null
        case .sourceValue, .sourceDate:
          v = perSource[k]
        case .sourceElement:
          if case .array(let a) = perSource[k], i < a.count { v = a[i] } else { v = .null }
        case .code:
          preconditionFailure("createDirect with an expression to evaluate")
        }
        do {
          try DestinationWrites(run).store(v, table, row, t.columns[k], origin: t.source, mapping: lm, propertyIndex: k)
        } catch {
          try run.record(error)
        }
      }
      t.associations.add(source: t.source, sourceKey: t.sourceKey, destination: ObjectRef(entity: t.entity, row: row))
    }
    return true
  }

  /// The source object being mapped and how its instances are made.
  struct CreationTarget {
    let plan: CreationPlan
    let source: ObjectRef?
    let sourceKey: Int?
    var table: EntityTable { plan.table }
    var entity: Int { plan.entity }
    var codes: [LinkedCode] { plan.codes }
    var columns: [Int] { plan.columns }
    var ops: [AttributeOp] { plan.ops }
    var associations: Associations { plan.associations }
  }

  private func createOne(_ lm: LinkedMapping, _ t: inout CreationTarget, _ frame: inout Frame)
    throws(MigrationFailure)
  {
    let row = t.table.appendObject()
    let ref = ObjectRef(entity: t.entity, row: row)
    frame.destination = .destinationObject(ref)
    for k in 0..<t.columns.count {
      switch t.ops[k] {
      case .index(let ints):
        if case .int(let i) = frame.index {
          ints.setInt(row, i)
          continue
        }
      case .constant(let v):
        t.table.columns[t.columns[k]].set(row, v)
        continue
      case .sharedText(let texts, let packed):
        texts.setPacked(row, packed)
        continue
      case .code:
        break
      case .item, .sourceValue, .sourceElement, .sourceDate:
        break
      }
      frame.propertyIndex = k
      let v: Value
      do {
        if let x = try direct(t.ops[k], frame) { v = x } else { v = try t.codes[k](run, &frame) }
      } catch {
        // An expression that fails names the object it was evaluated for.
        let name = t.table.layout.properties[t.columns[k]].name
        let who = run.objectDescription(ref, origin: t.source, mapping: lm.mapping)
        // A policy's own error (its own code, or one naming the object already, as
        // `manager.error(…, about:)` does) is kept as the policy wrote it.
        if !error.code.hasPrefix("run-") || error.message.hasPrefix(who + ":") {
          try run.record(error)
        } else {
          try run.record(
            MigrationError(
              error.code, "\(who): \(t.table.layout.name).\(name): \(error.message)", at: error.location,
              file: error.file))
        }
        continue
      }
      do {
        try DestinationWrites(run).store(v, t.table, row, t.columns[k], origin: t.source, mapping: lm, propertyIndex: k)
      } catch {
        try run.record(error)
      }
    }
    frame.propertyIndex = -1
    t.associations.add(source: t.source, sourceKey: t.sourceKey, destination: ref)
  }

  /// The value of an attribute mapping of a common shape, read without evaluating its
  /// expression; nil when the expression must be evaluated.
  @inline(__always) private func direct(_ op: AttributeOp, _ frame: Frame) throws(MigrationError) -> Value? {
    switch op {
    case .item:
      return frame.item
    case .sourceValue(let e, let c):
      guard case .sourceObject(let s) = frame.source, Int(s.entity) == e else { return nil }
      return run.source.tables[e].columns[c].get(Int(s.row))
    case .sourceElement(let e, let c):
      guard case .sourceObject(let s) = frame.source, Int(s.entity) == e, case .int(let n) = frame.index,
        let list = try sourceList(run.source.tables[e].columns[c].get(Int(s.row)))
      else { return nil }
      guard case .array(let items) = list else { return .null }
      return n >= 0 && n < items.count ? items[Int(n)] : .null
    case .sourceDate(let e, let c, let pattern):
      // A value the function refuses takes the expression, which reports it where it is.
      guard case .sourceObject(let s) = frame.source, Int(s.entity) == e else { return nil }
      return try? sourceDate(run.source.tables[e].columns[c].get(Int(s.row)), pattern)
    default:
      return nil
    }
  }

  /// `dateFromString:format:` of a source value (see `AttributeOp.sourceDate`).
  @inline(__always) func sourceDate(_ v: Value, _ pattern: DatePattern) throws(MigrationError) -> Value {
    try BuiltinPolicyFunctions.date(v, pattern, zoneOffset: 0, selector: "dateFromString:format:", run)
  }

  /// What `.sourceElement` indexes: nil stays nil, a Transformable array is parsed; nil for
  /// anything else (the expression handles it).
  private func sourceList(_ v: Value) throws(MigrationError) -> Value? {
    switch v {
    case .null:
      return .null
    case .transformable(let js):
      let parsed = try run.lookInside(js)
      guard case .array = parsed else { return nil }
      return parsed
    default:
      return nil
    }
  }

  /// Model defaults of a destination entity, as (column, value) pairs.
  static func destinationDefaults(_ entity: Int, of run: MigrationContext) -> [(Int, Value)] {
    var result: [(Int, Value)] = []
    for (c, p) in run.destination.layout.entities[entity].properties.enumerated() {
      guard let a = p.attribute, let d = a.defaultValue else { continue }
      let v: Value
      switch d {
      case .integer(let x): v = a.type.isInteger ? .int(x) : .double(Double(x))
      case .double(let x): v = .double(x)
      case .decimal(let s): v = .decimal(s)
      case .boolean(let b): v = .bool(b)
      case .string(let s): v = .string(.native(s))
      case .date(let t): v = .date(t)
      case .binary(let b): v = .data(b)
      }
      if let coerced = try? Coercion.coerce(v, to: a.type, manager: run) { result.append((c, coerced)) }
    }
    return result
  }
}
