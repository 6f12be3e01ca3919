import MapArchives
import MapRuntime

/// String escaping of the store format: only `"`, `\` and U+0000–U+001F are escaped — as
/// `\"`, `\\`, `\b`, `\t`, `\n`, `\f`, `\r`, or else `\u00xx` with lowercase hex digits.
/// Everything else, including `/`, U+007F, U+2028 and all non-ASCII text, is written as raw
/// UTF-8.
extension JSONOutput {
  /// Writes `"text"` with the store's escaping.
  @usableFromInline mutating func writeQuoted(_ text: String) {
    if let done: Void = text.utf8.withContiguousStorageIfAvailable({
      writeQuotedUTF8(UnsafeRawBufferPointer($0))
    }) {
      return done
    }
    let copy = Array(text.utf8)
    copy.withUnsafeBytes { writeQuotedUTF8($0) }
  }

  /// Writes `"bytes"` with the store's escaping; `bytes` is UTF-8 text.
  @inlinable @inline(__always)
  mutating func writeQuotedUTF8(_ bytes: UnsafeRawBufferPointer) {
    let n = bytes.count
    // The common case, nothing to escape, is one copy.
    reserve(n &+ 2)
    buffer[count] = ASCII.quote
    count &+= 1
    if n > 0 {
      let p = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
      let first = JSONOutput.firstByteNeedingEscape(p, n)
      if first == n {
        appendReserved(UnsafeRawPointer(p), n)
      } else {
        writeEscaped(p, n, firstSpecial: first)
      }
    }
    reserve(1)
    buffer[count] = ASCII.quote
    count &+= 1
  }

  /// Writes the contents of a scanned string (bytes between the quotes) with quotes around
  /// them, rewriting escapes to the canonical form when there are any.
  @inlinable @inline(__always)
  mutating func writeQuotedInput(
    _ raw: UnsafeRawBufferPointer, hasEscapes: Bool
  ) {
    let n = raw.count
    reserve(n &+ 2)
    buffer[count] = ASCII.quote
    count &+= 1
    if n > 0 {
      let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
      if hasEscapes {
        rewriteEscapes(p, n)
      } else {
        appendReserved(UnsafeRawPointer(p), n)
      }
    }
    reserve(1)
    buffer[count] = ASCII.quote
    count &+= 1
  }

  /// Offset of the first byte of `p[0..<n]` that must be escaped, or `n`.
  @inlinable @inline(__always)
  static func firstByteNeedingEscape(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
    var i = 0
    while i &+ 8 <= n {
      let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
      let hits = escapeBytes(word)
      if hits != 0 { return i &+ hits.trailingZeroBitCount >> 3 }
      i &+= 8
    }
    while i < n && !needsEscape(p[i]) { i &+= 1 }
    return i
  }

  /// High bit set in each lane of `word` holding `"`, `\` or a byte below 0x20 (the lowest
  /// set lane is exact; lanes above it may be spurious).
  @inlinable @inline(__always)
  static func escapeBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    let quotes = word ^ (ones &* 0x22)
    let backslashes = word ^ (ones &* 0x5C)
    let quoteHits = (quotes &- ones) & ~quotes
    let backslashHits = (backslashes &- ones) & ~backslashes
    let controlHits = (word &- ones &* 0x20) & ~word
    return (quoteHits | backslashHits | controlHits) & high
  }

  @inlinable @inline(__always)
  static func needsEscape(_ c: UInt8) -> Bool { !ByteSlice.isVerbatim(c) }

  /// Writes `p[0..<n]` escaped; `firstSpecial` is the offset of the first byte to escape.
  @inline(never)
  @usableFromInline mutating func writeEscaped(_ p: UnsafePointer<UInt8>, _ n: Int, firstSpecial: Int) {
    var runStart = 0
    var i = firstSpecial
    while true {
      if i > runStart {
        reserve(i - runStart)
        (buffer + count).update(from: p + runStart, count: i - runStart)
        count += i - runStart
      }
      if i >= n { return }
      writeEscape(of: UInt32(p[i]))
      i += 1
      runStart = i
      i += JSONOutput.firstByteNeedingEscape(p + i, n - i)
    }
  }

  /// Writes the escape of a character that needs one (`"`, `\`, U+0000–U+001F).
  @inlinable @inline(__always)
  mutating func writeEscape(of scalar: UInt32) {
    reserve(6)
    buffer[count] = ASCII.backslash
    let short: UInt8
    switch scalar {
    case 0x22: short = ASCII.quote
    case 0x5C: short = ASCII.backslash
    case 0x08: short = UInt8(ascii: "b")
    case 0x09: short = UInt8(ascii: "t")
    case 0x0A: short = UInt8(ascii: "n")
    case 0x0C: short = UInt8(ascii: "f")
    case 0x0D: short = UInt8(ascii: "r")
    default:
      let hexDigits: StaticString = "0123456789abcdef"
      let digits = hexDigits.utf8Start
      buffer[count + 1] = UInt8(ascii: "u")
      buffer[count + 2] = ASCII.zero
      buffer[count + 3] = ASCII.zero
      buffer[count + 4] = digits[Int(scalar >> 4)]
      buffer[count + 5] = digits[Int(scalar & 0xF)]
      count += 6
      return
    }
    buffer[count + 1] = short
    count += 2
  }

  /// Rewrites the contents of a scanned string that has escapes: raw runs are copied (they
  /// contain nothing to escape), each escape is decoded and written back canonically.
  @inline(never)
  @usableFromInline mutating func rewriteEscapes(_ p: UnsafePointer<UInt8>, _ n: Int) {
    var i = 0
    while i < n {
      var j = i
      while j < n && p[j] != ASCII.backslash { j += 1 }
      if j > i {
        reserve(j - i)
        (buffer + count).update(from: p + i, count: j - i)
        count += j - i
      }
      if j >= n { return }
      let (scalar, length) = EscapedText.decodeEscape(p + j, available: n - j)
      if scalar < 0x20 || scalar == 0x22 || scalar == 0x5C {
        writeEscape(of: scalar)
      } else {
        reserve(4)
        count += UTF8Encoding.write(scalar, to: buffer + count)
      }
      i = j + length
    }
  }
}
