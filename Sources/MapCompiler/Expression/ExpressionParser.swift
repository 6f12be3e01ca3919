import MapRuntime

/// Parses NSExpression and NSPredicate text as mapping models write it (`$source.name`,
/// `FUNCTION($manager, "…", …)`, `image != nil`). The language is specified in
/// `Specs/expressions.md`; errors carry a stable rule id and UTF-8 byte offsets.
public enum ExpressionParser {
  /// The deepest nesting accepted: parentheses, calls, brackets, unary operators and each
  /// operator of a chain of binary operators count one level.
  public static let maxDepth = 200
  /// The longest text accepted, in UTF-8 bytes.
  public static let maxInputBytes = 65_536

  /// Parses one expression that fills the whole of `text`.
  public static func parseExpression(_ text: String) throws(ExpressionSyntaxError) -> Expression {
    var grammar = try ExpressionGrammar(text)
    let expression = try grammar.parseExpression()
    try grammar.expectEnd(of: "expression")
    return expression
  }

  /// Parses one predicate that fills the whole of `text`.
  public static func parsePredicate(_ text: String) throws(ExpressionSyntaxError) -> Predicate {
    var grammar = try ExpressionGrammar(text)
    let predicate = try grammar.parsePredicateArgument()
    try grammar.expectEnd(of: "predicate")
    return predicate
  }
}

/// The recursive-descent parser over the tokens of one text. The grammar productions live in
/// the `ExpressionGrammar+…` files.
struct ExpressionGrammar {
  let text: String
  let tokens: [ExpressionToken]
  var index = 0
  var depth = 0

  init(_ text: String) throws(ExpressionSyntaxError) {
    let length = text.utf8.count
    guard length <= ExpressionParser.maxInputBytes else {
      throw ExpressionSyntaxError(
        .tooLong,
        "the text is \(length) bytes long; at most \(ExpressionParser.maxInputBytes) are allowed",
        span: SourceSpan(start: 0, end: length))
    }
    self.text = text
    self.tokens = try ExpressionLexer.tokenize(text)
    if tokens.count == 1 {
      throw ExpressionSyntaxError(
        .empty, "expected an expression but the text is empty",
        span: SourceSpan(start: 0, end: length))
    }
  }

  // MARK: - Token access

  var current: ExpressionToken { tokens[index] }

  func peek(_ ahead: Int) -> ExpressionToken {
    tokens[min(index + ahead, tokens.count - 1)]
  }

  @discardableResult
  mutating func advance() -> ExpressionToken {
    let token = tokens[index]
    if index < tokens.count - 1 { index += 1 }
    return token
  }

  /// The end offset of the last token consumed.
  var previousEnd: Int { index > 0 ? tokens[index - 1].span.end : 0 }

  /// The span from `start` to the end of the last token consumed.
  func span(from start: SourceSpan) -> SourceSpan {
    SourceSpan(start: start.start, end: max(start.end, previousEnd))
  }

  /// The source text of `span`, shortened for messages.
  func excerpt(_ span: SourceSpan) -> String {
    let bytes = Array(text.utf8)
    guard span.start >= 0, span.end <= bytes.count, span.start <= span.end else { return "" }
    let full = String(decoding: bytes[span.start..<span.end], as: UTF8.self)
    guard full.count > 40 else { return full }
    return String(full.prefix(37)) + "..."
  }

  // MARK: - Errors and expectations

  /// "expected X but found Y" at the current token.
  func unexpected(_ expected: String) -> ExpressionSyntaxError {
    ExpressionSyntaxError(
      .syntax, "expected \(expected) but found \(current.quoted)", span: current.span)
  }

  mutating func expect(_ symbol: ExpressionToken.Symbol, _ expected: String)
    throws(ExpressionSyntaxError) -> ExpressionToken
  {
    guard current.isSymbol(symbol) else { throw unexpected(expected) }
    return advance()
  }

  /// Consumes the `closer` that matches `opener`, or fails with a note at the opener.
  mutating func expectClosing(
    _ closer: ExpressionToken.Symbol, opener: ExpressionToken, _ openerText: String
  ) throws(ExpressionSyntaxError) -> ExpressionToken {
    guard current.isSymbol(closer) else {
      throw ExpressionSyntaxError(
        .syntax,
        "expected '\(closer.rawValue)' to close '\(openerText)' but found \(current.quoted)",
        span: current.span, notes: [.init("'\(openerText)' opened here", span: opener.span)])
    }
    return advance()
  }

  func expectEnd(of what: String) throws(ExpressionSyntaxError) {
    guard current.kind == .end else {
      var message = "unexpected \(current.quoted) after the end of the \(what)"
      if what == "expression", comparisonOperator(current) != nil {
        message += "; a comparison is a predicate, not an expression"
      }
      throw ExpressionSyntaxError(.trailingInput, message, span: current.span)
    }
  }

  /// Enters one more level of nesting; fails beyond `ExpressionParser.maxDepth`.
  mutating func descend() throws(ExpressionSyntaxError) {
    depth += 1
    if depth > ExpressionParser.maxDepth {
      throw ExpressionSyntaxError(
        .tooDeep,
        "the text is nested more than \(ExpressionParser.maxDepth) levels deep",
        span: current.span)
    }
  }
}
