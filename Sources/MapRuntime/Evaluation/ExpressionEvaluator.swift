/// Evaluates one expression or predicate outside a migration, as `NSExpression.expressionValue(with:context:)`
/// and `NSPredicate.evaluate(with:substitutionVariables:)` do: `SELF` is a plain value (a JSON
/// object's members are its keys), `$name`s come from a dictionary. Used by `mapc eval`.
///
/// It runs the migration interpreter (`Linker`) over a manager with empty models and one
/// entity mapping named `eval`, so every construct behaves exactly as in `mapc run`.
package final class ExpressionEvaluator {
  let manager: MigrationManager
  let variables: [String: Value]

  /// `now` is what `now()` returns (seconds since 2001-01-01T00:00:00Z).
  package init(variables: [String: Value] = [:], now: Double) {
    let empty = ObjectModel(entities: [])
    let plan = MigrationPlan(
      name: "eval", mappingPath: "<eval>", sourceModel: empty, destinationModel: empty,
      sourceEntityHashes: [], destinationEntityHashes: [],
      entityMappings: [EntityMapping(name: "eval", type: .custom, sourceEntity: nil, destinationEntity: nil)])
    let graph = ObjectGraph(layout: StoreLayout(model: empty), input: nil, isSource: true)
    // Cannot fail: the plan names no policy and holds no expression.
    manager = try! MigrationManager(plan: plan, source: graph, options: .init(now: now))
    self.variables = variables
  }

  /// The value of `expression` with `object` as `SELF`. `text` (the format it was parsed
  /// from) lets errors carry a column.
  package func value(of expression: Expression, object: Value, text: String? = nil) throws(MigrationError) -> Value {
    let code = try linker(text).code(expression)
    var frame = frame(object)
    return try code(manager.context, &frame)
  }

  /// Whether `predicate` holds for `object`.
  package func evaluate(_ predicate: Predicate, object: Value, text: String? = nil) throws(MigrationError) -> Bool {
    let test = try linker(text).test(predicate)
    var frame = frame(object)
    return try test(manager.context, &frame)
  }

  /// The elements of `collection` for which `predicate` holds (NSArray's `filtered(using:)`).
  package func filter(_ collection: Value, by predicate: Predicate, text: String? = nil) throws(MigrationError)
    -> [Value]
  {
    let test = try linker(text).test(predicate)
    var kept: [Value] = []
    for element in try manager.context.elements(collection) {
      var frame = frame(element)
      if try test(manager.context, &frame) { kept.append(element) }
    }
    return kept
  }

  private func linker(_ text: String?) -> Linker {
    let linker = Linker(context: manager.context)
    linker.source = text.map {
      ExpressionSource(text: $0, location: SourceLocation(file: "<format>", line: 1, column: 1))
    }
    return linker
  }

  private func frame(_ object: Value) -> Frame {
    var frame = Frame(mapping: 0)
    frame.evaluated = object
    for (name, value) in variables.sorted(by: { $0.key < $1.key }) {
      switch name {
      case "source": frame.source = value
      case "destination": frame.destination = value
      case "item": frame.item = value
      case "index": frame.index = value
      default: frame.locals.append((name, value))
      }
    }
    return frame
  }

  /// `value` with strings decoded, Transformable payloads read, and objects and handles such as
  /// `$manager` replaced by the string describing them: what an output format writes.
  package func plain(_ value: Value) -> Value {
    let m = manager.context
    switch value {
    case .string(let t): return .string(.native(m.string(t)))
    case .transformable(let s): return plain((try? m.transformableValue(s)) ?? .null)
    case .array(let items): return .array(items.map(plain))
    case .dictionary(let pairs): return .dictionary(pairs.map { ($0.0, plain($0.1)) })
    case .sourceObject, .destinationObject, .special: return .string(.native(m.describe(value)))
    default: return value
    }
  }
}
