import MapRuntime

/// How `JSONScanner` names characters and tokens in its error messages.
extension JSONScanner {

  func endOfInputError(at i: Int, expected: String) -> JSONSyntaxError {
    let context = depth > 0 ? " (\(depth) unclosed \(depth == 1 ? "container" : "containers"))" : ""
    return JSONSyntaxError(
      .unexpectedEndOfInput, "unexpected end of input, expected \(expected)\(context)", at: i)
  }

  /// `'x'`, `end of input`, `'é' (U+00E9)`, `control character U+000A` or `byte 0xFF`.
  func describeCharacter(at i: Int, quoted: Bool = true) -> String {
    guard i < count else { return "end of input" }
    let c = base[i]
    if c >= 0x20 && c < 0x7F {
      let text = String(UnicodeScalar(c))
      return quoted ? "'\(text)'" : text
    }
    if c < 0x80 { return "control character \(JSONScanner.scalarName(UInt32(c)))" }
    if let end = try? scanMultiByte(at: i) {
      let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self)
      let scalar = text.unicodeScalars.first!.value
      return "'\(text)' (\(JSONScanner.scalarName(scalar)))"
    }
    return "byte 0x\(JSONScanner.hex(UInt32(c), digits: 2))"
  }

  func describe(_ token: JSONToken) -> String {
    switch token.kind {
    case .endOfInput: "end of input"
    case .key: "a member name"
    default: JSONScanner.describe(token.kind)
    }
  }

  /// `an object`, `a string`, … for messages.
  package static func describe(_ kind: JSONToken.Kind) -> String {
    switch kind {
    case .beginObject: "an object"
    case .endObject: "'}'"
    case .beginArray: "an array"
    case .endArray: "']'"
    case .key: "a member name"
    case .string: "a string"
    case .number: "a number"
    case .true: "true"
    case .false: "false"
    case .null: "null"
    case .endOfInput: "the end of input"
    }
  }

  static func scalarName(_ value: UInt32) -> String { "U+\(hex(value, digits: 4))" }

  static func hex(_ value: UInt32, digits: Int = 4) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
