import MapArchives
import MapRuntime
import MapSyntax

/// `NSFunctionExpression` and `NSConstantValueExpression`.
extension ExpressionArchiveDecoder {
  /// `NSFunctionExpression`: `NSOperand`, `NSSelectorName`, `NSArguments`.
  ///
  /// Sent to the class `_NSPredicateUtilities` it is a built-in function (`.function`), except
  /// `objectFrom:withIndex:` (a subscript, `.index`) and `castObject:toType:` (`.cast`). Sent to
  /// anything else it is `FUNCTION(target, "selector", …)` (`.selector`). A `valueForKey:` or
  /// `valueForKeyPath:` with one key path specifier is a key path.
  mutating func functionExpression(_ o: ArchivedObject, depth: Int)
    throws(ExpressionArchiveError) -> DecodedNode<Expression>
  {
    let selector = try requiredString(o, "NSSelectorName")
    let operandIndex = try requiredReference(o, "NSOperand")
    let argumentIndexes = try objectList(o, "NSArguments") ?? []

    if (selector == "valueForKey:" || selector == "valueForKeyPath:"), argumentIndexes.count == 1,
      try instance(argumentIndexes[0]).className == "NSKeyPathSpecifierExpression",
      let path = try keyPathText(at: argumentIndexes[0])
    {
      return try keyPath(on: try expression(at: operandIndex, depth: depth), path: path, in: o)
    }

    if try classConstantName(at: operandIndex) == ArchiveVocabulary.predicateUtilities {
      if selector == ArchiveVocabulary.indexSelector, argumentIndexes.count == 2 {
        return try indexExpression(o, argumentIndexes, depth: depth)
      }
      if selector == ArchiveVocabulary.castSelector, argumentIndexes.count == 2 {
        return try castExpression(o, argumentIndexes, depth: depth)
      }
      guard ExpressionSyntax.builtinFunctions.contains(selector) else {
        throw failure(o, "'\(selector)' is not a built-in function mapc knows")
      }
      try checkArity(selector, argumentIndexes.count, in: o)
      let arguments = try expressions(argumentIndexes, depth: depth)
      return try node(.function(name: selector, arguments: arguments.map(\.node)), in: o, over: arguments)
    }

    guard ExpressionSyntax.isSelector(selector) else {
      throw failure(o, "'\(selector)' is not a selector")
    }
    try checkArity(selector, argumentIndexes.count, in: o)
    let target = try expression(at: operandIndex, depth: depth)
    let arguments = try expressions(argumentIndexes, depth: depth)
    return try node(
      .selector(target: target.node, selector: selector, arguments: arguments.map(\.node)), in: o,
      over: [target] + arguments)
  }

  private mutating func expressions(_ indexes: [Int], depth: Int) throws(ExpressionArchiveError)
    -> [DecodedNode<Expression>]
  {
    var result: [DecodedNode<Expression>] = []
    result.reserveCapacity(indexes.count)
    for index in indexes { result.append(try expression(at: index, depth: depth)) }
    return result
  }

  private func checkArity(_ selector: String, _ count: Int, in o: ArchivedObject)
    throws(ExpressionArchiveError)
  {
    let expected = ExpressionSyntax.arity(ofSelector: selector)
    guard count == expected else {
      throw failure(
        o, "'\(selector)' takes \(expected) argument\(expected == 1 ? "" : "s") but NSArguments holds \(count)")
    }
  }

  /// The class name held by a class constant (`NSConstantValueClassName`); nil for any other
  /// object.
  func classConstantName(at index: Int) throws(ExpressionArchiveError) -> String? {
    let operand = try instance(index)
    guard operand.className == "NSConstantValueExpression",
      archive.isNull(operand["NSConstantValue"])
    else { return nil }
    return try string(operand, "NSConstantValueClassName")
  }

  /// `objectFrom:withIndex:(base, index)`: `base[index]`, or `base[FIRST]` / `[LAST]` / `[SIZE]`
  /// when the index is an `NSSymbolicExpression`.
  private mutating func indexExpression(_ o: ArchivedObject, _ arguments: [Int], depth: Int)
    throws(ExpressionArchiveError) -> DecodedNode<Expression>
  {
    let base = try expression(at: arguments[0], depth: depth)
    let indexObject = try instance(arguments[1])
    if indexObject.className == "NSSymbolicExpression" {
      let subscript_: Expression.Subscript
      switch try requiredString(indexObject, "NSToken").uppercased() {
      case "FIRST": subscript_ = .first
      case "LAST": subscript_ = .last
      case "SIZE": subscript_ = .size
      case let token: throw failure(indexObject, "'\(token)' is not FIRST, LAST or SIZE")
      }
      return try node(.index(base: base.node, subscript_), in: o, over: [base])
    }
    let index = try expression(at: arguments[1], depth: depth)
    return try node(.index(base: base.node, .expression(index.node)), in: o, over: [base, index])
  }

  /// `castObject:toType:(value, "Type")`: `CAST(value, "Type")`.
  private mutating func castExpression(_ o: ArchivedObject, _ arguments: [Int], depth: Int)
    throws(ExpressionArchiveError) -> DecodedNode<Expression>
  {
    let value = try expression(at: arguments[0], depth: depth)
    let type = try expression(at: arguments[1], depth: depth)
    guard case .constant(.string(let name)) = type.node.kind, ExpressionSyntax.isIdentifier(name) else {
      throw failure(o, "the type of a cast must be a class name in a string constant")
    }
    return try node(.cast(value: value.node, type: name), in: o, over: [value])
  }

  /// `NSConstantValueExpression`: `NSConstantValue` (a string, number, boolean, decimal number,
  /// collection of those, or nil), or `NSConstantValueClassName` for a class, read as
  /// `CAST("Name", "Class")`.
  mutating func constantExpression(_ o: ArchivedObject, depth: Int)
    throws(ExpressionArchiveError) -> DecodedNode<Expression>
  {
    if let value = o["NSConstantValue"], !archive.isNull(value) {
      return try constant(value, in: o, depth: depth)
    }
    if let name = try string(o, "NSConstantValueClassName") {
      let nameNode = DecodedNode(node: Expression.string(name), height: 1, size: 1)
      return try node(.cast(value: nameNode.node, type: ArchiveVocabulary.classCastType), in: o, over: [nameNode])
    }
    return DecodedNode(node: .null, height: 1, size: 1)
  }

  /// A constant value: inline, or an object it refers to.
  private mutating func constant(_ value: PropertyListValue, in o: ArchivedObject, depth: Int)
    throws(ExpressionArchiveError) -> DecodedNode<Expression>
  {
    let leaf: Expression.Constant
    switch value {
    case .string(let text): leaf = .string(text)
    case .integer(let number): leaf = .integer(number)
    case .bool(let flag): leaf = .bool(flag)
    case .real(let number):
      guard number.isFinite else { throw failure(o, "the constant \(number) is not a finite number") }
      leaf = .double(number)
    case .uid:
      let index = try within(o) { () throws(KeyedArchiveError) in try archive.reference(value, "NSConstantValue") }
      switch archive.objects[index] {
      case .dictionary: return try constantObject(at: index, depth: depth)
      case .uid: throw failure(o, "NSConstantValue refers to a reference")
      case let target: return try constant(target, in: o, depth: depth)
      }
    case .null: leaf = .null
    case .date: throw failure(o, "date constants have no form in mapc's expression language")
    case .data: throw failure(o, "data constants have no form in mapc's expression language")
    case .array, .dictionary: throw failure(o, "NSConstantValue is not a value")
    }
    return DecodedNode(node: .constant(leaf), height: 1, size: 1)
  }

  /// A constant held by a class instance: a string, a null, a decimal number, or a collection
  /// (read as an aggregate of constants, `{1, 2}`).
  private mutating func constantObject(at index: Int, depth: Int) throws(ExpressionArchiveError)
    -> DecodedNode<Expression>
  {
    try enter(index, depth: depth)
    defer { inProgress.remove(index) }
    let o = try instance(index)
    if o.classes.contains("NSString") {
      return DecodedNode(node: .string(try requiredString(o, "NS.string")), height: 1, size: 1)
    }
    switch o.className {
    case "NSNull":
      return DecodedNode(node: .null, height: 1, size: 1)
    case "NSDecimalNumber", "NSDecimalNumberPlaceholder":
      return DecodedNode(node: .constant(try decimal(o)), height: 1, size: 1)
    case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet":
      let items =
        try within(o) { () throws(KeyedArchiveError) in try archive.array(.uid(UInt64(index)), "the collection") } ?? []
      var elements: [DecodedNode<Expression>] = []
      for item in items { elements.append(try constant(item, in: o, depth: depth + 1)) }
      return try node(.aggregate(elements.map(\.node)), in: o, over: elements)
    default:
      throw failure(o, "is not a constant mapc can read")
    }
  }

  /// An `NSDecimalNumber`: `NS.exponent`, `NS.negative`, `NS.mantissa` (eight 16-bit words,
  /// least significant first, in the byte order `NS.mantissa.bo`, 1 = little-endian), read as
  /// the parser reads the number Foundation prints for it.
  private func decimal(_ o: ArchivedObject) throws(ExpressionArchiveError) -> Expression.Constant {
    guard let exponent = try integer(o, "NS.exponent"), (-128...127).contains(exponent),
      case .data(let bytes)? = o["NS.mantissa"], bytes.count == 16
    else { throw failure(o, "is not a decimal number (NS.exponent, NS.mantissa)") }
    let littleEndian = (try integer(o, "NS.mantissa.bo") ?? 1) == 1
    var words: [UInt16] = (0..<8).map { i in
      let low = UInt16(bytes[2 * i]), high = UInt16(bytes[2 * i + 1])
      return littleEndian ? low | high << 8 : high | low << 8
    }
    let negative = try bool(o, "NS.negative") ?? false
    let text = DecimalNumberParts.text(mantissa: &words, exponent: Int(exponent), negative: negative)
    guard case .constant(let constant)? = try? ExpressionParser.parseExpression(text).kind else {
      throw failure(o, "the decimal number \(text) cannot be read as a literal")
    }
    return constant
  }
}
