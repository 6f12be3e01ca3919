import MapRuntime

/// Turns byte offsets into line and column (`JSONTextPosition`) for a reader that reports
/// errors mostly in file order: each lookup goes on from the previous one when that lies at or
/// before the new offset, so the positions of N errors in a file of n bytes cost O(n) in all,
/// not O(N·n), even on a single-line (compact) store. An earlier offset is counted from the
/// start. Same results as `JSONTextPosition(of:in:)`.
package final class LineCursor: @unchecked Sendable {
  package init() {}

  private var offset = 0
  private var line = 1
  private var column = 1

  package func position(of target: Int, in bytes: UnsafeRawBufferPointer) -> JSONTextPosition {
    let end = min(max(target, 0), bytes.count)
    if end < offset {
      offset = 0
      line = 1
      column = 1
    }
    var i = offset
    while i < end {
      Self.step(bytes[i], &line, &column)
      i += 1
    }
    offset = end
    return JSONTextPosition(line: line, column: column)
  }

  /// Moves a position past one byte: a newline starts the next line; a byte that does not
  /// continue a UTF-8 sequence is the next column.
  @inline(__always) package static func step(_ b: UInt8, _ line: inout Int, _ column: inout Int) {
    if b == 0x0A {
      line += 1
      column = 1
    } else if b & 0xC0 != 0x80 {
      column += 1
    }
  }
}
