import Foundation
import MapRuntime
import Testing

/// The `NSExpression` documentation: expression types (constant, evaluated object, variable,
/// key path, function, aggregate, union/intersect/minus, subquery, conditional, block-less
/// FUNCTION) and the built-in functions of `init(forFunction:arguments:)`, whose rows in
/// `BuiltinFunction.all` carry examples with the results Apple documents.
@Suite struct NSExpressionDocumentationTests {
  @Test(arguments: BuiltinFunction.all.map(\.name))
  func functionExampleGivesItsDocumentedResult(_ name: String) throws {
    let f = try #require(BuiltinFunction.named(name))
    #expect(try Eval.value(f.example) == f.exampleResult, "\(f.example)")
  }

  /// A nil argument gives nil for every function that says so.
  @Test(
    arguments: BuiltinFunction.all.filter { $0.nilGivesNil && $0.arity > 0 && $0.arguments.first != .collection }.map(
      \.name))
  func nilArgumentGivesNil(_ name: String) throws {
    let f = try #require(BuiltinFunction.named(name))
    let args = f.arguments.indices.map { i in i == 0 ? "nil" : f.arguments[i] == .className ? "'NSString'" : "1" }
      .joined(separator: ", ")
    #expect(try Eval.value("\(name)(\(args))") == "null", "\(name)")
  }

  /// An argument of the wrong kind is a run-time error, as Foundation raises.
  static let wrongKinds: [(String, String)] = [
    ("add:to:(\"a\", 1)", "run-type-mismatch"), ("sqrt:(\"4\")", "run-type-mismatch"),
    ("uppercase:(1)", "run-type-mismatch"), ("bitwiseAnd:with:(1.5, 1)", "run-type-mismatch"),
    ("divide:by:(1, 0)", "run-arithmetic"), ("modulus:by:(1, 0)", "run-arithmetic"),
    ("distanceToLocation:fromLocation:(1, 2)", "run-type-mismatch"),
    ("castObject:toType:(\"x\", \"NSDate\")", "run-cast"),
    ("average:({\"a\"})", "run-type-mismatch"), ("objectFrom:withIndex:({1}, YES)", "run-type-mismatch"),
    ("max:({1, \"a\"})", "run-type-mismatch"), ("length:(5)", "run-type-mismatch"),
  ]

  @Test func wrongArgumentKindsAreErrors() throws {
    for (format, id) in Self.wrongKinds {
      let code = try Eval.error(format)?.code
      #expect(code == id, "\(format): \(code ?? "no error")")
    }
  }

  /// Arithmetic: integers stay integers (NSExpression "7 / 2" is 3), any double makes a double;
  /// `**` is raise:toPower:. NSHipster's "4 + 5 - 2**3" is 1.
  static let arithmetic: [Row] = [
    Row(format: "4 + 5 - 2**3", expected: "1"),
    Row(format: "7 / 2", expected: "3"),
    Row(format: "-7 / 2", expected: "-3"),
    Row(format: "7 / 2.0", expected: "3.5"),
    Row(format: "(24 - 18) / 87", expected: "0"),
    Row(format: "(24 - 18) / 87.0 * 100", expected: "6.896551724137931"),
    Row(format: "2 * 3 + 1", expected: "7"),
    Row(format: "-(2 + 3)", expected: "-5"),
    Row(format: "9223372036854775807 + 1", expected: "9.223372036854776e+18"),
    Row(format: "1.5 + 1", expected: "2.5"),
  ]

  /// The other expression types.
  static let expressionTypes: [Row] = [
    Row(format: "SELF", expected: #"{"a":1}"#, object: #"{"a": 1}"#),
    Row(format: "a", expected: "1", object: #"{"a": 1}"#),
    Row(format: "a.b.c", expected: #""x""#, object: #"{"a": {"b": {"c": "x"}}}"#),
    Row(format: "missing.key", expected: "null", object: #"{"missing": null}"#),
    Row(format: "items.name", expected: #"["p","q"]"#, object: #"{"items": [{"name": "p"}, {"name": "q"}]}"#),
    Row(
      format: "items.@distinctUnionOfObjects.k", expected: "[1,2]",
      object: #"{"items": [{"k": 1}, {"k": 2}, {"k": 1}]}"#),
    Row(format: "items.@unionOfObjects.k", expected: "[1,2,1]", object: #"{"items": [{"k": 1}, {"k": 2}, {"k": 1}]}"#),
    Row(format: "items.@min.k", expected: "1", object: #"{"items": [{"k": 1}, {"k": 2}]}"#),
    Row(format: "{1, 'a', nil}", expected: #"[1,"a",null]"#),
    Row(format: "{1, 2} UNION {2, 3}", expected: "[1,2,3]"),
    Row(format: "{1, 2} INTERSECT {2, 3}", expected: "[2]"),
    Row(format: "{1, 2} MINUS {2, 3}", expected: "[1]"),
    Row(format: "SUBQUERY(SELF, $x, $x > 1)", expected: "[2,3]", object: "[1, 2, 3]"),
    Row(format: "TERNARY(SELF > 1, 'big', 'small')", expected: #""big""#, object: "2"),
    Row(format: "CAST('42', 'NSNumber')", expected: "42"),
    Row(format: "CAST(0, 'NSDate')", expected: #""2001-01-01T00:00:00Z""#),
    Row(format: "CAST(17, 'NSString')", expected: #""17""#),
    Row(format: "FUNCTION('abc', 'uppercaseString')", expected: #""ABC""#),
    Row(format: "FUNCTION(SELF, 'valueForKey:', 'a')", expected: "1", object: #"{"a": 1}"#),
    Row(format: "$x := 2", expected: "2"),
    Row(format: "now()", expected: #""2001-01-02T00:00:00Z""#),
    Row(format: "SELF[1]", expected: #""b""#, object: #"["a", "b"]"#),
    Row(format: "SELF['k']", expected: "5", object: #"{"k": 5}"#),
    Row(format: "SELF[LAST]", expected: #""b""#, object: #"["a", "b"]"#),
  ]

  static let all = arithmetic + expressionTypes

  @Test(arguments: arithmetic) func arithmeticRules(_ row: Row) throws {
    #expect(try Eval.value(row.format, object: row.object) == row.expected)
  }

  @Test(arguments: expressionTypes) func expressionType(_ row: Row) throws {
    #expect(try Eval.value(row.format, object: row.object) == row.expected)
  }

  @Test func expressionTypeErrors() throws {
    #expect(try Eval.error("a.b", object: "5")?.code == "run-unknown-key")
    #expect(try Eval.error("CAST(SELF, 'NSDate')", object: #""x""#)?.code == "run-cast")
    #expect(try Eval.error("FUNCTION(1, 'noSuchSelector')")?.code == "run-unknown-selector")
    #expect(try Eval.error("TERNARY(SELF < 'a', 1, 2)", object: "1")?.code == "run-type-mismatch")
    #expect(try Eval.error("$nope")?.code == "run-unknown-variable")
  }
}
