import Foundation
import MapJSON
import MapRuntime
import MapSyntax
import Testing

/// Evaluates formats as `mapc eval` does and records every format a test used, so the round-trip
/// suite can check parse → print → parse on all of them.
enum Eval {
  /// 2001-01-01T00:00:00Z + 1 day: what `now()` returns in these tests.
  static let now = 86_400.0

  /// The JSON text of an expression's value.
  static func value(_ format: String, object: String = "null", variables: String = "{}") throws -> String {
    let evaluator = try evaluator(variables)
    let parsed = try ExpressionParser.parseExpression(format)
    return evaluator.json(try evaluator.value(of: parsed, object: try ValueJSON.parseTagged(object), text: format))
  }

  /// Whether the predicate holds.
  static func holds(_ format: String, object: String = "null", variables: String = "{}") throws -> Bool {
    let evaluator = try evaluator(variables)
    let parsed = try ExpressionParser.parsePredicate(format)
    return try evaluator.evaluate(parsed, object: try ValueJSON.parseTagged(object), text: format)
  }

  /// The run-time error of evaluating an expression (`predicate`: a predicate), or nil.
  static func error(
    _ format: String, predicate: Bool = false, object: String = "null", variables: String = "{}"
  ) throws -> MigrationError? {
    do {
      if predicate {
        _ = try holds(format, object: object, variables: variables)
      } else {
        _ = try value(format, object: object, variables: variables)
      }
      return nil
    } catch let error as MigrationError {
      return error
    }
  }

  private static func evaluator(_ variables: String) throws -> ExpressionEvaluator {
    guard case .dictionary(let pairs) = try ValueJSON.parse(variables) else { return ExpressionEvaluator(now: now) }
    return ExpressionEvaluator(variables: Dictionary(uniqueKeysWithValues: pairs), now: now)
  }
}

/// `[expected, format]` rows for parameterized tests.
struct Row: Sendable, CustomStringConvertible {
  var format: String
  var expected: String
  var object: String = "null"
  var description: String { format }
}
