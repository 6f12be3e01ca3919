import MapRuntime

/// Why an expression or predicate text could not be parsed: a stable rule id, a message, and the
/// UTF-8 byte offsets of the fault in the parsed text. Rules are listed in `Specs/expressions.md`.
public struct ExpressionSyntaxError: CodedError, Hashable {
  public enum Rule: String, Sendable, Hashable, CaseIterable {
    /// The text is empty or only white space.
    case empty = "expr-empty"
    /// A token that the grammar does not allow here.
    case syntax = "expr-syntax"
    /// Text left over after a complete expression or predicate.
    case trailingInput = "expr-trailing-input"
    /// A character that starts no token (`^`, `~`, `&` alone, …).
    case unexpectedCharacter = "expr-unexpected-character"
    /// A string literal without its closing quote.
    case unterminatedString = "expr-unterminated-string"
    /// A backslash escape that is not one of `\" \' \\ \n \t \r \uXXXX`, or a lone surrogate.
    case badEscape = "expr-bad-escape"
    /// A malformed numeric literal, or a hexadecimal, octal or binary one outside the Int64 range.
    case badNumber = "expr-bad-number"
    /// A reserved word where a key is expected (write `#word`).
    case reservedWord = "expr-reserved-word"
    /// An `@operator` that is not a collection operator, or a comparison option other than c, d, n.
    case unknownKeyword = "expr-unknown-keyword"
    /// A `name:(…)` function that is not a built-in function.
    case unknownFunction = "expr-unknown-function"
    /// A function or selector called with a number of arguments other than its colon count.
    case arity = "expr-arity"
    /// `FUNCTION`'s second argument is not a string literal holding a selector.
    case functionSelector = "expr-function-selector"
    /// `CAST`'s second argument is not a string literal holding a type name.
    case castType = "expr-cast-type"
    /// `%@`, `%K` or any other format argument (mapping files have no arguments to substitute).
    case formatArgument = "expr-format-argument"
    /// Nesting deeper than `ExpressionParser.maxDepth`.
    case tooDeep = "expr-too-deep"
    /// Text longer than `ExpressionParser.maxInputBytes`.
    case tooLong = "expr-too-long"
  }

  /// A secondary place that explains the error ("'FUNCTION(' opened here").
  public struct Note: Sendable, Hashable {
    public var message: String
    public var span: SourceSpan
    public init(_ message: String, span: SourceSpan) {
      self.message = message
      self.span = span
    }
  }

  public var rule: Rule
  public var message: String
  /// UTF-8 byte offsets of the fault in the parsed text; `start == end` at the end of the text.
  public var span: SourceSpan
  public var notes: [Note]

  public init(_ rule: Rule, _ message: String, span: SourceSpan, notes: [Note] = []) {
    self.rule = rule
    self.message = message
    self.span = span
    self.notes = notes
  }

  /// The stable rule id, e.g. `expr-syntax`.
  public var id: String { rule.rawValue }
  public var code: Rule { rule }
  public var diagnosticMessage: String { message }

  public var description: String {
    "\(span.start): \(message) [\(id)]"
  }

  /// This error as a diagnostic. `locate` turns a byte offset of the parsed text into a place
  /// in the user's file (the caller knows where the text sits in it).
  public func diagnostic(locate: (Int) -> SourceLocation?) -> Diagnostic {
    .error(
      id, message, at: locate(span.start),
      notes: notes.map { Diagnostic.Note($0.message, at: locate($0.span.start)) })
  }
}
