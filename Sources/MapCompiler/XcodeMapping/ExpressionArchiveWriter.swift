import MapArchives
import MapRuntime

/// Writes expressions, predicates and user info as the `NSKeyedArchiver` archives Xcode stores
/// in `xcmapping.xml` (`valueexpressiondata`, `userinfodata`): the classes and keys Foundation
/// writes, objects numbered in the order `NSKeyedArchiver` numbers them (an object, then what
/// its fields refer to, then its class), and for the shapes seen in real Xcode files the same
/// key order within each object. `ExpressionArchiveReader` reads them back to the same tree.
///
/// Two trees are written in the form Foundation gives them rather than their own: `NONE a op b`
/// is NOT (ANY a op b), and `CAST("Name", "Class")` is a class constant. A decimal literal with
/// more than 38 significant digits is rounded to 38, as `NSDecimalNumber` keeps no more.
/// Classes and keys: `Specs/xcmappingmodel-expressions.md`.
public enum ExpressionArchiveWriter {
  /// An `NSExpression` archive of `e`.
  public static func archive(_ e: Expression) -> [UInt8] {
    var encoder = ExpressionArchiveEncoder()
    let root = encoder.expression(e)
    return encoder.bytes(root: root)
  }

  /// An `NSPredicate` archive of `p`.
  public static func archive(_ p: Predicate) -> [UInt8] {
    var encoder = ExpressionArchiveEncoder()
    let root = encoder.predicate(p)
    return encoder.bytes(root: root)
  }

  /// An `NSMutableDictionary` archive of `info`: string keys and string values, in order (a key
  /// given twice is written once, with its last value, as a dictionary holds it).
  public static func archive(_ info: UserInfo) -> [UInt8] {
    var encoder = ExpressionArchiveEncoder()
    var keys: [String] = []
    var values: [String: String] = [:]
    for entry in info.entries {
      if values.updateValue(entry.value, forKey: entry.key) == nil { keys.append(entry.key) }
    }
    let slot = encoder.builder.reserve()
    let keyRefs = keys.map { encoder.builder.string($0) }
    let valueRefs = keys.map { encoder.builder.string(values[$0]) }
    encoder.fill(
      slot, "NSMutableDictionary", [.init("NS.keys", .array(keyRefs)), .init("NS.objects", .array(valueRefs))])
    return encoder.bytes(root: slot)
  }
}

/// Builds one archive. Every object is reserved before its fields are encoded, so that objects
/// are numbered as `NSKeyedArchiver` numbers them.
struct ExpressionArchiveEncoder {
  var builder = KeyedArchiveBuilder()

  func type(_ value: Int64) -> PropertyListValue.Entry { .init("NSExpressionType", .integer(value)) }

  mutating func fill(_ slot: PropertyListValue, _ className: String, _ fields: [PropertyListValue.Entry]) {
    builder.fill(slot, className, classes: ArchiveVocabulary.classChain(className), fields: fields)
  }

  /// An array object of already encoded elements; `encode` is called for the elements after
  /// the array is reserved.
  mutating func array(_ className: String = "NSArray", _ encode: (inout Self) -> [PropertyListValue])
    -> PropertyListValue
  {
    let slot = builder.reserve()
    let elements = encode(&self)
    fill(slot, className, [.init("NS.objects", .array(elements))])
    return slot
  }

  mutating func expression(_ e: Expression) -> PropertyListValue {
    let slot = builder.reserve()
    typealias T = ArchiveVocabulary.ExpressionType
    switch e.kind {
    case .constant(let constant):
      let value = self.constant(constant)
      fill(slot, "NSConstantValueExpression", [type(T.constant), .init("NSConstantValue", value)])
    case .evaluatedObject:
      fill(slot, "NSSelfExpression", [type(T.evaluatedObject)])
    case .variable(let name):
      let nameRef = builder.string(name)
      fill(slot, "NSVariableExpression", [type(T.variable), .init("NSVariable", nameRef)])
    case .keyPath(let base, let components):
      let onSelf = base.kind == .evaluatedObject
      let selector = onSelf && components.count == 1 ? "valueForKey:" : "valueForKeyPath:"
      let selectorRef = builder.string(selector)
      let operand = expression(base)
      let arguments = array("NSMutableArray") { encoder in
        let specifier = encoder.builder.reserve()
        let path = encoder.builder.string(components.joined(separator: "."))
        encoder.fill(
          specifier, "NSKeyPathSpecifierExpression", [encoder.type(T.keyPathSpecifier), .init("NSKeyPath", path)])
        return [specifier]
      }
      fill(slot, "NSKeyPathExpression", function(onSelf ? T.keyPath : T.function, selectorRef, operand, arguments))
    case .function(let name, let arguments):
      utilityCall(slot, name, arguments.map { .expression($0) })
    case .index(let base, let subscript_):
      let index: Argument
      switch subscript_ {
      case .expression(let value): index = .expression(value)
      case .first: index = .symbol("FIRST")
      case .last: index = .symbol("LAST")
      case .size: index = .symbol("SIZE")
      }
      utilityCall(slot, ArchiveVocabulary.indexSelector, [.expression(base), index])
    case .cast(let value, let typeName):
      if typeName == ArchiveVocabulary.classCastType, case .constant(.string(let name)) = value.kind {
        let nameRef = builder.string(name)
        fill(slot, "NSConstantValueExpression", [type(T.constant), .init("NSConstantValueClassName", nameRef)])
      } else {
        utilityCall(slot, ArchiveVocabulary.castSelector, [.expression(value), .expression(.string(typeName))])
      }
    case .selector(let target, let selector, let arguments):
      let selectorRef = builder.string(selector)
      let operand = expression(target)
      let list = array { encoder in arguments.map { encoder.expression($0) } }
      fill(slot, "NSFunctionExpression", function(T.function, selectorRef, operand, list))
    case .aggregate(let elements):
      let list = array { encoder in elements.map { encoder.expression($0) } }
      fill(slot, "NSAggregateExpression", [type(T.aggregate), .init("NSCollection", list)])
    case .fetch(let request, let context, let countOnly):
      let requestRef = expression(request)
      let contextRef = expression(context)
      fill(
        slot, "NSFetchRequestExpression",
        [
          type(T.fetch), .init("NSFRExpression", requestRef), .init("NSMOCExpression", contextRef),
          .init("NSCountOnlyFlag", .bool(countOnly)),
        ])
    case .ternary(let condition, let then, let else_):
      let conditionRef = predicate(condition)
      let thenRef = expression(then)
      let elseRef = expression(else_)
      fill(
        slot, "NSTernaryExpression",
        [
          type(T.conditional), .init("NSPredicate", conditionRef), .init("NSTrueExpression", thenRef),
          .init("NSFalseExpression", elseRef),
        ])
    case .subquery(let collection, let variable, let body):
      let collectionRef = expression(collection)
      let variableRef = builder.string(variable)
      let bodyRef = predicate(body)
      fill(
        slot, "NSSubqueryExpression",
        [
          type(T.subquery), .init("NSExpression", collectionRef), .init("NSVariable", variableRef),
          .init("NSSubpredicate", bodyRef),
        ])
    case .assignment(let variable, let value):
      let variableRef = builder.string(variable)
      let valueRef = expression(value)
      fill(
        slot, "NSVariableAssignmentExpression",
        [
          type(T.variable), .init("NSAssignmentVariable", variableRef), .init("NSSubexpression", valueRef),
        ])
    case .setOperation(let op, let lhs, let rhs):
      let code = op == .union ? T.union : op == .intersect ? T.intersect : T.minus
      let lhsRef = expression(lhs)
      let rhsRef = expression(rhs)
      fill(
        slot, "NSSetExpression", [type(code), .init("NSLeftExpression", lhsRef), .init("NSRightExpression", rhsRef)])
    }
    return slot
  }

  enum Argument {
    case expression(Expression)
    /// `FIRST`, `LAST`, `SIZE`: an `NSSymbolicExpression`.
    case symbol(String)
  }

  /// The fields of an `NSFunctionExpression` (or `NSKeyPathExpression`), in encoding order.
  func function(
    _ code: Int64, _ selector: PropertyListValue, _ operand: PropertyListValue, _ arguments: PropertyListValue
  )
    -> [PropertyListValue.Entry]
  {
    [type(code), .init("NSSelectorName", selector), .init("NSOperand", operand), .init("NSArguments", arguments)]
  }

  /// A built-in function: an `NSFunctionExpression` sent to the class `_NSPredicateUtilities`.
  private mutating func utilityCall(_ slot: PropertyListValue, _ name: String, _ arguments: [Argument]) {
    let selectorRef = builder.string(name)
    let operand = builder.reserve()
    let utilities = builder.string(ArchiveVocabulary.predicateUtilities)
    fill(
      operand, "NSConstantValueExpression",
      [
        type(ArchiveVocabulary.ExpressionType.constant), .init("NSConstantValueClassName", utilities),
      ])
    let list = array { encoder in
      arguments.map { argument in
        switch argument {
        case .expression(let e): return encoder.expression(e)
        case .symbol(let token):
          let symbol = encoder.builder.reserve()
          let tokenRef = encoder.builder.string(token)
          encoder.fill(
            symbol, "NSSymbolicExpression",
            [
              encoder.type(ArchiveVocabulary.ExpressionType.symbolic), .init("NSToken", tokenRef),
            ])
          return symbol
        }
      }
    }
    fill(slot, "NSFunctionExpression", function(ArchiveVocabulary.ExpressionType.function, selectorRef, operand, list))
  }

  /// The `NSConstantValue` of a constant: a number, boolean or string object, `$null`, or an
  /// `NSDecimalNumber`.
  private mutating func constant(_ c: Expression.Constant) -> PropertyListValue {
    switch c {
    case .null: return KeyedArchiveBuilder.null
    case .bool(let flag): return builder.object(.bool(flag))
    case .integer(let number): return builder.object(.integer(number))
    case .double(let number): return builder.object(.real(number))
    case .string(let text): return builder.string(text)
    case .decimal(let text):
      let slot = builder.reserve()
      let (mantissa, exponent, negative) = DecimalNumberParts.parts(of: text)
      let length = (mantissa.lastIndex(where: { $0 != 0 }) ?? -1) + 1
      let bytes = mantissa.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
      var probe = mantissa
      let compact =
        length == 0 || !DecimalNumberParts.text(mantissa: &probe, exponent: 0, negative: false).hasSuffix("0")
      fill(
        slot, "NSDecimalNumber",
        [
          .init("NS.exponent", .integer(Int64(exponent))), .init("NS.length", .integer(Int64(length))),
          .init("NS.negative", .bool(negative)), .init("NS.compact", .bool(compact)),
          .init("NS.mantissa.bo", .integer(1)), .init("NS.mantissa", .data(bytes)),
        ])
      return slot
    }
  }

  /// The archive's bytes, each object's keys in the order Apple's archives have them.
  func bytes(root: PropertyListValue) -> [UInt8] {
    guard case .dictionary(var top) = builder.plist(root: root),
      let at = top.firstIndex(where: { $0.key == "$objects" }),
      case .array(let objects) = top[at].value
    else { return builder.archive(root: root) }
    top[at].value = .array(objects.map { ArchiveKeyOrder.ordered($0, objects: objects) })
    return BinaryPropertyListWriter.write(.dictionary(top))
  }
}
