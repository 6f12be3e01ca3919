import MapRuntime

/// Parses NSExpression and NSPredicate text as mapping models write it (`$source.name`,
/// `FUNCTION($manager, "…", …)`, `image != nil`). The language is specified in
/// `Specs/expressions.md`; errors carry a stable rule id and UTF-8 byte offsets.
public enum ExpressionParser {
  /// The highest tree accepted: a constant, variable or `SELF` is one level, every other node
  /// one more than its highest child. Printing keeps the tree, so every accepted text prints to
  /// a text that is accepted again.
  public static let maxDepth = 100
  /// The deepest syntactic nesting accepted (parentheses, arguments, operands, `NOT`, unary
  /// minus): it bounds the parser's recursion. Canonical text of a tree of height `maxDepth`
  /// nests at most `2 × maxDepth + 4` levels.
  public static let maxNesting = 2 * maxDepth + 8
  /// The longest text accepted, in UTF-8 bytes.
  public static let maxInputBytes = 65_536

  /// Parses one expression that fills the whole of `text`.
  public static func parseExpression(_ text: String) throws(ExpressionSyntaxError) -> Expression {
    try parseWhole(text, as: "expression") { grammar throws(ExpressionSyntaxError) in
      try grammar.parseExpression().node
    }
  }

  /// Parses one predicate that fills the whole of `text`.
  public static func parsePredicate(_ text: String) throws(ExpressionSyntaxError) -> Predicate {
    try parseWhole(text, as: "predicate") { grammar throws(ExpressionSyntaxError) in
      try grammar.parsePredicateArgument().node
    }
  }

  /// The node `parse` reads from the start of `text`, which must be all of it (`what` names
  /// the node in the error about text left over).
  private static func parseWhole<Node: Sendable>(
    _ text: String, as what: String,
    _ parse: @escaping @Sendable (inout ExpressionGrammar) throws(ExpressionSyntaxError) -> Node
  ) throws(ExpressionSyntaxError) -> Node {
    var grammar = try ExpressionGrammar(text)
    return try grammar.withSufficientStack { grammar throws(ExpressionSyntaxError) in
      let node = try parse(&grammar)
      try grammar.expectEnd(of: what)
      return node
    }
  }
}

/// A parsed node and the height of its tree.
struct Tall<Node> {
  var node: Node
  var height: Int
}

/// The recursive-descent parser over the tokens of one text. The grammar productions live in
/// the `ExpressionGrammar+…` files.
struct ExpressionGrammar: Sendable {
  let text: String
  let tokens: [ExpressionToken]
  var index = 0
  var nesting = 0

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

  // MARK: - Stack

  /// Texts that can nest at most this deep are parsed on the caller's thread. An unoptimized
  /// build uses up to about 22 KiB of stack per level, so this stays under 200 KiB.
  static let inlineNestingLimit = 8
  /// The stack of the thread that parses other texts: `maxNesting` levels of the largest
  /// frames of an unoptimized build take about 5 MiB.
  static let parserStackBytes = 32 << 20

  /// An upper bound of the nesting `text` can reach: every level is entered right after one
  /// of these tokens (or at the start).
  var nestingBound: Int {
    1
      + tokens.count { token in
        switch token.kind {
        case .symbol(let symbol):
          switch symbol {
          case .leftParen, .leftBracket, .leftBrace, .comma, .assign, .minus, .not, .equal,
            .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            true
          default: false
          }
        case .keyword(let word):
          [
            "NOT", "ANY", "SOME", "ALL", "NONE", "IN", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE",
            "MATCHES", "BETWEEN",
          ].contains(word)
        default: false
        }
      }
  }

  /// Runs `body` on this thread for short texts, otherwise on a thread with a large stack, so
  /// that deep nesting fails with `expr-too-deep` whatever the caller's stack size.
  mutating func withSufficientStack<T: Sendable>(
    _ body: @escaping @Sendable (inout ExpressionGrammar) throws(ExpressionSyntaxError) -> T
  ) throws(ExpressionSyntaxError) -> T {
    if nestingBound <= Self.inlineNestingLimit { return try body(&self) }
    let start = self
    let result = LargeStackThread.run(stackBytes: Self.parserStackBytes) {
      () -> Result<T, ExpressionSyntaxError> in
      var grammar = start
      do throws(ExpressionSyntaxError) {
        return .success(try body(&grammar))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
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

  // MARK: - Building nodes

  /// A node over children of the given heights; fails when the tree gets too high.
  func tall<Node>(_ node: Node, span: SourceSpan, over heights: Int...)
    throws(ExpressionSyntaxError) -> Tall<Node>
  {
    let height = 1 + (heights.max() ?? 0)
    guard height <= ExpressionParser.maxDepth else { throw tooDeep(span) }
    return Tall(node: node, height: height)
  }

  func tooDeep(_ span: SourceSpan) -> ExpressionSyntaxError {
    ExpressionSyntaxError(
      .tooDeep,
      "the expression is nested more than \(ExpressionParser.maxDepth) levels deep",
      span: span)
  }

  /// Enters one more level of syntactic nesting; fails beyond `ExpressionParser.maxNesting`.
  mutating func descend() throws(ExpressionSyntaxError) {
    nesting += 1
    if nesting > ExpressionParser.maxNesting {
      throw ExpressionSyntaxError(
        .tooDeep,
        "the text is nested more than \(ExpressionParser.maxNesting) levels deep",
        span: current.span)
    }
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
  ) throws(ExpressionSyntaxError) {
    guard current.isSymbol(closer) else { throw unclosed(closer, opener: opener, openerText) }
    advance()
  }

  func unclosed(_ closer: ExpressionToken.Symbol, opener: ExpressionToken, _ openerText: String)
    -> ExpressionSyntaxError
  {
    ExpressionSyntaxError(
      .syntax,
      "expected '\(closer.rawValue)' to close '\(openerText)' but found \(current.quoted)",
      span: current.span, notes: [.init("'\(openerText)' opened here", span: opener.span)])
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
}
