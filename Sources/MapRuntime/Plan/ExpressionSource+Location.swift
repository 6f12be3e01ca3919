extension ExpressionSource {
  /// The file position of a UTF-8 offset inside this expression's text.
  public func location(ofOffset offset: Int) -> SourceLocation {
    var line = location.line
    var column = location.column
    var consumed = 0
    for scalar in text.unicodeScalars {
      if consumed >= offset { break }
      consumed += scalar.utf8.count
      if scalar == "\n" {
        line += 1
        column = 1
      } else {
        column += 1
      }
    }
    return SourceLocation(file: location.file, line: line, column: column)
  }
}
