// The diagnostic ids of MapJSONText: JSON syntax (`JSONSyntaxError`), which the JSON store reports
// as they are (a settings file reports its own id with the same message).
// Each id with what it reports, listed here only; `Specs/diagnostics.md` §3 is generated from
// every module's (MapcCatalogue, in MapcCLI).
import MapRuntime

/// The diagnostic families MapJSONText gives (ids are stable: once published, an id keeps
/// its meaning).
public enum JSONTextCatalogue {
  public static let json = DiagnosticCatalogue.Family(
    "`json-*`: JSON syntax of stores",
    [
      ("json-unexpected-end", "the text ends inside a value"),
      ("json-unexpected-character", "a character that cannot start or continue a value there"),
      ("json-trailing-comma", "a comma before `]` or `}`"),
      ("json-trailing-characters", "text after the top-level value"),
      ("json-unterminated-string", "a string without its closing quote"),
      ("json-control-character", "an unescaped control character in a string"),
      ("json-invalid-utf8", "bytes that are not valid UTF-8"),
      ("json-invalid-escape", "an invalid backslash escape"),
      ("json-lone-surrogate", "a `\\u` escape that is half of a surrogate pair"),
      ("json-invalid-number", "a malformed number"),
      ("json-leading-zero", "a number with a leading zero"),
      ("json-non-finite-number", "a number too large to represent"),
      ("json-invalid-literal", "a misspelt `true`, `false` or `null`"),
      ("json-nesting-too-deep", "arrays and objects nested beyond the limit"),
      ("json-byte-order-mark", "a byte order mark at the start"),
    ])
}
