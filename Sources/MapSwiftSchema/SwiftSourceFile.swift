import MapRuntime
import SwiftParser
import SwiftSyntax

/// One Swift file, parsed, with what turns a syntax node into a place in it.
struct SwiftSourceFile {
  var path: String
  var tree: SourceFileSyntax
  var converter: SourceLocationConverter

  init(path: String, text: String) {
    self.path = path
    tree = Parser.parse(source: text)
    converter = SourceLocationConverter(fileName: path, tree: tree)
  }

  /// Where `node` starts (after its leading trivia), 1-based.
  func location(of node: some SyntaxProtocol) -> MapRuntime.SourceLocation {
    let place = node.startLocation(converter: converter)
    return MapRuntime.SourceLocation(file: path, line: place.line, column: place.column)
  }

  /// The first syntax error of the file (a missing token, or text the parser could not place),
  /// nil when the file parses.
  func firstSyntaxError() -> SwiftSchemaDiagnostic? {
    guard tree.hasError else { return nil }
    for token in tree.tokens(viewMode: .all) {
      if token.presence == .missing {
        let expected = Self.describe(token)
        return SwiftSchemaDiagnostic(
          .error, "swift-syntax", "the Swift file does not parse: expected \(expected)", at: location(of: token))
      }
      if token.parent?.is(UnexpectedNodesSyntax.self) == true
        || token.parent?.parent?.is(UnexpectedNodesSyntax.self) == true
      {
        return SwiftSchemaDiagnostic(
          .error, "swift-syntax", "the Swift file does not parse: unexpected '\(Self.shortened(token.text))'",
          at: location(of: token))
      }
    }
    return SwiftSchemaDiagnostic(
      .error, "swift-syntax", "the Swift file does not parse", at: location(of: tree))
  }

  private static func describe(_ token: TokenSyntax) -> String {
    switch token.tokenKind {
    case .identifier: "a name"
    case .rightBrace: "'}'"
    case .rightParen: "')'"
    case .rightSquare: "']'"
    case .leftBrace: "'{'"
    case .colon: "':'"
    default:
      token.text.isEmpty ? "more text" : "'\(shortened(token.text))'"
    }
  }

  private static func shortened(_ text: String) -> String {
    text.count > 40 ? String(text.prefix(40)) + "…" : text
  }
}
