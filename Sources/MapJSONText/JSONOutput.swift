import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import MapRuntime

/// A buffered JSON writer producing the store's exact bytes: Python's
/// `json.dump(…, indent=2, ensure_ascii=False)` (`.indented`) or
/// `separators=(",", ":")` (`.compact`), each followed by one newline (`finishDocument()`).
///
/// Output goes to a file descriptor through a large buffer, or accumulates in memory. The
/// structural calls (`beginObject`, `writeKey`, `writeString`, …) place commas, newlines and
/// indentation themselves; `[]` and `{}` are written for empty containers.
///
/// Write errors are sticky: the first failed `write(2)` is kept in `error`, later output is
/// dropped, and `flush()` / `finishDocument()` throw it. This keeps every value write free of
/// `try`. The writer is non-copyable: it owns its buffer.
public struct JSONOutput: ~Copyable {
  public enum Style: Sendable, Hashable {
    /// Two-space indentation, `"key": value`, one element per line.
    case indented
    /// No whitespace at all.
    case compact
  }

  @usableFromInline package let style: Style
  @usableFromInline var buffer: UnsafeMutablePointer<UInt8>
  @usableFromInline var count = 0
  @usableFromInline var capacity: Int
  /// -1 when writing to memory.
  @usableFromInline let fileDescriptor: Int32
  /// The file written to, for error messages.
  package let path: String
  /// The first write error; once set, further output is discarded.
  package private(set) var error: StoreIOError?
  /// Bytes handed to the file descriptor so far.
  package private(set) var bytesFlushed = 0
  /// Called after each flush to the file with `bytesFlushed` (progress reporting).
  package var onFlush: (@Sendable (Int) -> Void)?

  // Structure: how deep we are, whether the innermost container has no element yet, and
  // whether a key was just written (so the next value goes right after it).
  @usableFromInline var depth = 0
  @usableFromInline var containerIsEmpty = true
  @usableFromInline var afterKey = false

  /// With `startsWriteback`: where the writeback requests run, so they do not hold up the
  /// writing thread (nil: off).
  let writeback: WritebackQueue?

  /// A writer that flushes to `fileDescriptor` (not closed by the writer) whenever its
  /// `bufferCapacity`-byte buffer fills up.
  ///
  /// With `startsWriteback` (for output that will be `fsync`ed, as `AtomicFileWriter` does),
  /// each flush also asks the kernel to start writing the flushed range to disk
  /// (`sync_file_range(SYNC_FILE_RANGE_WRITE)` on Linux, from a background queue; nothing
  /// elsewhere), so the disk works while the rest is produced and the final `fsync` has little
  /// left to wait for.
  package init(
    fileDescriptor: Int32, path: String, style: Style, bufferCapacity: Int = 4 << 20,
    startsWriteback: Bool = false
  ) {
    self.style = style
    self.fileDescriptor = fileDescriptor
    self.path = path
    self.capacity = max(bufferCapacity, 4096)
    self.buffer = .allocate(capacity: self.capacity)
    writeback =
      startsWriteback && Writeback.isAvailable
      ? WritebackQueue(fileDescriptor, start: Int64(lseek(fileDescriptor, 0, SEEK_CUR))) : nil
  }

  /// A writer that keeps everything in memory (take it with `bytes` or `string`).
  package init(style: Style, initialCapacity: Int = 64 << 10) {
    self.style = style
    self.fileDescriptor = -1
    self.path = "<memory>"
    self.writeback = nil
    self.capacity = max(initialCapacity, 64)
    self.buffer = .allocate(capacity: self.capacity)
  }

  deinit {
    writeback?.wait()
    buffer.deallocate()
  }

  // MARK: - Buffer

  /// Makes room for `n` more bytes in the buffer.
  @inlinable @inline(__always)
  mutating func reserve(_ n: Int) {
    if count + n > capacity { makeRoom(n) }
  }

  @inline(never)
  @usableFromInline mutating func makeRoom(_ n: Int) {
    if fileDescriptor >= 0 {
      flush()
      if n <= capacity { return }
    }
    var larger = capacity * 2
    while larger < count + n { larger *= 2 }
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
    grown.update(from: buffer, count: count)
    buffer.deallocate()
    buffer = grown
    capacity = larger
  }

  /// Hands the buffered bytes to the file descriptor (nothing for a memory writer). A write
  /// error is kept in `error` and makes later output be dropped; `flushAndCheck()` and
  /// `finishDocument()` throw it.
  package mutating func flush() {
    guard fileDescriptor >= 0 else { return }
    writeToFile(buffer, count)
    count = 0
  }

  /// Writes bytes to the file descriptor (unless an earlier write failed), starting their
  /// writeback when asked to.
  mutating func writeToFile(_ bytes: UnsafePointer<UInt8>, _ length: Int) {
    guard error == nil else { return }
    let (done, failed) = WriteCalls.writeAll(fileDescriptor, bytes, length)
    if failed != 0 { error = StoreIOError.system(failed, path: path, operation: "write") }
    if let writeback, done > 0 {
      writeback.start(at: bytesFlushed, length: done)
    }
    bytesFlushed += done
    onFlush?(bytesFlushed)
  }

  /// Flushes and throws the first write error, if any.
  package mutating func flushAndCheck() throws(StoreIOError) {
    flush()
    if let error { throw error }
  }

  /// Ends the document: writes the final newline, flushes, and throws the first write error.
  package mutating func finishDocument() throws(StoreIOError) {
    precondition(depth == 0, "finishDocument() with \(depth) containers still open")
    writeRawByte(ASCII.newline)
    defer { writeback?.wait() }
    try flushAndCheck()
  }

  /// Everything written so far (memory writers only).
  package var bytes: [UInt8] {
    precondition(fileDescriptor < 0, "bytes is for memory writers")
    return Array(UnsafeBufferPointer(start: buffer, count: count))
  }

  /// Everything written so far as text (memory writers only).
  package var string: String {
    precondition(fileDescriptor < 0, "string is for memory writers")
    return String(decoding: UnsafeBufferPointer(start: buffer, count: count), as: UTF8.self)
  }

  // MARK: - Raw output

  /// Appends bytes as they are (no comma or indentation is added).
  @inlinable @inline(__always)
  package mutating func writeRawBytes(_ bytes: UnsafeRawBufferPointer) {
    let n = bytes.count
    guard n > 0 else { return }
    reserve(n)
    UnsafeMutableRawPointer(buffer + count).copyMemory(from: bytes.baseAddress!, byteCount: n)
    count += n
  }

  /// Appends one byte as it is.
  @inlinable @inline(__always)
  package mutating func writeRawByte(_ byte: UInt8) {
    reserve(1)
    buffer[count] = byte
    count += 1
  }

  /// Appends the bytes of a static text as they are.
  @inlinable @inline(__always)
  package mutating func writeRaw(_ text: StaticString) {
    text.withUTF8Buffer { writeRawBytes(UnsafeRawBufferPointer($0)) }
  }

  // MARK: - Structure

  /// Puts the separator before a value or key: nothing after a key or at top level, else a
  /// comma unless the container is still empty, then (indented) a newline and indentation.
  @inlinable @inline(__always)
  mutating func beginElement() {
    if afterKey {
      afterKey = false
      return
    }
    guard depth > 0 else { return }
    if style == .indented {
      let indent = depth &* 2
      reserve(indent &+ 2 &+ 8)
      if !containerIsEmpty {
        buffer[count] = ASCII.comma
        count &+= 1
      }
      buffer[count] = ASCII.newline
      writeSpaces(at: count &+ 1, indent)
      count &+= indent &+ 1
    } else if !containerIsEmpty {
      writeRawByte(ASCII.comma)
    }
    containerIsEmpty = false
  }

  /// Stores `n` spaces at `offset` eight at a time; may also overwrite up to 7 bytes after
  /// them, so the caller reserves 8 spare bytes (later output overwrites them).
  @inlinable @inline(__always)
  func writeSpaces(at offset: Int, _ n: Int) {
    var k = 0
    let p = UnsafeMutableRawPointer(buffer + offset)
    while k < n {
      p.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, toByteOffset: k, as: UInt64.self)
      k &+= 8
    }
  }

  /// Copies `n` bytes from `source` to the end of the buffer (room already reserved). Short
  /// copies use a few word moves instead of a call to `memcpy`.
  @inlinable @inline(__always)
  mutating func appendReserved(_ source: UnsafeRawPointer, _ n: Int) {
    let destination = UnsafeMutableRawPointer(buffer + count)
    if n <= 16 {
      if n >= 8 {
        let head = source.loadUnaligned(as: UInt64.self)
        let tail = source.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
        destination.storeBytes(of: head, as: UInt64.self)
        destination.storeBytes(of: tail, toByteOffset: n &- 8, as: UInt64.self)
      } else if n >= 4 {
        let head = source.loadUnaligned(as: UInt32.self)
        let tail = source.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
        destination.storeBytes(of: head, as: UInt32.self)
        destination.storeBytes(of: tail, toByteOffset: n &- 4, as: UInt32.self)
      } else {
        var k = 0
        while k < n {
          destination.storeBytes(
            of: source.load(fromByteOffset: k, as: UInt8.self), toByteOffset: k, as: UInt8.self)
          k &+= 1
        }
      }
    } else {
      destination.copyMemory(from: source, byteCount: n)
    }
    count &+= n
  }

  @inlinable @inline(__always)
  mutating func endContainer(_ close: UInt8) {
    precondition(depth > 0 && !afterKey, "unbalanced end of container")
    depth -= 1
    if style == .indented && !containerIsEmpty {
      let indent = depth &* 2
      reserve(indent &+ 2 &+ 8)
      buffer[count] = ASCII.newline
      writeSpaces(at: count &+ 1, indent)
      count &+= indent &+ 1
    }
    reserve(1)
    buffer[count] = close
    count &+= 1
    containerIsEmpty = false
  }

  @inlinable @inline(__always)
  mutating func beginContainer(_ open: UInt8) {
    beginElement()
    writeRawByte(open)
    depth += 1
    containerIsEmpty = true
  }

  @inlinable @inline(__always)
  package mutating func beginObject() { beginContainer(ASCII.openBrace) }

  @inlinable @inline(__always)
  package mutating func endObject() { endContainer(ASCII.closeBrace) }

  @inlinable @inline(__always)
  package mutating func beginArray() { beginContainer(ASCII.openBracket) }

  @inlinable @inline(__always)
  package mutating func endArray() { endContainer(ASCII.closeBracket) }

  /// Writes an object member's name and the `:` (with a space when indented); the next value
  /// written is the member's value.
  @inlinable @inline(__always)
  package mutating func writeKey(_ key: PreparedKey) {
    precondition(depth > 0 && !afterKey, "writeKey outside an object or twice in a row")
    beginElement()
    key.bytes.withUnsafeBytes { raw in
      writeRawBytes(
        UnsafeRawBufferPointer(rebasing: raw[..<(style == .indented ? raw.count : raw.count - 1)]))
    }
    afterKey = true
  }

  /// Writes an object member's name (escaped as needed) and the `:`.
  package mutating func writeKey(_ key: String) {
    precondition(depth > 0 && !afterKey, "writeKey outside an object or twice in a row")
    beginElement()
    writeQuoted(key)
    writeColon()
  }

  /// Writes an object member's name taken from a scanned key or string (see
  /// `writeString(raw:hasEscapes:)`) and the `:`.
  @inlinable @inline(__always)
  package mutating func writeKey(raw: UnsafeRawBufferPointer, hasEscapes: Bool) {
    precondition(depth > 0 && !afterKey, "writeKey outside an object or twice in a row")
    beginElement()
    writeQuotedInput(raw, hasEscapes: hasEscapes)
    writeColon()
  }

  @inlinable @inline(__always)
  mutating func writeColon() {
    if style == .indented {
      reserve(2)
      buffer[count] = ASCII.colon
      buffer[count &+ 1] = ASCII.space
      count &+= 2
    } else {
      writeRawByte(ASCII.colon)
    }
    afterKey = true
  }
}

extension JSONOutput {
  /// The file descriptor a file writer writes to (-1 for a memory writer).
  package var descriptor: Int32 { fileDescriptor }

  /// Records `n` bytes that went to the file descriptor directly, after a `flush()`: elements
  /// of the innermost container rendered elsewhere (`init(continuing:isFirst:)`), which is no
  /// longer empty when there were any.
  package mutating func wroteDirectly(_ n: Int) {
    guard n > 0 else { return }
    writeback?.start(at: bytesFlushed, length: n)
    bytesFlushed += n
    containerIsEmpty = false
    onFlush?(bytesFlushed)
  }
}
