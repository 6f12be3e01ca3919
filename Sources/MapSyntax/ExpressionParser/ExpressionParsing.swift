import MapRuntime

/// The compiler's entry points to `ExpressionParser`, with errors as plain values.
package enum ExpressionParsing {
  package struct Failure: Error, Sendable {
    package var id: String
    package var message: String
    /// UTF-8 offset of the fault in the parsed text.
    package var offset: Int
  }

  package static func parseExpression(_ text: String) -> Result<Expression, Failure> {
    do {
      return .success(try ExpressionParser.parseExpression(text))
    } catch {
      return .failure(Failure(id: error.rule.rawValue, message: error.message, offset: max(0, error.span.start)))
    }
  }

  package static func parsePredicate(_ text: String) -> Result<Predicate, Failure> {
    do {
      return .success(try ExpressionParser.parsePredicate(text))
    } catch {
      return .failure(Failure(id: error.rule.rawValue, message: error.message, offset: max(0, error.span.start)))
    }
  }
}
