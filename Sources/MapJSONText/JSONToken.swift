import MapRuntime

/// One token of a JSON text, as `JSONScanner.next()` returns it: a kind and a byte range of
/// the input. Nothing is copied or decoded.
///
/// - `string` and `key`: `start..<end` are the bytes between the quotes (`end` is the offset
///   of the closing quote). `hasEscapes` tells whether a backslash occurs in them; without
///   one, the bytes are the string's exact UTF-8 (already validated).
/// - `number`: the number's text; `isInteger` when it has neither fraction nor exponent.
/// - every other kind: the token's own bytes (`{`, `true`, …); `endOfInput` is empty.
package struct JSONToken: Sendable, Hashable {
  package enum Kind: UInt8, Sendable, Hashable {
    case beginObject, endObject, beginArray, endArray
    /// An object member's name (always followed by its value).
    case key
    case string, number, `true`, `false`, null
    /// Returned once the top-level value and the whitespace after it are consumed.
    case endOfInput
  }

  package var start: Int
  package var end: Int
  package var kind: Kind
  @usableFromInline var flags: UInt8

  @inlinable
  package init(_ kind: Kind, start: Int, end: Int, flags: UInt8 = 0) {
    self.kind = kind
    self.start = start
    self.end = end
    self.flags = flags
  }

  @usableFromInline static let escapesFlag: UInt8 = 1
  @usableFromInline static let integerFlag: UInt8 = 2

  /// For `string` and `key`: a backslash escape occurs between the quotes.
  @inlinable package var hasEscapes: Bool { flags & JSONToken.escapesFlag != 0 }
  /// For `number`: no fraction and no exponent.
  @inlinable package var isInteger: Bool { flags & JSONToken.integerFlag != 0 }

  /// The token's byte range (string contents without the quotes).
  @inlinable package var range: Range<Int> { start..<end }

  /// The range of the whole value as written, quotes included for strings and keys.
  @inlinable package var rawRange: Range<Int> {
    kind == .string || kind == .key ? (start - 1)..<(end + 1) : start..<end
  }

  /// True for the kinds that begin or are a whole value.
  @inlinable package var startsValue: Bool {
    switch kind {
    case .beginObject, .beginArray, .string, .number, .true, .false, .null: true
    default: false
    }
  }
}
