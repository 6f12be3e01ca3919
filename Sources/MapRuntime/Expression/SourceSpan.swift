/// A range of UTF-8 byte offsets into the text an expression was parsed from.
///
/// Spans do not take part in `==` or hashing of expressions: two expressions that print the
/// same are equal wherever they came from.
public struct SourceSpan: Sendable, Hashable, Codable {
  public var start: Int
  public var end: Int

  public init(start: Int, end: Int) {
    self.start = start
    self.end = end
  }

  /// The span of a node that was made by the compiler, not read from text.
  public static let synthesized = SourceSpan(start: -1, end: -1)

  public var isSynthesized: Bool { start < 0 }

  /// The smallest span that covers both.
  public func union(_ other: SourceSpan) -> SourceSpan {
    if isSynthesized { return other }
    if other.isSynthesized { return self }
    return SourceSpan(start: min(start, other.start), end: max(end, other.end))
  }
}
