import MapRuntime

/// A violation of the JSON grammar (RFC 8259) found by `JSONScanner`, with the byte offset
/// where it was found.
///
/// Turn the offset into a line and column with `JSONTextPosition` to print
/// `store.json:12:7: error: … [json-…]`.
package struct JSONSyntaxError: CodedError, Hashable {
  /// Stable identifiers of the rules, used as diagnostic ids.
  package enum Code: String, Sendable, Hashable, CaseIterable {
    case unexpectedEndOfInput = "json-unexpected-end"
    case unexpectedCharacter = "json-unexpected-character"
    case trailingComma = "json-trailing-comma"
    case trailingCharacters = "json-trailing-characters"
    case unterminatedString = "json-unterminated-string"
    case controlCharacter = "json-control-character"
    case invalidUTF8 = "json-invalid-utf8"
    case invalidEscape = "json-invalid-escape"
    case loneSurrogate = "json-lone-surrogate"
    case invalidNumber = "json-invalid-number"
    case leadingZero = "json-leading-zero"
    case nonFiniteNumber = "json-non-finite-number"
    case invalidLiteral = "json-invalid-literal"
    case nestingTooDeep = "json-nesting-too-deep"
    case byteOrderMark = "json-byte-order-mark"
  }

  package var code: Code
  package var message: String
  /// Offset of the offending byte from the start of the input (0-based).
  package var byteOffset: Int

  package init(_ code: Code, _ message: String, at byteOffset: Int) {
    self.code = code
    self.message = message
    self.byteOffset = byteOffset
  }

  package var description: String { "\(message) (at byte \(byteOffset)) [\(code.rawValue)]" }
  package var diagnosticMessage: String { message }

  /// The error's position in `bytes` as a `SourceLocation` in `file`.
  package func location(in bytes: UnsafeRawBufferPointer, file: String) -> SourceLocation {
    let position = JSONTextPosition(of: byteOffset, in: bytes)
    return SourceLocation(file: file, line: position.line, column: position.column)
  }
}

/// A 1-based line and column in a UTF-8 text, computed from a byte offset.
///
/// Lines end at LF (`\n`); a CR before it belongs to the line it ends. Columns count Unicode
/// scalars, so a tab, `é` or `😀` each take one column: the column of an offset is one more
/// than the number of UTF-8 lead bytes between the start of its line and the offset.
package struct JSONTextPosition: Sendable, Hashable, CustomStringConvertible {
  package var line: Int
  package var column: Int

  package init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// The position of `offset` in `bytes` (an offset at or past the end is the position just
  /// after the last byte).
  package init(of offset: Int, in bytes: UnsafeRawBufferPointer) {
    let end = min(max(offset, 0), bytes.count)
    var line = 1
    var lineStart = 0
    var i = 0
    while i < end {
      if bytes[i] == 0x0A {
        line += 1
        lineStart = i + 1
      }
      i += 1
    }
    var column = 1
    i = lineStart
    while i < end {
      if bytes[i] & 0xC0 != 0x80 { column += 1 }
      i += 1
    }
    self.init(line: line, column: column)
  }

  package var description: String { "\(line):\(column)" }
}
