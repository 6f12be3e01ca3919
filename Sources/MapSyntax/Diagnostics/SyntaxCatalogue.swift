// The diagnostic ids of MapSyntax: XML and expressions.
// Each id with what it reports, listed here only; `Specs/diagnostics.md` §3 is generated from
// every module's (MapcCatalogue, in MapcCLI).
import MapRuntime

/// The diagnostic families MapSyntax reports (ids are stable: once published, an id keeps
/// its meaning).
public enum SyntaxCatalogue {
  public static let xml = DiagnosticCatalogue.Family(
    "`xml-*`: XML well-formedness and safety (`Specs/model-input.md` §5)",
    [
      ("xml-empty", "the file is empty or holds only white space (text that is not XML is `xml-syntax`)"),
      ("xml-syntax", "the document is not well-formed XML (libxml2's message, at its position)"),
      ("xml-invalid-utf8", "a byte that is not valid UTF-8"),
      ("xml-unsupported-encoding", "a UTF-16 (or other non-UTF-8) file"),
      ("xml-entity-declaration", "a DTD entity declaration (refused: nothing is expanded or loaded)"),
      (
        "xml-too-many-attributes",
        "an element with more than 256 attributes (Specs/limits.md), refused before libxml2 parses"
      ),
      ("xml-undefined-entity", "a reference to an entity other than the five predefined ones"),
      ("xml-internal", "internal error: a parsed node could not be located in the file"),
    ])

  public static let expr = DiagnosticCatalogue.Family(
    "`expr-*`: expression and predicate syntax (`Specs/expressions.md`)",
    [
      ("expr-empty", "the text is empty or only white space"),
      ("expr-syntax", "a token the grammar does not allow there"),
      ("expr-trailing-input", "text after a complete expression or predicate"),
      ("expr-unexpected-character", "a character that starts no token"),
      ("expr-unterminated-string", "a string literal without its closing quote"),
      ("expr-bad-escape", "an invalid backslash escape or a lone surrogate"),
      ("expr-bad-number", "a malformed or out-of-range numeric literal"),
      ("expr-reserved-word", "a reserved word where a key is expected (write `#word`)"),
      ("expr-unknown-keyword", "an unknown `@operator` or comparison option"),
      ("expr-unknown-function", "a `name:(…)` function that is not built in"),
      ("expr-arity", "a selector or function called with a number of arguments other than its colon count"),
      ("expr-function-selector", "`FUNCTION`'s second argument is not a string literal selector"),
      ("expr-cast-type", "`CAST`'s second argument is not a string literal type name"),
      ("expr-format-argument", "`%@`, `%K` or another format argument"),
      ("expr-too-deep", "nesting deeper than the parser's limit"),
      ("expr-too-long", "text longer than the parser's limit"),
    ])
}
