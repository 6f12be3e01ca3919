import MapArchives
import MapRuntime

/// Predicates and their operator objects.
extension ExpressionArchiveEncoder {
  mutating func predicate(_ p: Predicate) -> PropertyListValue {
    switch p.kind {
    case .constant(let value):
      return builder.add(
        value ? "NSTruePredicate" : "NSFalsePredicate",
        classes: ArchiveVocabulary.classChain(value ? "NSTruePredicate" : "NSFalsePredicate"), fields: [])
    case .not(let operand):
      return compound(ArchiveVocabulary.notType, [operand])
    case .and(let operands):
      return compound(ArchiveVocabulary.andType, operands)
    case .or(let operands):
      return compound(ArchiveVocabulary.orType, operands)
    case .comparison(let c):
      guard c.modifier == .none else { return comparison(c) }
      // NONE is NOT (ANY …), as Foundation builds it.
      var any = c
      any.modifier = .any
      return compound(ArchiveVocabulary.notType, [Predicate(.comparison(any))])
    }
  }

  /// `NSCompoundPredicate`: `NSSubpredicates`, then `NSCompoundPredicateType`.
  private mutating func compound(_ type: Int64, _ operands: [Predicate]) -> PropertyListValue {
    let slot = builder.reserve()
    let list = array { encoder in operands.map { encoder.predicate($0) } }
    fill(
      slot, "NSCompoundPredicate", [.init("NSSubpredicates", list), .init("NSCompoundPredicateType", .integer(type))])
    return slot
  }

  /// `NSComparisonPredicate`: `NSLeftExpression`, `NSRightExpression`, `NSPredicateOperator`.
  private mutating func comparison(_ c: Comparison) -> PropertyListValue {
    let slot = builder.reserve()
    let lhs = expression(c.lhs)
    let rhs = expression(c.rhs)
    let op = predicateOperator(c)
    fill(
      slot, "NSComparisonPredicate",
      [
        .init("NSLeftExpression", lhs), .init("NSRightExpression", rhs), .init("NSPredicateOperator", op),
      ])
    return slot
  }

  /// The operator object of the class Foundation uses for each operator, with `NSOperatorType`,
  /// `NSModifier` and the class's own keys.
  private mutating func predicateOperator(_ c: Comparison) -> PropertyListValue {
    let code = ArchiveVocabulary.operatorTypes.first(where: { $0.0 == c.op })?.1 ?? 0
    let modifier =
      switch c.modifier {
      case .all: ArchiveVocabulary.allModifier
      case .any, .none: ArchiveVocabulary.anyModifier
      case .direct: ArchiveVocabulary.directModifier
      }
    var fields: [PropertyListValue.Entry] = [
      .init("NSOperatorType", .integer(code)), .init("NSModifier", .integer(modifier)),
    ]
    let options = PropertyListValue.integer(Int64(c.options.rawValue))
    let className: String
    switch c.op {
    case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
      className = "NSComparisonPredicateOperator"
      fields += [.init("NSVariant", .integer(code)), .init("NSOptions", options)]
    case .equal, .notEqual:
      className = "NSEqualityPredicateOperator"
      fields += [.init("NSNegate", .bool(c.op == .notEqual)), .init("NSOptions", options)]
    case .matches:
      className = "NSMatchingPredicateOperator"
      fields.append(.init("NSFlags", options))
    case .like:
      className = "NSLikePredicateOperator"
      fields.append(.init("NSFlags", options))
    case .beginsWith, .endsWith:
      className = "NSSubstringPredicateOperator"
      let position = c.op == .beginsWith ? ArchiveVocabulary.beginsWithPosition : ArchiveVocabulary.endsWithPosition
      fields += [.init("NSFlags", options), .init("NSPosition", .integer(position))]
    case .in, .contains:
      className = "NSInPredicateOperator"
      fields.append(.init("NSFlags", options))
    case .between:
      className = "NSBetweenPredicateOperator"
    }
    return builder.add(className, classes: ArchiveVocabulary.classChain(className), fields: fields)
  }
}

/// The key order of each object in the archives Xcode wrote (a binary property list keeps a
/// dictionary's keys in the order they were written; Foundation's order follows its hashing, so
/// it is recorded, not derived). Objects of classes not seen in a real file keep `$class` first
/// and their fields in encoding order.
enum ArchiveKeyOrder {
  static func ordered(_ object: PropertyListValue, objects: [PropertyListValue]) -> PropertyListValue {
    guard case .dictionary(let entries) = object, case .uid(let c)? = object["$class"],
      Int(c) < objects.count, let name = objects[Int(c)]["$classname"]?.stringValue,
      let order = order(of: name, keys: Set(entries.map(\.key)))
    else { return object }
    let rank = { (key: String) in order.firstIndex(of: key) ?? order.count }
    let ranked = entries.enumerated().sorted { a, b in
      (rank(a.element.key), a.offset) < (rank(b.element.key), b.offset)
    }
    return .dictionary(ranked.map(\.element))
  }

  /// Seen in the corpus's `valueexpressiondata` and `userinfodata` (Xcode 9 to 16).
  private static func order(of className: String, keys: Set<String>) -> [String]? {
    switch className {
    case "NSFunctionExpression", "NSKeyPathExpression":
      ["NSOperand", "NSSelectorName", "NSExpressionType", "NSArguments", "$class"]
    case "NSVariableExpression": ["NSVariable", "NSExpressionType", "$class"]
    case "NSKeyPathSpecifierExpression": ["$class", "NSExpressionType", "NSKeyPath"]
    case "NSConstantValueExpression":
      keys.contains("NSConstantValueClassName")
        ? ["$class", "NSExpressionType", "NSConstantValueClassName"]
        : ["NSConstantValue", "NSExpressionType", "$class"]
    case "NSArray", "NSMutableArray": ["NS.objects", "$class"]
    case "NSDictionary", "NSMutableDictionary": ["NS.keys", "NS.objects", "$class"]
    default: nil
    }
  }
}
