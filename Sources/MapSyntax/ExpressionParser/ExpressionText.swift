import MapRuntime

/// The text of an expression and the file position of each of its characters.
public struct ExpressionText: Sendable {
  public var text: String
  /// Position of the first character.
  public var location: SourceLocation
  /// Maps a UTF-8 offset in `text` to its file position (exact across lines and entity
  /// references); nil means "count from `location`".
  public var locate: (@Sendable (Int) -> SourceLocation)?

  public init(_ text: String, at location: SourceLocation, locate: (@Sendable (Int) -> SourceLocation)? = nil) {
    self.text = text
    self.location = location
    self.locate = locate
  }

  public func location(ofOffset offset: Int) -> SourceLocation {
    if let locate { return locate(offset) }
    return ExpressionSource(text: text, location: location).location(ofOffset: offset)
  }
}

extension ExpressionText {
  /// The text without leading and trailing XML white space, positions kept.
  package var trimmed: ExpressionText {
    let bytes = Array(text.utf8)
    func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    let lead = bytes.prefix(while: isSpace).count
    let trail = bytes.dropFirst(lead).reversed().prefix(while: isSpace).count
    guard lead > 0 || trail > 0 else { return self }
    let body = String(decoding: bytes[lead..<(bytes.count - trail)], as: UTF8.self)
    let outer = self
    return ExpressionText(body, at: outer.location(ofOffset: lead)) { outer.location(ofOffset: lead + $0) }
  }
}
