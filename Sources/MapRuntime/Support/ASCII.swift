/// Byte values of the ASCII characters the JSON grammar and the property-list readers use.
@usableFromInline package enum ASCII {
  @inlinable package static var quote: UInt8 { 0x22 }
  @inlinable package static var backslash: UInt8 { 0x5C }
  @inlinable package static var comma: UInt8 { 0x2C }
  @inlinable package static var colon: UInt8 { 0x3A }
  @inlinable package static var openBrace: UInt8 { 0x7B }
  @inlinable package static var closeBrace: UInt8 { 0x7D }
  @inlinable package static var openBracket: UInt8 { 0x5B }
  @inlinable package static var closeBracket: UInt8 { 0x5D }
  @inlinable package static var minus: UInt8 { 0x2D }
  @inlinable package static var plus: UInt8 { 0x2B }
  @inlinable package static var zero: UInt8 { 0x30 }
  @inlinable package static var nine: UInt8 { 0x39 }
  @inlinable package static var space: UInt8 { 0x20 }
  @inlinable package static var newline: UInt8 { 0x0A }
  @inlinable package static var tab: UInt8 { 0x09 }
  @inlinable package static var carriageReturn: UInt8 { 0x0D }
}
