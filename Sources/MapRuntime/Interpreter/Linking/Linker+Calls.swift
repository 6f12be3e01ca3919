/// `FUNCTION(…)` and `FETCH(…)`.
extension Linker {
  /// Selectors `$manager` answers (NSMigrationManager's), with their argument counts.
  static let managerSelectors: [String: Int] = [
    "destinationInstancesForEntityMappingNamed:sourceInstances:": 2,
    "destinationInstancesForSourceRelationshipNamed:sourceInstances:": 2,
    "sourceInstancesForEntityMappingNamed:destinationInstances:": 2,
    "fetchRequestForSourceEntityNamed:predicateString:": 2,
    "fetchRequestForDestinationEntityNamed:predicateString:": 2,
    "valueForKey:": 1,
    "valueForKeyPath:": 1,
  ]

  func selectorCall(
    _ target: Expression, _ selector: String, _ args: [Expression], _ loc: SourceLocation?,
    _ located: @escaping (MigrationError) -> MigrationError
  ) throws(MigrationError) -> LinkedCode {
    if case .variable("manager") = target.kind {
      return try managerCall(selector, args, loc, located)
    }
    if case .variable("entityPolicy") = target.kind, policyIsDefault,
      selector == "dateFromString:format:", args.count == 2, case .constant(.string(let format)) = args[1].kind,
      case .success(let pattern) = DatePattern.compile(format)
    {
      // The usual date conversion, with its pattern compiled once.
      let value = try code(args[0])
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
        let v = try value(m, &frame)
        do throws(MigrationError) {
          return try BuiltinPolicyFunctions.date(v, pattern, zoneOffset: 0, selector: selector, m)
        } catch {
          throw located(error)
        }
      }
    }
    let codes = try args.map { (a) throws(MigrationError) in try code(a) }
    if case .variable("entityPolicy") = target.kind {
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
        var values: [Value] = []
        values.reserveCapacity(codes.count)
        for c in codes { values.append(try c(m, &frame)) }
        if !m.usesDefaultPolicy[frame.mapping], let hooks = m.hooks {
          let saved = m.state.currentFrame
          m.state.currentFrame = frame
          defer { m.state.currentFrame = saved }
          do {
            if let v = try hooks.perform(selector: selector, arguments: values, mapping: frame.mapping) { return v }
          } catch let e as MigrationError {
            throw located(e)
          } catch {
            throw located(
              MigrationError(
                "run-policy-error",
                "\(m.plan.entityMappings[frame.mapping].policyName ?? "policy") \(selector) failed: \(error)"))
          }
        }
        do throws(MigrationError) {
          if let v = try BuiltinPolicyFunctions.call(selector, values, frame: frame, manager: m) { return v }
        } catch { throw located(error) }
        throw located(
          MigrationError(
            "run-unknown-selector",
            "no policy function \(selector): the mapping's policy does not implement it and it is not built in"))
      }
    }
    let t = try code(target)
    return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
      let receiver = try t(m, &frame)
      var values: [Value] = []
      for c in codes { values.append(try c(m, &frame)) }
      do throws(MigrationError) { return try ObjectMethods.call(receiver, selector, values, m) } catch {
        throw located(error)
      }
    }
  }

  private func constantString(_ e: Expression) -> String? {
    if case .constant(.string(let s)) = e.kind { return s }
    return nil
  }

  private func mappingIndex(_ name: String, _ loc: SourceLocation?) throws(MigrationError) -> Int {
    guard let i = m.plan.entityMappings.firstIndex(where: { $0.name == name }) else {
      throw MigrationError("run-unknown-mapping", "no entity mapping named \(name)", at: loc)
    }
    return i
  }

  private func managerCall(
    _ selector: String, _ args: [Expression], _ loc: SourceLocation?,
    _ located: @escaping (MigrationError) -> MigrationError
  ) throws(MigrationError) -> LinkedCode {
    guard let arity = Self.managerSelectors[selector] else {
      throw MigrationError("run-unknown-selector", "$manager does not respond to \(selector)", at: loc)
    }
    guard arity == args.count else {
      throw MigrationError("run-arity", "\(selector) takes \(arity) argument(s), given \(args.count)", at: loc)
    }
    switch selector {
    case "destinationInstancesForEntityMappingNamed:sourceInstances:":
      let instances = try code(args[1])
      if let name = constantString(args[0]) {
        let i = try mappingIndex(name, loc)
        return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
          let sources = try instances(m, &frame)
          return try AssociationLookup(m).destinations(mapping: i, sources: sources, located)
        }
      }
      let nameCode = try code(args[0])
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
        guard case .string(let t) = try nameCode(m, &frame) else {
          throw located(MigrationError("run-type-mismatch", "the mapping name must be a string"))
        }
        let i: Int
        do throws(MigrationError) { i = try self.mappingIndex(m.string(t), nil) } catch { throw located(error) }
        return try AssociationLookup(m).destinations(mapping: i, sources: try instances(m, &frame), located)
      }
    case "destinationInstancesForSourceRelationshipNamed:sourceInstances:":
      let instances = try code(args[1])
      let nameCode = try code(args[0])
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
        guard case .string(let t) = try nameCode(m, &frame) else {
          throw located(MigrationError("run-type-mismatch", "the relationship name must be a string"))
        }
        do throws(MigrationError) {
          return try AssociationLookup(m).destinationsForSourceRelationship(
            m.string(t), try instances(m, &frame), frame: frame)
        } catch { throw located(error) }
      }
    case "sourceInstancesForEntityMappingNamed:destinationInstances:":
      let instances = try code(args[1])
      let nameCode = try code(args[0])
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
        guard case .string(let t) = try nameCode(m, &frame) else {
          throw located(MigrationError("run-type-mismatch", "the mapping name must be a string"))
        }
        let refs = try m.elements(try instances(m, &frame)).compactMap { v -> ObjectRef? in
          if case .destinationObject(let r) = v { return r }
          return nil
        }
        do {
          return .array(
            try m.sourceInstances(forEntityMappingNamed: m.string(t), destinationInstances: refs).map {
              .sourceObject($0)
            })
        } catch let e as MigrationError { throw located(e) } catch {
          throw located(MigrationError("run-error", "\(error)"))
        }
      }
    case "fetchRequestForSourceEntityNamed:predicateString:", "fetchRequestForDestinationEntityNamed:predicateString:":
      guard let entity = constantString(args[0]), let text = constantString(args[1]) else {
        throw MigrationError(
          "run-plan-inconsistent", "\(selector) needs literal entity name and predicate strings", at: loc)
      }
      let isSource = selector.hasPrefix("fetchRequestForSource")
      let graph = isSource ? m.source : m.destination
      guard graph.layout.entityIndex(entity) != nil else {
        throw MigrationError(
          "run-plan-inconsistent", "the \(isSource ? "source" : "destination") model has no entity \(entity)", at: loc)
      }
      guard let predicate = m.predicates[text] else {
        throw MigrationError(
          "run-plan-inconsistent", "predicate string \"\(text)\" was not compiled into the plan", at: loc)
      }
      let request = Value.special(.fetchRequest(FetchRequest(entity: entity, predicate: predicate)))
      return { _, _ in request }
    default:  // valueForKey:, valueForKeyPath:
      let keyCode = try code(args[0])
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
        guard case .string(let t) = try keyCode(m, &frame) else {
          throw located(MigrationError("run-type-mismatch", "\(selector) needs a string key"))
        }
        let path = m.string(t).split(separator: ".").map(String.init)
        do throws(MigrationError) {
          return try KeyValueCoding(m).value(of: .special(.manager), path: ArraySlice(path))
        } catch {
          throw located(error)
        }
      }
    }
  }

  func fetch(
    _ request: Expression, _ context: Expression, _ countOnly: Bool, _ loc: SourceLocation?,
    _ located: @escaping (MigrationError) -> MigrationError
  ) throws(MigrationError) -> LinkedCode {
    let req = try code(request)
    let ctx = try code(context)
    let filters = FilterCache(linker: self)
    return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
      guard case .special(.fetchRequest(let f)) = try req(m, &frame) else {
        throw located(MigrationError("run-type-mismatch", "FETCH needs a fetch request as its first argument"))
      }
      let graph: ObjectGraph
      switch try ctx(m, &frame) {
      case .special(.sourceContext): graph = m.source
      case .special(.destinationContext): graph = m.destination
      default:
        throw located(
          MigrationError("run-type-mismatch", "FETCH needs $manager.sourceContext or $manager.destinationContext"))
      }
      guard let e = graph.layout.entityIndex(f.entity) else {
        throw located(MigrationError("run-unknown-entity", "no entity \(f.entity) to fetch"))
      }
      let side = graph.isSource
      var result: [Value] = []
      let test = try f.predicate.flatMap { (p) throws(MigrationError) -> Test? in
        if case .constant(true) = p.kind { return nil }
        return try filters.test(p)
      }
      // The entity's own instances: the migration manager's fetch requests do not include
      // subentities (each entity of a hierarchy has its own entity mapping).
      for k in [e] {
        let n = graph.tables[k].count
        result.reserveCapacity(result.count + n)
        for row in 0..<n {
          let ref = ObjectRef(entity: k, row: row)
          let v: Value = side ? .sourceObject(ref) : .destinationObject(ref)
          if let test {
            var inner = Frame(mapping: frame.mapping)
            inner.evaluated = v
            inner.locals = frame.locals
            let kept: Bool
            do throws(MigrationError) {
              kept = try test(m, &inner)
            } catch {
              // A filter that cannot decide for an object (a regex past its time limit, an
              // invalid pattern from the store) names the object: never a silent "no match".
              let who = side ? "source object \(m.sourceID(ref))" : "destination object \(m.destinationID(ref))"
              throw located(
                MigrationError(error.code, "\(who): \(error.message)", at: error.location, file: error.file))
            }
            guard kept else { continue }
          }
          result.append(v)
        }
      }
      return countOnly ? .int(Int64(result.count)) : .array(result)
    }
  }
}

/// Linked fetch predicates, by predicate.
final class FilterCache {
  let linker: Linker
  var tests: [Predicate: Test] = [:]
  init(linker: Linker) { self.linker = linker }
  func test(_ p: Predicate) throws(MigrationError) -> Test {
    if let t = tests[p] { return t }
    let saved = linker.source
    linker.source = nil
    defer { linker.source = saved }
    let t = try linker.test(p)
    tests[p] = t
    return t
  }
}
