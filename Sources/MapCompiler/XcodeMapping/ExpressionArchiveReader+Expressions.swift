import MapArchives
import MapRuntime

/// `NSExpression` subclasses, by class name, onto `Expression`.
extension ExpressionArchiveDecoder {
  /// The expression object at `index`, decoded once.
  mutating func expression(at index: Int, depth: Int) throws(ExpressionArchiveError)
    -> DecodedNode<Expression>
  {
    try decodeOnce(index, depth: depth, cache: \.expressions) { d, o, depth throws(ExpressionArchiveError) in
      try d.decodeExpression(o, depth: depth)
    }
  }

  /// The expression a field of `o` refers to, which must be there.
  mutating func expression(_ o: ArchivedObject, _ key: String, depth: Int)
    throws(ExpressionArchiveError) -> DecodedNode<Expression>
  {
    try expression(at: try requiredReference(o, key), depth: depth)
  }

  /// A node of `kind` over already decoded children.
  func node(_ kind: Expression.Kind, in o: ArchivedObject, over children: [DecodedNode<Expression>])
    throws(ExpressionArchiveError) -> DecodedNode<Expression>
  {
    try measured(Expression(kind), in: o, heights: children.map(\.height), sizes: children.map(\.size))
  }

  private mutating func decodeExpression(_ o: ArchivedObject, depth: Int)
    throws(ExpressionArchiveError) -> DecodedNode<Expression>
  {
    switch o.className {
    case "NSConstantValueExpression":
      return try constantExpression(o, depth: depth)
    case "NSSelfExpression":
      return DecodedNode(node: Expression(.evaluatedObject), height: 1, size: 1)
    case "NSVariableExpression":
      let name = try requiredString(o, "NSVariable")
      return DecodedNode(node: .variable(name), height: 1, size: 1)
    case "NSKeyPathExpression":
      return try keyPathExpression(o, depth: depth)
    case "NSKeyPathSpecifierExpression":
      let components = try keyPathComponents(try requiredString(o, "NSKeyPath"), in: o)
      let base = DecodedNode(node: Expression(.evaluatedObject), height: 1, size: 1)
      return try node(.keyPath(base: base.node, components: components), in: o, over: [base])
    case "NSFunctionExpression":
      return try functionExpression(o, depth: depth)
    case "NSAggregateExpression":
      var elements: [DecodedNode<Expression>] = []
      for index in try objectList(o, "NSCollection") ?? [] {
        elements.append(try expression(at: index, depth: depth))
      }
      return try node(.aggregate(elements.map(\.node)), in: o, over: elements)
    case "NSSubqueryExpression":
      return try subqueryExpression(o, depth: depth)
    case "NSTernaryExpression", "NSConditionalExpression":
      let condition = try predicate(at: try requiredReference(o, "NSPredicate"), depth: depth)
      let then = try expression(o, "NSTrueExpression", depth: depth)
      let else_ = try expression(o, "NSFalseExpression", depth: depth)
      return try measured(
        Expression(.ternary(condition: condition.node, then: then.node, else: else_.node)), in: o,
        heights: [condition.height, then.height, else_.height],
        sizes: [condition.size, then.size, else_.size])
    case "NSSetExpression":
      return try setExpression(o, depth: depth)
    case "NSVariableAssignmentExpression":
      let variable = try requiredString(o, "NSAssignmentVariable")
      let value = try expression(o, "NSSubexpression", depth: depth)
      return try node(.assignment(variable: variable, value: value.node), in: o, over: [value])
    case "NSFetchRequestExpression":
      let request = try expression(o, "NSFRExpression", depth: depth)
      let context = try expression(o, "NSMOCExpression", depth: depth)
      let countOnly = try bool(o, "NSCountOnlyFlag") ?? false
      return try node(
        .fetch(request: request.node, context: context.node, countOnly: countOnly), in: o,
        over: [request, context])
    case "NSAnyKeyExpression":
      throw failure(o, "ANYKEY has no form in mapc's expression language")
    case "NSSymbolicExpression":
      throw failure(o, "FIRST, LAST and SIZE may only be used as a subscript")
    case "NSBlockExpression":
      throw failure(o, "block expressions cannot be read")
    default:
      throw failure(o, "is not an expression class mapc reads")
    }
  }

  /// `NSKeyPathExpression`: `NSOperand` (SELF or any expression), `NSSelectorName`
  /// (`valueForKey:` / `valueForKeyPath:`), `NSArguments` = [`NSKeyPathSpecifierExpression`].
  private mutating func keyPathExpression(_ o: ArchivedObject, depth: Int)
    throws(ExpressionArchiveError) -> DecodedNode<Expression>
  {
    let selector = try requiredString(o, "NSSelectorName")
    guard selector == "valueForKey:" || selector == "valueForKeyPath:" else {
      throw failure(o, "a key path's selector must be valueForKey: or valueForKeyPath:, not '\(selector)'")
    }
    let arguments = try objectList(o, "NSArguments") ?? []
    guard arguments.count == 1, let path = try keyPathText(at: arguments[0]) else {
      throw failure(o, "a key path's NSArguments must hold one key path specifier")
    }
    return try keyPath(on: try expression(o, "NSOperand", depth: depth), path: path, in: o)
  }

  /// The text of a key path argument: an `NSKeyPathSpecifierExpression`, or a string constant;
  /// nil for anything else.
  func keyPathText(at index: Int) throws(ExpressionArchiveError) -> String? {
    let argument = try instance(index)
    switch argument.className {
    case "NSKeyPathSpecifierExpression":
      return try requiredString(argument, "NSKeyPath")
    case "NSConstantValueExpression":
      guard let value = try reference(argument, "NSConstantValue") else { return nil }
      if case .string(let text)? = try within(
        argument,
        { () throws(KeyedArchiveError) in
          try archive.resolve(.uid(UInt64(value)), "NSConstantValue")
        })
      {
        return text
      }
      return nil
    default:
      return nil
    }
  }

  /// `base.path`. Keys after a key path extend it, as the parser reads `(a.b).c` as `a.b.c`.
  func keyPath(on base: DecodedNode<Expression>, path: String, in o: ArchivedObject)
    throws(ExpressionArchiveError) -> DecodedNode<Expression>
  {
    let components = try keyPathComponents(path, in: o)
    if case .keyPath(let inner, let existing) = base.node.kind {
      let merged = Expression(.keyPath(base: inner, components: existing + components))
      return DecodedNode(node: merged, height: base.height, size: base.size)
    }
    return try node(.keyPath(base: base.node, components: components), in: o, over: [base])
  }

  func keyPathComponents(_ path: String, in o: ArchivedObject) throws(ExpressionArchiveError)
    -> [String]
  {
    let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard !components.contains(where: \.isEmpty) else {
      throw failure(o, "key path '\(path)' has an empty key")
    }
    return components
  }

  /// `NSSubqueryExpression`: `NSExpression` (the collection), `NSVariable` (a name, or an
  /// `NSVariableExpression`), `NSSubpredicate`.
  private mutating func subqueryExpression(_ o: ArchivedObject, depth: Int)
    throws(ExpressionArchiveError) -> DecodedNode<Expression>
  {
    let collection = try expression(o, "NSExpression", depth: depth)
    let variable: String
    if case .uid? = o["NSVariable"], let index = try reference(o, "NSVariable"),
      case .dictionary = archive.objects[index]
    {
      let variableObject = try instance(index)
      guard variableObject.className == "NSVariableExpression" else {
        throw failure(o, "NSVariable is neither a name nor a variable expression")
      }
      variable = try requiredString(variableObject, "NSVariable")
    } else {
      variable = try requiredString(o, "NSVariable")
    }
    let body = try predicate(at: try requiredReference(o, "NSSubpredicate"), depth: depth)
    return try measured(
      Expression(.subquery(collection: collection.node, variable: variable, predicate: body.node)),
      in: o, heights: [collection.height, body.height], sizes: [collection.size, body.size])
  }

  /// `NSSetExpression`: `NSExpressionType` 5 (UNION), 6 (INTERSECT) or 7 (MINUS),
  /// `NSLeftExpression`, `NSRightExpression`.
  private mutating func setExpression(_ o: ArchivedObject, depth: Int)
    throws(ExpressionArchiveError) -> DecodedNode<Expression>
  {
    let op: Expression.SetOperator
    switch try integer(o, "NSExpressionType") {
    case ArchiveVocabulary.ExpressionType.union?: op = .union
    case ArchiveVocabulary.ExpressionType.intersect?: op = .intersect
    case ArchiveVocabulary.ExpressionType.minus?: op = .minus
    case let other: throw failure(o, "NSExpressionType \(other.map(String.init) ?? "(missing)") is not a set operation")
    }
    let lhs = try expression(o, "NSLeftExpression", depth: depth)
    let rhs = try expression(o, "NSRightExpression", depth: depth)
    return try node(.setOperation(op, lhs.node, rhs.node), in: o, over: [lhs, rhs])
  }
}
