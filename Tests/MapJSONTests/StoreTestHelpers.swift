import MapJSON
import MapJSONText
import MapRuntime

/// A scanned token with its text, for readable expectations.
struct ScannedToken: Equatable, CustomStringConvertible {
  var kind: JSONToken.Kind
  var text: String
  var description: String { "\(kind) \(text)" }
}

/// Scans all of `bytes`, returning every token before `endOfInput`.
func scanTokens(_ bytes: [UInt8], maxDepth: Int = JSONScanner.defaultMaxDepth) throws(JSONSyntaxError) -> [ScannedToken]
{
  let input = InputBytes(bytes)
  return try input.withUnsafeBytes { raw throws(JSONSyntaxError) in
    var scanner = JSONScanner(raw, maxDepth: maxDepth)
    var tokens: [ScannedToken] = []
    while true {
      let token = try scanner.next()
      if token.kind == .endOfInput { break }
      let text = String(decoding: raw[token.range], as: UTF8.self)
      tokens.append(ScannedToken(kind: token.kind, text: text))
    }
    // After the end, the scanner keeps answering endOfInput.
    let after = try scanner.next()
    precondition(after.kind == .endOfInput)
    return tokens
  }
}

func scanTokens(_ text: String) throws(JSONSyntaxError) -> [ScannedToken] {
  try scanTokens(Array(text.utf8))
}

/// The error that scanning `bytes` to the end throws, with its line and column; nil when the
/// text is valid.
func syntaxError(_ bytes: [UInt8], maxDepth: Int = JSONScanner.defaultMaxDepth) -> (
  error: JSONSyntaxError, position: JSONTextPosition
)? {
  do {
    _ = try scanTokens(bytes, maxDepth: maxDepth)
    return nil
  } catch {
    let position = bytes.withUnsafeBytes { JSONTextPosition(of: error.byteOffset, in: $0) }
    return (error, position)
  }
}

func syntaxError(_ text: String) -> (error: JSONSyntaxError, position: JSONTextPosition)? {
  syntaxError(Array(text.utf8))
}

/// Re-emits a whole JSON text token by token through `JSONOutput` (numbers normalized the way
/// Python prints them: integers as integers, others through `repr(float)`).
func reemit(_ bytes: UnsafeRawBufferPointer, style: JSONOutput.Style) throws -> [UInt8] {
  var scanner = JSONScanner(bytes)
  var output = JSONOutput(style: style)
  loop: while true {
    let token = try scanner.next()
    switch token.kind {
    case .endOfInput: break loop
    case .beginObject: output.beginObject()
    case .endObject: output.endObject()
    case .beginArray: output.beginArray()
    case .endArray: output.endArray()
    case .key: output.writeKey(raw: scanner.rawBytes(token), hasEscapes: token.hasEscapes)
    case .string: output.writeString(raw: scanner.rawBytes(token), hasEscapes: token.hasEscapes)
    case .number:
      if let integer = scanner.int64(token) {
        output.writeInt(integer)
      } else {
        guard let value = scanner.double(token) else {
          throw StoreValueError(.nonFiniteNumber, "number too large")
        }
        try output.writeDouble(value)
      }
    case .true: output.writeBool(true)
    case .false: output.writeBool(false)
    case .null: output.writeNull()
    }
  }
  try output.finishDocument()
  return output.bytes
}

/// A reference implementation of the store's string escaping, one scalar at a time, used as
/// an independent oracle for the fast writer.
func referenceEscaped(_ text: String) -> String {
  var result = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    case "\u{08}": result += "\\b"
    case "\u{09}": result += "\\t"
    case "\u{0A}": result += "\\n"
    case "\u{0C}": result += "\\f"
    case "\u{0D}": result += "\\r"
    case _ where scalar.value < 0x20:
      let hex = String(scalar.value, radix: 16)
      result += "\\u00" + (hex.count == 1 ? "0" + hex : hex)
    default: result.unicodeScalars.append(scalar)
    }
  }
  return result + "\""
}
