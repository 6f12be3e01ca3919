extension MigrationManager {
  // MARK: - Pass 1

  /// What the default policy does for one source instance: one destination instance, or one
  /// per element of `forEach`; model defaults, then every attribute expression; then the
  /// association with the source.
  public func defaultCreateDestinationInstances(forSource sourceRef: ObjectRef?) throws {
    try defaultCreate(linked[currentMappingIndex], forSource: sourceRef)
  }

  func defaultCreate(_ lm: LinkedMapping, forSource sourceRef: ObjectRef?) throws(MigrationFailure) {
    var frame = Frame(mapping: currentMappingIndex)
    try defaultCreate(lm, forSource: sourceRef, frame: &frame)
  }

  /// `defaultCreate` with a frame reused from one source object to the next.
  func defaultCreate(_ lm: LinkedMapping, forSource sourceRef: ObjectRef?, frame: inout Frame) throws(MigrationFailure) {
    guard let plan = lm.creation else { return }
    frame.reset(mapping: currentMappingIndex, source: sourceRef.map { .sourceObject($0) } ?? .null)
    var target = CreationTarget(plan: plan, source: sourceRef, sourceKey: sourceRef.map(sourceKey))
    if let forEach = lm.forEach {
      let collection: Value
      do {
        collection = try forEach(&frame)
      } catch {
        try record(error)
        return
      }
      let items = elements(collection)
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
        perSource[k] = source.tables[e].columns[c].get(Int(s.row))
      case .sourceElement(let e, let c):
        // A malformed value is left to the general path, which reports it.
        guard Int(s.entity) == e, let list = try? sourceList(source.tables[e].columns[c].get(Int(s.row))) else {
          return false
        }
        perSource[k] = list
      case .sourceDate(let e, let c, let pattern):
        guard Int(s.entity) == e, let date = try? sourceDate(source.tables[e].columns[c].get(Int(s.row)), pattern) else {
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
          try store(v, table, row, t.columns[k], origin: t.source, mapping: lm, propertyIndex: k)
        } catch {
          try record(error)
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
    var codes: [Code] { plan.codes }
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
        if let x = try direct(t.ops[k], frame) { v = x } else { v = try t.codes[k](&frame) }
      } catch {
        // An expression that fails names the object it was evaluated for.
        let name = t.table.layout.properties[t.columns[k]].name
        let who = objectDescription(ref, origin: t.source, mapping: lm.mapping)
        // A policy's own error (its own code, or one naming the object already, as
        // `manager.error(…, about:)` does) is kept as the policy wrote it.
        if !error.code.hasPrefix("run-") || error.message.hasPrefix(who + ":") {
          try record(error)
        } else {
          try record(MigrationError(error.code, "\(who): \(t.table.layout.name).\(name): \(error.message)", at: error.location, file: error.file))
        }
        continue
      }
      do {
        try store(v, t.table, row, t.columns[k], origin: t.source, mapping: lm, propertyIndex: k)
      } catch {
        try record(error)
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
      return source.tables[e].columns[c].get(Int(s.row))
    case .sourceElement(let e, let c):
      guard case .sourceObject(let s) = frame.source, Int(s.entity) == e, case .int(let n) = frame.index,
        let list = try sourceList(source.tables[e].columns[c].get(Int(s.row)))
      else { return nil }
      guard case .array(let items) = list else { return .null }
      return n >= 0 && n < items.count ? items[Int(n)] : .null
    case .sourceDate(let e, let c, let pattern):
      // A value the function refuses takes the expression, which reports it where it is.
      guard case .sourceObject(let s) = frame.source, Int(s.entity) == e else { return nil }
      return try? sourceDate(source.tables[e].columns[c].get(Int(s.row)), pattern)
    default:
      return nil
    }
  }

  /// `dateFromString:format:` of a source value (see `AttributeOp.sourceDate`).
  @inline(__always) func sourceDate(_ v: Value, _ pattern: DatePattern) throws(MigrationError) -> Value {
    try BuiltinPolicyFunctions.date(v, pattern, zoneOffset: 0, selector: "dateFromString:format:", self)
  }

  /// What `.sourceElement` indexes: nil stays nil, a Transformable array is parsed; nil for
  /// anything else (the expression handles it).
  private func sourceList(_ v: Value) throws(MigrationError) -> Value? {
    switch v {
    case .null:
      return .null
    case .json(let js):
      let parsed = try parseJSON(js)
      guard case .array = parsed else { return nil }
      return parsed
    default:
      return nil
    }
  }

  /// Model defaults of a destination entity, as (column, value) pairs.
  func destinationDefaults(_ entity: Int) -> [(Int, Value)] {
    var result: [(Int, Value)] = []
    for (c, p) in destination.layout.entities[entity].properties.enumerated() {
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
      if let coerced = try? Coercion.coerce(v, to: a.type, manager: self) { result.append((c, coerced)) }
    }
    return result
  }

  /// Stores an attribute value after coercing it to the attribute's type.
  func store(
    _ v: Value, _ table: EntityTable, _ row: Int, _ column: Int, origin: ObjectRef?,
    mapping lm: LinkedMapping?, propertyIndex: Int
  ) throws(MigrationError) {
    guard let type = table.attributeTypes[column] else { return }
    do {
      try table.columns[column].setCoerced(row, v, type, self)
    } catch {
      let ref = ObjectRef(entity: table.layout.index, row: row)
      let name = table.layout.properties[column].name
      let who = lm.map { objectDescription(ref, origin: origin, mapping: $0.mapping) } ?? destinationID(ref)
      let location = lm.flatMap { propertyIndex >= 0 ? $0.propertyLocations[propertyIndex] : nil } ?? lm?.mapping.location
      throw MigrationError(
        error.code, "\(who): \(table.layout.name).\(name): \(error.message)", at: location, file: plan.mappingPath)
    }
  }

  /// Sets a property of a destination object (attribute or relationship) from a value.
  func assign(_ v: Value, to ref: ObjectRef, property p: Int, location: SourceLocation?) throws(MigrationError) {
    let table = destination.table(ref)
    let prop = table.layout.properties[p]
    if let r = prop.relationship {
      try setRelationship(v, of: ref, column: p, isToMany: r.isToMany, location: location)
    } else {
      try store(v, table, Int(ref.row), p, origin: nil, mapping: linked[currentMappingIndex], propertyIndex: -1)
    }
  }

  // MARK: - Pass 2

  /// What the default policy does for one destination instance: evaluate every relationship
  /// expression with `$source` bound to the instance's source.
  public func defaultCreateRelationships(forDestination d: ObjectRef) throws {
    let i = currentMappingIndex
    let a = associations[i]
    let sourceRef: ObjectRef?
    if currentInstanceIndex >= 0, currentInstanceIndex < a.instanceCount,
      a.destination(at: currentInstanceIndex) == d
    {
      sourceRef = a.source(at: currentInstanceIndex)
    } else {
      sourceRef = (0..<a.instanceCount).first { a.destination(at: $0) == d }.flatMap { a.source(at: $0) }
    }
    try defaultRelationships(linked[i], d, source: sourceRef)
  }

  func defaultRelationships(_ lm: LinkedMapping, _ d: ObjectRef, source sourceRef: ObjectRef?) throws(MigrationFailure) {
    var frame = Frame(mapping: currentMappingIndex)
    try defaultRelationships(lm, d, source: sourceRef, frame: &frame)
  }

  /// `defaultRelationships` with a frame reused from one destination object to the next.
  func defaultRelationships(_ lm: LinkedMapping, _ d: ObjectRef, source sourceRef: ObjectRef?, frame: inout Frame)
    throws(MigrationFailure)
  {
    // Every relationship straight from association tables: no expression, no frame. (Linking
    // twice changes nothing, so a relationship left to the general path may be redone there.)
    if lm.allRelationshipsLinked, lm.destinationEntity == Int(d.entity), let sourceRef {
      let key = sourceKey(sourceRef)
      let columns = lm.relationshipColumns
      let toMany = lm.relationshipIsToMany
      let links = lm.relationshipLinks
      var done = true
      for k in 0..<columns.count where !linkDirectly(d, columns[k], toMany[k], associations[links[k]], key) {
        done = false
        break
      }
      if done { return }
    }
    frame.reset(mapping: currentMappingIndex, source: sourceRef.map { .sourceObject($0) } ?? .null)
    frame.destination = .destinationObject(d)
    // A policy may associate instances of another entity with this mapping: find the
    // relationship by name in their entity.
    let sameEntity = lm.destinationEntity == Int(d.entity)
    let base = lm.attributeColumns.count
    let columns = lm.relationshipColumns
    let codes = lm.relationshipCodes
    let toMany = lm.relationshipIsToMany
    let links = lm.relationshipLinks
    let sourceKey = sourceRef.map(sourceKey)
    for k in 0..<columns.count {
      frame.propertyIndex = base + k
      if sameEntity, links[k] >= 0, let sourceKey, linkDirectly(d, columns[k], toMany[k], associations[links[k]], sourceKey) {
        continue
      }
      do throws(MigrationError) {
        let v = try codes[k](&frame)
        var column = columns[k]
        var isToMany = toMany[k]
        if !sameEntity {
          let layout = destination.table(d).layout
          let name = lm.propertyNames[base + k]
          guard let c = layout.propertyIndex(name), let rel = layout.properties[c].relationship else {
            throw MigrationError(
              "run-unknown-property",
              "\(objectDescription(d, origin: sourceRef, mapping: lm.mapping)) has no relationship \(name), which mapping \(lm.mapping.name) sets",
              at: lm.propertyLocations[base + k] ?? lm.mapping.location, file: plan.mappingPath)
          }
          column = c
          isToMany = rel.isToMany
        }
        try setRelationship(
          v, of: d, column: column, isToMany: isToMany, location: lm.propertyLocations[base + k], origin: sourceRef)
      } catch {
        try record(error)
      }
    }
  }

  /// Sets a relationship to the instances another mapping made from the same source, straight
  /// from that mapping's association table: what evaluating
  /// `destinationInstancesForEntityMappingNamed:sourceInstances:` with `$source` and setting the
  /// result would do. Returns false (and does nothing) for the case left to the general path:
  /// several instances for a to-one relationship, which is an error.
  private func linkDirectly(_ d: ObjectRef, _ column: Int, _ isToMany: Bool, _ a: Associations, _ key: Int) -> Bool {
    let n = a.destinationCount(forSourceKey: key)
    if isToMany {
      if n == 0 { return true }
      let col = unsafeDowncast(destination.tables[Int(d.entity)].columns[column], to: ToManyColumn.self)
      let row = Int(d.row)
      if n <= ToManyColumn.linearLimit, col.count(row) == 0 {
        // An empty relationship and distinct new members (each association is another
        // instance): no search for duplicates.
        col.reserve(row, extra: n)
        let entry = destinationInverses.entry(d.entity, column)
        a.forEachDestination(forSourceKey: key) { t in
          col.appendAbsent(row, t)
          if let entry { destination.addInverse(d, column, t, entry) }
        }
        return true
      }
      if n > 1 { col.reserve(row, extra: n) }
      a.forEachDestination(forSourceKey: key) { destination.addToMany(d, column, $0, destinationInverses) }
      return true
    }
    switch n {
    case 0: destination.setToOne(d, column, nil, destinationInverses)
    case 1: a.forEachDestination(forSourceKey: key) { destination.setToOne(d, column, $0, destinationInverses) }
    default: return false
    }
    return true
  }

  func setRelationship(
    _ v: Value, of d: ObjectRef, column: Int, isToMany: Bool, location: SourceLocation?, origin: ObjectRef? = nil
  ) throws(MigrationError) {
    let entry = destinationInverses.entry(d.entity, column)!
    func fail(_ message: String) -> MigrationError {
      let lm = linked[currentMappingIndex]
      let table = destination.table(d)
      let prop = table.layout.properties[column]
      return MigrationError(
        "run-relationship-type",
        "\(objectDescription(d, origin: origin, mapping: lm.mapping)): \(table.layout.name).\(prop.name): \(message)",
        at: location ?? lm.mapping.location, file: plan.mappingPath)
    }
    func target(_ x: Value) throws(MigrationError) -> ObjectRef {
      guard case .destinationObject(let t) = x else {
        let expected = destination.table(d).layout.properties[column].relationship?.destinationEntity ?? "destination"
        throw fail("expected \(expected) objects of the destination store, got \(describe(x))")
      }
      guard entry.accepts[Int(t.entity)] else {
        let expected = destination.table(d).layout.properties[column].relationship?.destinationEntity ?? "other"
        throw fail("expected \(expected) objects, got a \(destination.table(t).layout.name)")
      }
      return t
    }
    switch v {
    case .destinationObject:
      if isToMany {
        destination.addToMany(d, column, try target(v), destinationInverses)
      } else {
        destination.setToOne(d, column, try target(v), destinationInverses)
      }
      return
    case .null:
      if !isToMany { destination.setToOne(d, column, nil, destinationInverses) }
      return
    default:
      break
    }
    if isToMany {
      let items = elements(v)
      if items.count > 1 {
        (destination.tables[Int(d.entity)].columns[column] as? ToManyColumn)?.reserve(Int(d.row), extra: items.count)
      }
      for x in items {
        destination.addToMany(d, column, try target(x), destinationInverses)
      }
    } else {
      let items = elements(v)
      switch items.count {
      case 0: destination.setToOne(d, column, nil, destinationInverses)
      case 1: destination.setToOne(d, column, try target(items[0]), destinationInverses)
      default:
        throw fail("More than one relationship destination for a to-one relationship (\(items.count) objects)")
      }
    }
  }

  // MARK: - Helpers

  /// The elements of a collection; nil gives none; any other value is a one-element collection.
  func elements(_ v: Value) -> [Value] {
    switch v {
    case .null: return []
    case .array(let a): return a
    case .json(let s):
      if case .array(let a) = (try? parseJSON(s)) ?? .null { return a }
      return [v]
    default: return [v]
    }
  }

  /// "DayRecord/2 (created by RecordsToDayRecord from Records/2)".
  func objectDescription(_ ref: ObjectRef, origin: ObjectRef?, mapping: EntityMapping) -> String {
    var text = destinationID(ref)
    if let origin {
      text += " (created by \(mapping.name) from \(sourceID(origin)))"
    } else {
      text += " (created by \(mapping.name))"
    }
    return text
  }

  /// A short description of a value for error messages.
  public func describe(_ v: Value) -> String {
    switch v {
    case .null: return "nil"
    case .bool(let b): return b ? "YES" : "NO"
    case .int(let i): return "the number \(i)"
    case .double(let d): return "the number \(d)"
    case .decimal(let s): return "the decimal \(s)"
    case .string(let t):
      let s = string(t)
      return "the string \"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
    case .date(let t): return "the date \(ISO8601.format(t))"
    case .data(let d): return "\(d.count) bytes of data"
    case .json: return "a Transformable value"
    case .sourceObject(let r): return "source object \(sourceID(r))"
    case .destinationObject(let r): return "destination object \(destinationID(r))"
    case .array(let a): return "a collection of \(a.count)"
    case .dictionary: return "a dictionary"
    case .special(let s):
      switch s {
      case .manager: return "$manager"
      case .sourceContext: return "the source context"
      case .destinationContext: return "the destination context"
      case .entityPolicy: return "$entityPolicy"
      case .entityMapping: return "an entity mapping"
      case .propertyMapping: return "a property mapping"
      case .fetchRequest(let f): return "a fetch request for \(f.entity)"
      case .userInfo: return "a userInfo dictionary"
      }
    }
  }
}
