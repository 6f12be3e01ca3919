import MapRuntime

/// Maps every character of a decoded XML string (text, CDATA, attribute value, comment) back
/// to the line and column in the file where it was written.
///
/// A character written literally maps to itself; a character produced by a reference
/// (`&lt;`, `&#x41;`) maps to the reference's `&`; a newline written as CR LF maps to the CR.
/// Offsets can be given in Unicode scalars or in UTF-8 bytes (expression spans use UTF-8).
public struct TextPositionMap: Sendable, Hashable {
  /// A run of characters: either written literally on one line (character `k` of the run is
  /// at `column + k`), or a single character produced by a reference.
  public struct Segment: Sendable, Hashable {
    public var scalarOffset: Int
    public var utf8Offset: Int
    public var line: Int
    public var column: Int
    public var isLiteral: Bool
  }

  /// The segments, the first two stored inline: most texts are one run, or two (a line break
  /// and the indentation after it), and then the map allocates nothing for its segments.
  struct SegmentList: Sendable, Hashable {
    private var first: Segment?
    private var second: Segment?
    private var rest: [Segment] = []

    var count: Int { first == nil ? 0 : second == nil ? 1 : 2 + rest.count }
    var last: Segment? { rest.last ?? second ?? first }
    subscript(i: Int) -> Segment {
      switch i {
      case 0: first!
      case 1: second!
      default: rest[i - 2]
      }
    }

    mutating func append(_ segment: Segment) {
      if first == nil {
        first = segment
      } else if second == nil {
        second = segment
      } else {
        rest.append(segment)
      }
    }

    var array: [Segment] { (0..<count).map { self[$0] } }
  }

  public private(set) var file: String
  private var runs = SegmentList()
  /// The runs of characters, in order.
  public var segments: [Segment] { runs.array }
  /// The decoded text the map describes.
  public private(set) var text: String = ""
  public private(set) var scalarCount = 0
  public private(set) var utf8Count = 0
  /// Where the text ends in the file: just after its last character.
  public private(set) var endLine: Int
  public private(set) var endColumn: Int

  /// An empty map whose text starts (and ends) at `line`:`column`.
  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.endLine = line
    self.endColumn = column
  }

  /// Adds one character written at `line`:`column`. `literal` is false for a character
  /// produced by a reference.
  public mutating func append(_ scalar: Unicode.Scalar, line: Int, column: Int, literal: Bool) {
    startRun(line: line, column: column, literal: literal)
    text.unicodeScalars.append(scalar)
    scalarCount += 1
    utf8Count += UTF8.width(scalar)
  }

  /// Starts a segment for text written at `line`:`column`, unless it is literal and continues
  /// the current literal run.
  private mutating func startRun(line: Int, column: Int, literal: Bool) {
    if literal, let last = runs.last, last.isLiteral, last.line == line,
      last.column + (scalarCount - last.scalarOffset) == column
    {
      return
    }
    runs.append(
      Segment(scalarOffset: scalarCount, utf8Offset: utf8Count, line: line, column: column, isLiteral: literal))
  }

  /// Adds characters written literally from `line`:`column` on, all ASCII (no line break):
  /// the same as appending them one by one, in one step.
  mutating func appendASCII(_ run: ArraySlice<UInt8>, line: Int, column: Int) {
    guard !run.isEmpty else { return }
    startRun(line: line, column: column, literal: true)
    if text.isEmpty {
      text = String(decoding: run, as: UTF8.self)
    } else {
      text += String(decoding: run, as: UTF8.self)
    }
    scalarCount += run.count
    utf8Count += run.count
  }

  /// Sets where the text ends in the file (the position just after it).
  public mutating func setEnd(line: Int, column: Int) {
    endLine = line
    endColumn = column
  }

  /// Appends another map (for merging adjacent text and CDATA); the end becomes `other`'s end.
  public mutating func append(contentsOf other: TextPositionMap) {
    for i in 0..<other.runs.count {
      var shifted = other.runs[i]
      shifted.scalarOffset += scalarCount
      shifted.utf8Offset += utf8Count
      runs.append(shifted)
    }
    text += other.text
    scalarCount += other.scalarCount
    utf8Count += other.utf8Count
    endLine = other.endLine
    endColumn = other.endColumn
  }

  /// Where character number `index` (counted in Unicode scalars from 0) is; the end position
  /// for `index >= scalarCount`.
  public func location(ofScalar index: Int) -> SourceLocation {
    guard index < scalarCount, let i = segmentIndex(where: { $0.scalarOffset <= index }) else {
      return SourceLocation(file: file, line: endLine, column: endColumn)
    }
    let s = runs[i]
    let delta = s.isLiteral ? index - s.scalarOffset : 0
    return SourceLocation(file: file, line: s.line, column: s.column + delta)
  }

  /// Where the character containing UTF-8 byte `offset` of the text is; the end position
  /// for `offset >= utf8Count`.
  public func location(ofUTF8Offset offset: Int) -> SourceLocation {
    guard offset >= 0 else { return location(ofScalar: 0) }
    guard offset < utf8Count, let i = segmentIndex(where: { $0.utf8Offset <= offset }) else {
      return SourceLocation(file: file, line: endLine, column: endColumn)
    }
    let s = runs[i]
    guard s.isLiteral else { return SourceLocation(file: file, line: s.line, column: s.column) }
    // Characters that start after the segment's first one, up to and including `offset`.
    let delta = text.utf8.dropFirst(s.utf8Offset + 1).prefix(offset - s.utf8Offset)
      .reduce(0) { $0 + (UTF8.isContinuation($1) ? 0 : 1) }
    return SourceLocation(file: file, line: s.line, column: s.column + delta)
  }

  /// The last segment satisfying `predicate` (segments are sorted by offset).
  private func segmentIndex(where predicate: (Segment) -> Bool) -> Int? {
    var low = 0
    var high = runs.count
    while low < high {
      let mid = (low + high) / 2
      if predicate(runs[mid]) { low = mid + 1 } else { high = mid }
    }
    return low == 0 ? nil : low - 1
  }
}
