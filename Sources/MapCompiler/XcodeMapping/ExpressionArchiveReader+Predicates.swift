import MapArchives
import MapRuntime

/// `NSPredicate` subclasses and the predicate operator objects onto `Predicate`.
extension ExpressionArchiveDecoder {
  /// The predicate object at `index`, decoded once.
  mutating func predicate(at index: Int, depth: Int) throws(ExpressionArchiveError)
    -> DecodedNode<Predicate>
  {
    try decodeOnce(index, depth: depth, cache: \.predicates) { d, o, depth throws(ExpressionArchiveError) in
      try d.decodePredicate(o, depth: depth)
    }
  }

  private mutating func decodePredicate(_ o: ArchivedObject, depth: Int)
    throws(ExpressionArchiveError) -> DecodedNode<Predicate>
  {
    switch o.className {
    case "NSTruePredicate":
      return DecodedNode(node: .truePredicate, height: 1, size: 1)
    case "NSFalsePredicate":
      return DecodedNode(node: Predicate(.constant(false)), height: 1, size: 1)
    case "NSCompoundPredicate":
      return try compoundPredicate(o, depth: depth)
    case "NSComparisonPredicate":
      return try comparisonPredicate(o, depth: depth)
    default:
      throw failure(o, "is not a predicate class mapc reads")
    }
  }

  /// `NSCompoundPredicate`: `NSCompoundPredicateType` (0 NOT, 1 AND, 2 OR) and
  /// `NSSubpredicates`. As Foundation prints them, an AND of nothing is `TRUEPREDICATE`, an OR
  /// of nothing `FALSEPREDICATE`, and an AND or OR of one predicate that predicate.
  private mutating func compoundPredicate(_ o: ArchivedObject, depth: Int)
    throws(ExpressionArchiveError) -> DecodedNode<Predicate>
  {
    let type = try integer(o, "NSCompoundPredicateType")
    var operands: [DecodedNode<Predicate>] = []
    for index in try objectList(o, "NSSubpredicates") ?? [] {
      operands.append(try predicate(at: index, depth: depth))
    }
    let kind: Predicate.Kind
    switch type {
    case ArchiveVocabulary.notType?:
      guard operands.count == 1 else {
        throw failure(o, "a NOT predicate must hold one subpredicate, not \(operands.count)")
      }
      kind = .not(operands[0].node)
    case ArchiveVocabulary.andType?, ArchiveVocabulary.orType?:
      let isAnd = type == ArchiveVocabulary.andType
      if operands.isEmpty { return DecodedNode(node: Predicate(.constant(isAnd)), height: 1, size: 1) }
      if operands.count == 1 { return operands[0] }
      kind = isAnd ? .and(operands.map(\.node)) : .or(operands.map(\.node))
    default:
      throw failure(o, "NSCompoundPredicateType \(type.map(String.init) ?? "(missing)") is not 0, 1 or 2")
    }
    return try measured(
      Predicate(kind), in: o, heights: operands.map(\.height), sizes: operands.map(\.size))
  }

  /// `NSComparisonPredicate`: `NSLeftExpression`, `NSRightExpression`, `NSPredicateOperator`.
  private mutating func comparisonPredicate(_ o: ArchivedObject, depth: Int)
    throws(ExpressionArchiveError) -> DecodedNode<Predicate>
  {
    let operatorObject = try instance(try requiredReference(o, "NSPredicateOperator"))
    let (op, modifier, options) = try comparisonOperator(operatorObject)
    let lhs = try expression(o, "NSLeftExpression", depth: depth)
    let rhs = try expression(o, "NSRightExpression", depth: depth)
    let comparison = Comparison(lhs: lhs.node, op: op, rhs: rhs.node, modifier: modifier, options: options)
    return try measured(
      Predicate(.comparison(comparison)), in: o, heights: [lhs.height, rhs.height],
      sizes: [lhs.size, rhs.size])
  }

  /// An operator object: `NSOperatorType`, `NSModifier`, and the options under the key its class
  /// uses (`NSOptions` for equality and ordering, `NSFlags` for the string and IN / CONTAINS
  /// operators). `NSNegate` of an equality must agree with == / !=.
  private func comparisonOperator(_ o: ArchivedObject) throws(ExpressionArchiveError)
    -> (ComparisonOperator, ComparisonModifier, ComparisonOptions)
  {
    let known = [
      "NSEqualityPredicateOperator", "NSComparisonPredicateOperator", "NSLikePredicateOperator",
      "NSMatchingPredicateOperator", "NSSubstringPredicateOperator", "NSInPredicateOperator",
      "NSBetweenPredicateOperator", "NSStringPredicateOperator",
    ]
    if o.className == "NSCustomPredicateOperator" {
      let selector = (try? string(o, "NSSelectorName")).flatMap { $0 } ?? "?"
      throw failure(o, "a comparison by the custom selector '\(selector)' has no form in mapc's expression language")
    }
    guard known.contains(o.className) else { throw failure(o, "is not a predicate operator class mapc reads") }
    guard let type = try integer(o, "NSOperatorType") else { throw failure(o, "NSOperatorType is missing") }
    guard let op = ArchiveVocabulary.operatorTypes.first(where: { $0.1 == type })?.0 else {
      throw failure(o, "NSOperatorType \(type) is not an operator mapc knows")
    }
    if o.className == "NSEqualityPredicateOperator", let negate = try bool(o, "NSNegate"),
      negate != (op == .notEqual)
    {
      throw failure(o, "NSNegate \(negate) contradicts NSOperatorType \(type)")
    }
    if o.className == "NSSubstringPredicateOperator", let position = try integer(o, "NSPosition") {
      let expected = op == .beginsWith ? ArchiveVocabulary.beginsWithPosition : ArchiveVocabulary.endsWithPosition
      guard position == expected, op == .beginsWith || op == .endsWith else {
        throw failure(o, "NSPosition \(position) contradicts NSOperatorType \(type)")
      }
    }
    let modifier: ComparisonModifier
    switch try integer(o, "NSModifier") ?? ArchiveVocabulary.directModifier {
    case ArchiveVocabulary.directModifier: modifier = .direct
    case ArchiveVocabulary.allModifier: modifier = .all
    case ArchiveVocabulary.anyModifier: modifier = .any
    case let other: throw failure(o, "NSModifier \(other) is not 0 (direct), 1 (ALL) or 2 (ANY)")
    }
    let options0 = try integer(o, "NSOptions")
    let flags0 = try integer(o, "NSFlags")
    let bits = options0 ?? flags0 ?? 0
    guard bits >= 0, bits <= 7 else {
      throw failure(o, "comparison options \(bits) hold more than [c] (1), [d] (2) and [n] (4)")
    }
    let options = ComparisonOptions(rawValue: UInt8(bits))
    guard options.isEmpty || op.acceptsOptions else {
      throw failure(o, "the operator \(op.rawValue) takes no [c], [d] or [n] options")
    }
    return (op, modifier, options)
  }
}
