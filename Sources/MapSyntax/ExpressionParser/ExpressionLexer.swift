import MapRuntime

/// Splits expression text into tokens (`Specs/expressions.md`, "Lexical structure").
package struct ExpressionLexer {
  private let scalars: [Unicode.Scalar]
  /// UTF-8 byte offset of each scalar, plus the total length at the end.
  private let offsets: [Int]
  /// The text's UTF-8, for taking names and literals out of it in one step.
  private let utf8: [UInt8]
  private var position = 0

  private init(_ text: String) {
    utf8 = Array(text.utf8)
    var scalars: [Unicode.Scalar] = []
    var offsets: [Int] = []
    scalars.reserveCapacity(utf8.count)
    offsets.reserveCapacity(utf8.count + 1)
    var offset = 0
    for scalar in text.unicodeScalars {
      scalars.append(scalar)
      offsets.append(offset)
      offset += UTF8.width(scalar)
    }
    offsets.append(offset)
    self.scalars = scalars
    self.offsets = offsets
  }

  /// All tokens of `text`, ending with an `.end` token.
  package static func tokenize(_ text: String) throws(ExpressionSyntaxError) -> [ExpressionToken] {
    var lexer = ExpressionLexer(text)
    var tokens: [ExpressionToken] = []
    while true {
      let token = try lexer.next()
      tokens.append(token)
      if token.kind == .end { return tokens }
    }
  }

  // MARK: - Scanning helpers

  private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
    let index = position + ahead
    return index < scalars.count ? scalars[index] : nil
  }

  private func span(from start: Int) -> SourceSpan {
    SourceSpan(start: offsets[start], end: offsets[position])
  }

  private func span(_ start: Int, _ end: Int) -> SourceSpan {
    SourceSpan(start: offsets[start], end: offsets[min(end, scalars.count)])
  }

  private static func isDigit(_ s: Unicode.Scalar?) -> Bool {
    guard let s else { return false }
    return s >= "0" && s <= "9"
  }

  private static func isSpace(_ s: Unicode.Scalar) -> Bool {
    s == " " || s == "\t" || s == "\n" || s == "\r" || s == "\u{0B}" || s == "\u{0C}"
  }

  private static func describe(_ s: Unicode.Scalar) -> String {
    let hex = String(s.value, radix: 16, uppercase: true)
    let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    if s.properties.generalCategory == .control || s.properties.isWhitespace {
      return code
    }
    return "'\(Character(s))' (\(code))"
  }

  /// The scalars `start..<end` as a string.
  private func text(_ start: Int, _ end: Int) -> String {
    String(decoding: utf8[offsets[start]..<offsets[end]], as: UTF8.self)
  }

  private mutating func scanIdentifier() -> String {
    let start = position
    while let s = peek(), ExpressionSyntax.isIdentifierContinue(s) { position += 1 }
    return text(start, position)
  }

  // MARK: - Tokens

  private mutating func next() throws(ExpressionSyntaxError) -> ExpressionToken {
    while let s = peek(), Self.isSpace(s) { position += 1 }
    let start = position
    guard let s = peek() else {
      return ExpressionToken(kind: .end, span: span(from: start))
    }

    func symbol(_ symbol: ExpressionToken.Symbol, length: Int) -> ExpressionToken {
      position += length
      return ExpressionToken(kind: .symbol(symbol), span: span(from: start))
    }

    switch s {
    case "(": return symbol(.leftParen, length: 1)
    case ")": return symbol(.rightParen, length: 1)
    case "{": return symbol(.leftBrace, length: 1)
    case "}": return symbol(.rightBrace, length: 1)
    case "[": return symbol(.leftBracket, length: 1)
    case "]": return symbol(.rightBracket, length: 1)
    case ",": return symbol(.comma, length: 1)
    case ".": return symbol(.dot, length: 1)
    case "+": return symbol(.plus, length: 1)
    case "-": return symbol(.minus, length: 1)
    case "/": return symbol(.divide, length: 1)
    case "*": return peek(1) == "*" ? symbol(.power, length: 2) : symbol(.times, length: 1)
    case "=":
      switch peek(1) {
      case "=": return symbol(.equal, length: 2)
      case "<": return symbol(.lessOrEqual, length: 2)
      case ">": return symbol(.greaterOrEqual, length: 2)
      default: return symbol(.equal, length: 1)
      }
    case "!": return peek(1) == "=" ? symbol(.notEqual, length: 2) : symbol(.not, length: 1)
    case "<":
      switch peek(1) {
      case "=": return symbol(.lessOrEqual, length: 2)
      case ">": return symbol(.notEqual, length: 2)
      case "<": return symbol(.shiftLeft, length: 2)
      default: return symbol(.less, length: 1)
      }
    case ">":
      switch peek(1) {
      case "=": return symbol(.greaterOrEqual, length: 2)
      case ">": return symbol(.shiftRight, length: 2)
      default: return symbol(.greater, length: 1)
      }
    case "&": return peek(1) == "&" ? symbol(.and, length: 2) : symbol(.bitAnd, length: 1)
    case "|": return peek(1) == "|" ? symbol(.or, length: 2) : symbol(.bitOr, length: 1)
    case "^": return symbol(.bitXor, length: 1)
    case "~": return symbol(.onesComplement, length: 1)
    case ":":
      if peek(1) == "=" { return symbol(.assign, length: 2) }
      throw ExpressionSyntaxError(
        .unexpectedCharacter, "unexpected ':'; an assignment is written '$name := value'",
        span: span(start, start + 1))
    case "\"", "'":
      return try scanString()
    case "$":
      position += 1
      guard let first = peek(), ExpressionSyntax.isIdentifierStart(first) else {
        throw ExpressionSyntaxError(
          .syntax, "expected a variable name after '$'", span: span(start, start + 1))
      }
      return ExpressionToken(kind: .variable(scanIdentifier()), span: span(from: start))
    case "@":
      position += 1
      guard let first = peek(), ExpressionSyntax.isIdentifierStart(first) else {
        throw ExpressionSyntaxError(
          .syntax, "expected a collection operator name after '@'", span: span(start, start + 1))
      }
      let name = "@" + scanIdentifier()
      guard ExpressionSyntax.collectionOperators.contains(name) else {
        let known = ExpressionSyntax.collectionOperators.sorted().joined(separator: ", ")
        throw ExpressionSyntaxError(
          .unknownKeyword, "unknown collection operator '\(name)'; known operators are \(known)",
          span: span(from: start))
      }
      return ExpressionToken(kind: .collectionOperator(name), span: span(from: start))
    case "#":
      position += 1
      guard let first = peek(), ExpressionSyntax.isIdentifierStart(first) else {
        throw ExpressionSyntaxError(
          .syntax, "expected a name after '#'", span: span(start, start + 1))
      }
      return ExpressionToken(kind: .escapedIdentifier(scanIdentifier()), span: span(from: start))
    case "%":
      let end = peek(1).map { Self.isSpace($0) ? start + 1 : start + 2 } ?? start + 1
      let shown = String(String.UnicodeScalarView(scalars[start..<min(end, scalars.count)]))
      throw ExpressionSyntaxError(
        .formatArgument,
        "format argument '\(shown)' cannot be used here: a mapping file has no arguments to "
          + "substitute; write the value or key itself",
        span: span(start, end))
    default:
      if Self.isDigit(s) { return try scanNumber() }
      if ExpressionSyntax.isIdentifierStart(s) { return scanWord() }
      throw ExpressionSyntaxError(
        .unexpectedCharacter, "unexpected character \(Self.describe(s))",
        span: span(start, start + 1))
    }
  }

  /// An identifier, a reserved word, or a built-in function name (`add:to:`).
  private mutating func scanWord() -> ExpressionToken {
    let start = position
    let name = scanIdentifier()
    guard peek() == ":", peek(1) != "=" else {
      if ExpressionSyntax.isReservedWord(name) {
        return ExpressionToken(kind: .keyword(name.uppercased()), span: span(from: start))
      }
      return ExpressionToken(kind: .identifier(name), span: span(from: start))
    }
    var function = name + ":"
    position += 1
    while let s = peek(), ExpressionSyntax.isIdentifierStart(s) {
      let save = position
      let part = scanIdentifier()
      guard peek() == ":", peek(1) != "=" else {
        position = save
        break
      }
      position += 1
      function += part + ":"
    }
    return ExpressionToken(kind: .functionName(function), span: span(from: start))
  }

  private mutating func scanString() throws(ExpressionSyntaxError) -> ExpressionToken {
    let start = position
    let quote = scalars[position]
    position += 1
    // Without a backslash the value is the text between the quotes.
    var end = position
    while end < scalars.count, scalars[end] != quote, scalars[end] != "\\" { end += 1 }
    if end < scalars.count, scalars[end] == quote {
      let value = text(position, end)
      position = end + 1
      return ExpressionToken(kind: .string(value), span: span(from: start))
    }
    var value = String.UnicodeScalarView()
    while true {
      guard let s = peek() else {
        throw ExpressionSyntaxError(
          .unterminatedString, "unterminated string: no closing \(quote == "'" ? "'" : "\"")",
          span: span(from: start),
          notes: [.init("the string starts here", span: span(start, start + 1))])
      }
      position += 1
      if s == quote { break }
      if s != "\\" {
        value.append(s)
        continue
      }
      value.append(try scanEscape(backslash: position - 1))
    }
    return ExpressionToken(kind: .string(String(value)), span: span(from: start))
  }

  /// The scalar of the escape whose backslash is at `backslash`; `position` is after it.
  private mutating func scanEscape(backslash: Int) throws(ExpressionSyntaxError) -> Unicode.Scalar {
    guard let e = peek() else {
      throw ExpressionSyntaxError(
        .unterminatedString, "unterminated string: the text ends after a backslash",
        span: span(backslash, backslash + 1))
    }
    position += 1
    switch e {
    case "\"": return "\""
    case "'": return "'"
    case "\\": return "\\"
    case "n": return "\n"
    case "t": return "\t"
    case "r": return "\r"
    case "u":
      let high = try scanHex4(backslash: backslash)
      if (0xD800...0xDBFF).contains(high) {
        guard peek() == "\\", peek(1) == "u" else {
          throw ExpressionSyntaxError(
            .badEscape, "'\\u\(hex4(high))' is a lone UTF-16 high surrogate",
            span: span(backslash, position))
        }
        let second = position
        position += 2
        let low = try scanHex4(backslash: second)
        guard (0xDC00...0xDFFF).contains(low) else {
          throw ExpressionSyntaxError(
            .badEscape, "'\\u\(hex4(high))' must be followed by a low surrogate '\\uDC00'…'\\uDFFF'",
            span: span(backslash, position))
        }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
      }
      guard let scalar = Unicode.Scalar(high) else {
        throw ExpressionSyntaxError(
          .badEscape, "'\\u\(hex4(high))' is a lone UTF-16 low surrogate",
          span: span(backslash, position))
      }
      return scalar
    default:
      throw ExpressionSyntaxError(
        .badEscape,
        "unknown escape '\\\(Character(e))'; strings allow \\\" \\' \\\\ \\n \\t \\r \\uXXXX",
        span: span(backslash, position))
    }
  }

  private func hex4(_ value: UInt32) -> String {
    let hex = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  /// Four hex digits after `\u`; `position` is after the `u`.
  private mutating func scanHex4(backslash: Int) throws(ExpressionSyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let s = peek(), let digit = Self.hexValue(s) else {
        throw ExpressionSyntaxError(
          .badEscape, "'\\u' must be followed by exactly four hexadecimal digits",
          span: span(backslash, position))
      }
      value = value * 16 + UInt32(digit)
      position += 1
    }
    return value
  }

  private static func hexValue(_ s: Unicode.Scalar) -> UInt64? {
    switch s {
    case "0"..."9": UInt64(s.value - 48)
    case "a"..."f": UInt64(s.value - 87)
    case "A"..."F": UInt64(s.value - 55)
    default: nil
    }
  }

  private mutating func scanNumber() throws(ExpressionSyntaxError) -> ExpressionToken {
    let start = position
    let form: NumberLiteral.Form
    if peek() == "0", let p = peek(1), let radix = Self.radix(of: p) {
      position += 2
      var magnitude: UInt64? = 0
      var digits = 0
      while let s = peek(), let digit = Self.hexValue(s), digit < radix {
        if let m = magnitude {
          let (times, o1) = m.multipliedReportingOverflow(by: radix)
          let (plus, o2) = times.addingReportingOverflow(digit)
          magnitude = o1 || o2 ? nil : plus
        }
        digits += 1
        position += 1
      }
      if digits == 0 {
        throw ExpressionSyntaxError(
          .badNumber, "expected digits after '0\(Character(p))'", span: span(from: start))
      }
      form = .radix(magnitude)
    } else {
      var real = false
      while Self.isDigit(peek()) { position += 1 }
      if peek() == ".", Self.isDigit(peek(1)) {
        real = true
        position += 1
        while Self.isDigit(peek()) { position += 1 }
      }
      if peek() == "e" || peek() == "E" {
        if Self.isDigit(peek(1)) {
          position += 1
        } else if peek(1) == "+" || peek(1) == "-", Self.isDigit(peek(2)) {
          position += 2
        }
        if Self.isDigit(peek()) {
          real = true
          while Self.isDigit(peek()) { position += 1 }
        }
      }
      form = real ? .real : .integer
    }
    if let s = peek(), ExpressionSyntax.isIdentifierContinue(s) {
      while let s = peek(), ExpressionSyntax.isIdentifierContinue(s) { position += 1 }
      let literal = text(start, position)
      throw ExpressionSyntaxError(
        .badNumber, "invalid numeric literal '\(literal)'", span: span(from: start))
    }
    return ExpressionToken(
      kind: .number(NumberLiteral(text: text(start, position), form: form)), span: span(from: start))
  }

  private static func radix(of s: Unicode.Scalar) -> UInt64? {
    switch s {
    case "x", "X": 16
    case "o", "O": 8
    case "b", "B": 2
    default: nil
    }
  }
}
