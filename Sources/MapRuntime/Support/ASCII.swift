/// Byte values of the ASCII characters the JSON grammar and the property-list readers use.
@usableFromInline enum ASCII {
  @inlinable static var quote: UInt8 { 0x22 }
  @inlinable static var backslash: UInt8 { 0x5C }
  @inlinable static var comma: UInt8 { 0x2C }
  @inlinable static var colon: UInt8 { 0x3A }
  @inlinable static var openBrace: UInt8 { 0x7B }
  @inlinable static var closeBrace: UInt8 { 0x7D }
  @inlinable static var openBracket: UInt8 { 0x5B }
  @inlinable static var closeBracket: UInt8 { 0x5D }
  @inlinable static var minus: UInt8 { 0x2D }
  @inlinable static var plus: UInt8 { 0x2B }
  @inlinable static var zero: UInt8 { 0x30 }
  @inlinable static var nine: UInt8 { 0x39 }
  @inlinable static var space: UInt8 { 0x20 }
  @inlinable static var newline: UInt8 { 0x0A }
  @inlinable static var tab: UInt8 { 0x09 }
  @inlinable static var carriageReturn: UInt8 { 0x0D }
}
