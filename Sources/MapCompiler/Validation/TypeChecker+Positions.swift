import MapRuntime
import MapSyntax

/// Exact places inside the checked text for diagnostics about a part of a node: one key of a
/// key path, or a character of a predicate written inside a string literal. The tree keeps one
/// span per node, so these re-read the text; they run only when a diagnostic is reported.
extension TypeChecker {
  /// Where a key sits: a known span, or key `index` of a key path (found only when needed).
  enum KeySite {
    case span(SourceSpan)
    case component(Expression, Int)
  }

  func span(of site: KeySite) -> SourceSpan {
    switch site {
    case .span(let span): span
    case .component(let e, let index): componentSpan(e, index)
    }
  }

  /// The span of key `index` of key path `e`; the whole key path's span when the keys cannot be
  /// matched one to one with the text (for example `(a.b).c`, which the parser merges).
  func componentSpan(_ e: Expression, _ index: Int) -> SourceSpan {
    guard !e.span.isSynthesized, case .keyPath(let base, let components) = e.kind,
      index < components.count, let tokens = try? ExpressionLexer.tokenize(text.text)
    else { return e.span }
    let inside = tokens.filter { $0.span.start >= e.span.start && $0.span.end <= e.span.end }
    var keys: [SourceSpan] = []
    var i: Int
    if case .evaluatedObject = base.kind, let first = inside.first, first.isKey {
      // A key path over implicit SELF starts with its first key.
      keys.append(first.span)
      i = 1
    } else {
      i = inside.firstIndex { $0.span.start >= base.span.end } ?? inside.count
    }
    while i + 1 < inside.count {
      if inside[i].isSymbol(.dot), inside[i + 1].isKey {
        keys.append(inside[i + 1].span)
        i += 2
      } else {
        i += 1
      }
    }
    return keys.count == components.count ? keys[index] : e.span
  }

  /// The text of a predicate written as the string literal `literal` of the checked text, with
  /// each of its UTF-8 offsets mapped to the file position of the character it came from
  /// (escapes such as `\"` and XML references such as `&gt;` are several characters long).
  func predicateText(_ predicate: String, inLiteral literal: Expression) -> ExpressionText {
    let outer = text
    guard !literal.span.isSynthesized else { return ExpressionText(predicate, at: outer.location) }
    let raw = Array(outer.text.utf8)
    let start = literal.span.start
    let end = min(literal.span.end, raw.count)
    // rawOffset[d]: offset in `raw` of the character that gave byte d of the decoded string.
    var rawOffset: [Int] = []
    var p = start + 1
    while p < end - 1 {
      let b = raw[p]
      if b == UInt8(ascii: "\\"), p + 1 < end - 1 {
        let e = raw[p + 1]
        if e == UInt8(ascii: "u") {
          var length = 6
          var scalar = Self.hex4(raw, p + 2)
          if let high = scalar, (0xD800...0xDBFF).contains(high), let low = Self.hex4(raw, p + 8) {
            scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            length = 12
          }
          let width = scalar.flatMap(Unicode.Scalar.init).map { UTF8.width($0) } ?? 1
          rawOffset += Array(repeating: p, count: width)
          p += length
        } else {
          rawOffset.append(p)
          p += 2
        }
      } else {
        rawOffset.append(p)
        p += 1
      }
    }
    let map = rawOffset
    let closingQuote = end - 1
    return ExpressionText(predicate, at: outer.location(ofOffset: start + 1)) { d in
      outer.location(ofOffset: d < map.count ? map[d] : closingQuote)
    }
  }

  private static func hex4(_ bytes: [UInt8], _ at: Int) -> UInt32? {
    guard at + 4 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for b in bytes[at..<(at + 4)] {
      guard let digit = Character(Unicode.Scalar(b)).hexDigitValue else { return nil }
      value = value * 16 + UInt32(digit)
    }
    return value
  }
}
