import MapRuntime

/// The bytes of one input file with a line index, turning byte offsets into
/// `SourceLocation`s (1-based lines; columns count Unicode scalars).
///
/// Line breaks are LF, CR LF and a lone CR, as XML's end-of-line handling defines them.
/// A UTF-8 byte order mark at the start is not a column.
public struct SourceText: Sendable {
  public let path: String
  public let bytes: [UInt8]
  /// Byte offset where each line starts.
  public let lineStarts: [Int]
  /// 3 when the file starts with a UTF-8 byte order mark, else 0.
  public let contentStart: Int
  /// Whether each line is all ASCII, so that its columns are byte counts.
  private let asciiLines: [Bool]

  public init(path: String, bytes: [UInt8]) {
    self.path = path
    self.bytes = bytes
    let bom = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    contentStart = bom ? 3 : 0
    var starts = [contentStart]
    var ascii: [Bool] = []
    var lineIsASCII = true
    let start = contentStart
    bytes.withUnsafeBufferPointer { bytes in
      var i = start
      while i < bytes.count {
        let b = bytes[i]
        if b == 0x0A {
          starts.append(i + 1)
          ascii.append(lineIsASCII)
          lineIsASCII = true
        } else if b == 0x0D {
          if i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
          starts.append(i + 1)
          ascii.append(lineIsASCII)
          lineIsASCII = true
        } else if b >= 0x80 {
          lineIsASCII = false
        }
        i += 1
      }
    }
    ascii.append(lineIsASCII)
    lineStarts = starts
    asciiLines = ascii
  }

  /// The location of the character that contains byte `offset` (clamped to the file).
  public func location(ofByte offset: Int) -> SourceLocation {
    var hint = 0
    let (line, column) = lineColumn(ofByte: offset, lineHint: &hint)
    return SourceLocation(file: path, line: line, column: column)
  }

  /// The (line, column) of byte `offset`, without the file name.
  func lineColumn(ofByte offset: Int) -> (line: Int, column: Int) {
    var hint = 0
    return lineColumn(ofByte: offset, lineHint: &hint)
  }

  /// The (line, column) of byte `offset`. `lineHint` is the index of a line to look at first
  /// (the line of the previous lookup, for lookups in file order); it is set to this offset's.
  func lineColumn(ofByte offset: Int, lineHint: inout Int) -> (line: Int, column: Int) {
    let offset = max(contentStart, min(offset, bytes.count))
    // The last line that starts at or before `offset`: near the hint, else by bisection.
    var index = lineHint
    if index >= 0, index < lineStarts.count, lineStarts[index] <= offset {
      var steps = 0
      while index + 1 < lineStarts.count, lineStarts[index + 1] <= offset, steps < 4 {
        index += 1
        steps += 1
      }
      if index + 1 < lineStarts.count, lineStarts[index + 1] <= offset {
        index = lineIndex(ofByte: offset)
      }
    } else {
      index = lineIndex(ofByte: offset)
    }
    lineHint = index
    let start = lineStarts[index]
    if asciiLines[index] {
      return (index + 1, offset - start + 1)
    }
    // The number of characters that start in [start, offset], plus one at the end of file.
    var column = 0
    var i = start
    while i <= offset, i < bytes.count {
      if !UTF8.isContinuation(bytes[i]) { column += 1 }
      i += 1
    }
    if offset >= bytes.count { column += 1 }
    return (index + 1, column)
  }

  /// Index of the last line that starts at or before `offset` (which is within the content).
  private func lineIndex(ofByte offset: Int) -> Int {
    var low = 0
    var high = lineStarts.count
    while low < high {
      let mid = (low + high) / 2
      if lineStarts[mid] <= offset { low = mid + 1 } else { high = mid }
    }
    return max(low, 1) - 1
  }

  /// The location just after the last byte.
  public var endLocation: SourceLocation { location(ofByte: bytes.count) }
}
