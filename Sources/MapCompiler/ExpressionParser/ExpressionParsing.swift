import MapRuntime

/// The compiler's entry points to `ExpressionParser`, with errors as plain values.
enum ExpressionParsing {
  struct Failure: Error, Sendable {
    var id: String
    var message: String
    /// UTF-8 offset of the fault in the parsed text.
    var offset: Int
  }

  static func parseExpression(_ text: String) -> Result<Expression, Failure> {
    do {
      return .success(try ExpressionParser.parseExpression(text))
    } catch {
      return .failure(Failure(id: error.rule.rawValue, message: error.message, offset: max(0, error.span.start)))
    }
  }

  static func parsePredicate(_ text: String) -> Result<Predicate, Failure> {
    do {
      return .success(try ExpressionParser.parsePredicate(text))
    } catch {
      return .failure(Failure(id: error.rule.rawValue, message: error.message, offset: max(0, error.span.start)))
    }
  }
}
