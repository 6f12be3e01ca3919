import MapRuntime

/// The compiler's entry points to the expression parser, with errors as plain values.
enum ExpressionSyntax {
  struct Failure: Error, Sendable {
    var id: String
    var message: String
    /// UTF-8 offset of the fault in the parsed text.
    var offset: Int
  }

  static func parseExpression(_ text: String) -> Result<Expression, Failure> {
    .failure(Failure(id: "expr-syntax", message: "expression parser not available yet", offset: 0))
  }

  static func parsePredicate(_ text: String) -> Result<Predicate, Failure> {
    .failure(Failure(id: "expr-syntax", message: "expression parser not available yet", offset: 0))
  }
}
