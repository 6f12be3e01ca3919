import MapRuntime
import SwiftParser
import SwiftSyntax

/// One Swift file, parsed within mapc's limits (Specs/limits.md, "Swift source"), with what
/// turns a syntax node into a place in it.
///
/// `SwiftSourceScan` reads the text first (nesting, steps, and the parts masked from the
/// parser); then swift-syntax parses it, and the tree is walked once, without recursion, for
/// its depth and its size: every later step (mapc's readers, swift-syntax's own recursive
/// printing) then works on a tree of bounded depth.
struct SwiftSourceFile {
  /// The deepest syntax tree mapc reads: chains the scan does not see as nesting (`Int???…`,
  /// `a.b.c…`, `if … else if …`) make trees this deep; mapc's readers and swift-syntax's
  /// printing recurse over them.
  static let maximumTreeDepth = 1_000
  /// The steps one file may take: one per token (comments and string literals one per 16
  /// bytes) while scanning, one per syntax node while walking the tree.
  static let stepBudget = 2_000_000

  var path: String
  var tree: SourceFileSyntax
  /// The text as read (the tree's text differs from it where parts were masked).
  private var bytes: [UInt8]
  /// The byte offset where each line starts.
  private var lineStarts: [Int]
  /// The masked parts, by the offset where each starts.
  private var masks: [Int: Range<Int>]

  /// Reads and parses `text`; throws `swift-too-deep` or `swift-too-complex` at the place where
  /// a limit was passed.
  init(path: String, text: String) throws(MapRuntime.Diagnostic) {
    self.path = path
    bytes = Array(text.utf8)
    lineStarts = Self.lineStarts(bytes)
    masks = [:]
    tree = SourceFileSyntax(statements: [])
    let scan: SwiftSourceScan
    do {
      scan = try SwiftSourceScan(bytes, budget: Self.stepBudget)
    } catch {
      throw limitError(error.kind, at: error.offset)
    }
    var parsed = bytes
    for range in scan.masks {
      masks[range.lowerBound] = range
      for i in range { parsed[i] = 0x5F }
    }
    tree = Parser.parse(source: String(decoding: parsed, as: UTF8.self))
    var steps = scan.steps
    var stack: [(Syntax, Int)] = [(Syntax(tree), 1)]
    while let (node, depth) = stack.popLast() {
      steps += 1
      if steps > Self.stepBudget {
        throw limitError(.budget, at: node.positionAfterSkippingLeadingTrivia.utf8Offset)
      }
      if depth > Self.maximumTreeDepth {
        throw MapRuntime.Diagnostic(
          .error, id: "swift-too-deep",
          "the Swift syntax here is nested more than \(Self.maximumTreeDepth) levels deep (a long chain of '?', '.member', 'else if' or the like): mapc reads at most \(Self.maximumTreeDepth)",
          at: location(atOffset: node.positionAfterSkippingLeadingTrivia.utf8Offset))
      }
      // Last child first on the stack: the walk goes in source order, so a limit is reported
      // where reading reached it.
      for child in node.children(viewMode: .sourceAccurate).reversed() { stack.append((child, depth + 1)) }
    }
  }

  private func limitError(_ kind: SwiftSourceScan.Failure.Kind, at offset: Int) -> MapRuntime.Diagnostic {
    switch kind {
    case .tooDeep:
      MapRuntime.Diagnostic(
        .error, id: "swift-too-deep",
        "the Swift source is nested more than \(SwiftSourceScan.maximumDepth) levels deep here (brackets, generic arguments, #if, or a run of try, await, '->' and the like): mapc reads at most \(SwiftSourceScan.maximumDepth)",
        at: location(atOffset: offset))
    case .ifTooDeep:
      MapRuntime.Diagnostic(
        .error, id: "swift-too-deep",
        "#if is nested more than \(SwiftSourceScan.maximumIfDepth) levels deep here: mapc reads at most \(SwiftSourceScan.maximumIfDepth)",
        at: location(atOffset: offset))
    case .budget:
      MapRuntime.Diagnostic(
        .error, id: "swift-too-complex",
        "the Swift file takes more than \(Self.stepBudget) steps to read (tokens and syntax nodes): this is where mapc stopped",
        at: location(atOffset: offset))
    }
  }

  private static func lineStarts(_ bytes: [UInt8]) -> [Int] {
    var starts = [0]
    var i = 0
    while i < bytes.count {
      if bytes[i] == 0x0A {
        starts.append(i + 1)
      } else if bytes[i] == 0x0D {
        if i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
        starts.append(i + 1)
      }
      i += 1
    }
    return starts
  }

  /// The place of a byte offset: line and column 1-based, the column in UTF-8 bytes.
  func location(atOffset offset: Int) -> MapRuntime.SourceLocation {
    var (low, high) = (0, lineStarts.count - 1)
    while low < high {
      let mid = (low + high + 1) / 2
      if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
    }
    return MapRuntime.SourceLocation(file: path, line: low + 1, column: offset - lineStarts[low] + 1)
  }

  /// Where `node` starts (after its leading trivia), 1-based.
  func location(of node: some SyntaxProtocol) -> MapRuntime.SourceLocation {
    location(atOffset: node.positionAfterSkippingLeadingTrivia.utf8Offset)
  }

  /// The text of `node` as written (without its leading and trailing trivia), masked parts
  /// included.
  func text(of node: some SyntaxProtocol) -> String {
    let start = node.positionAfterSkippingLeadingTrivia.utf8Offset
    let end = max(start, node.endPositionBeforeTrailingTrivia.utf8Offset)
    return String(decoding: bytes[min(start, bytes.count)..<min(end, bytes.count)], as: UTF8.self)
  }

  /// The type written in the masked part that starts at `offset` (a type of the form `[[T]]`
  /// nested in one more `[…]`), parsed on its own with the file it was read from; nil when no
  /// masked part starts there or it is no type.
  func maskedType(at offset: Int) -> (TypeSyntax, SwiftSourceFile)? {
    guard let range = masks[offset] else { return nil }
    let prefix = "typealias T = "
    let text = prefix + String(decoding: bytes[range], as: UTF8.self)
    guard let fragment = try? SwiftSourceFile(path: path, text: text), !fragment.tree.hasError,
      fragment.tree.statements.count == 1, case .decl(let decl) = fragment.tree.statements.first!.item,
      let alias = decl.as(TypeAliasDeclSyntax.self)
    else { return nil }
    return (alias.initializer.value, fragment)
  }

  /// The first syntax error of the file (a missing token, or text the parser could not place),
  /// nil when the file parses.
  func firstSyntaxError() -> Diagnostic? {
    guard tree.hasError else { return nil }
    for token in tree.tokens(viewMode: .all) {
      if token.presence == .missing {
        let expected = Self.describe(token)
        return MapRuntime.Diagnostic(
          .error, id: "swift-syntax", "the Swift file does not parse: expected \(expected)", at: location(of: token))
      }
      if token.parent?.is(UnexpectedNodesSyntax.self) == true
        || token.parent?.parent?.is(UnexpectedNodesSyntax.self) == true
      {
        return MapRuntime.Diagnostic(
          .error, id: "swift-syntax", "the Swift file does not parse: unexpected '\(Self.shortened(token.text))'",
          at: location(of: token))
      }
    }
    return MapRuntime.Diagnostic(.error, id: "swift-syntax", "the Swift file does not parse", at: location(of: tree))
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
