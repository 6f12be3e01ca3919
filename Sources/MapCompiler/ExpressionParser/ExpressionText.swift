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
