/// A position in a user's file: 1-based line and column.
///
/// Columns count Unicode scalars from the start of the line, so a tab or a multi-byte
/// character is one column. Every diagnostic that mapc prints carries one of these.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
  public var file: String
  public var line: Int
  public var column: Int

  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// `file:line:column`, the prefix of every diagnostic line.
  public var description: String { "\(file):\(line):\(column)" }
}
