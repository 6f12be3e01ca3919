import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The whole contents of a file, read into one contiguous buffer that lives as long as this
/// object.
///
/// The file is read with a `read` loop into a buffer sized from `fstat`, not mapped: a mapping
/// would crash the process with `SIGBUS` if another program truncated the file while mapc
/// scans it (and `--in-place` runs replace that very file), and reading also works for pipes
/// and `/proc` files whose size `fstat` does not know. The copy out of the page cache costs
/// far less than scanning the bytes. The buffer carries `paddingCount` zero bytes after the
/// contents, which are not part of `count`.
///
/// The contents never change after `init`, so the object can be shared between threads.
public final class InputBytes: @unchecked Sendable {
  /// Zero bytes kept after the contents (not counted in `count`).
  public static let paddingCount = 64

  /// The path the bytes were read from.
  public let path: String
  /// Number of bytes of file contents.
  public let count: Int
  /// Whether the file holds more than `count` bytes: only its first bytes were read (`limit`).
  public private(set) var isPrefix = false
  private let storage: UnsafeMutableRawPointer
  /// Bytes allocated at `storage` (see `LargeBuffer`).
  private let allocated: Int

  /// Reads the file at `path`. Errors name the path: missing file, folder, permission, I/O.
  /// With `regularFileOnly` (stores), a device, FIFO or socket is refused without blocking
  /// (`io-not-regular-file`: a FIFO is opened non-blocking), and so is a file larger than
  /// `maxBytes` (`limit-input-size`, with both figures), before any memory is taken for it.
  /// With `limit`, at most the first `limit` bytes of a regular file are read, and `isPrefix`
  /// says whether more followed (for a peek at what a file starts with).
  public init(
    contentsOf path: String, regularFileOnly: Bool = false, maxBytes: Int = .max, limit: Int = .max
  ) throws(StoreIOError) {
    self.path = path
    let fd = open(path, O_RDONLY | O_CLOEXEC | (regularFileOnly ? O_NONBLOCK : 0))
    if fd < 0 { throw StoreIOError.system(errno, path: path, operation: "read") }
    defer { _ = close(fd) }

    var info = stat()
    if fstat(fd, &info) != 0 { throw StoreIOError.system(errno, path: path, operation: "read") }
    if (info.st_mode & S_IFMT) == S_IFDIR {
      throw StoreIOError(
        code: .isDirectory, path: path, operation: "read", reason: "it is a folder, not a file",
        errno: EISDIR)
    }
    if regularFileOnly && (info.st_mode & S_IFMT) != S_IFREG {
      throw StoreIOError(
        code: .notRegularFile, path: path, operation: "read",
        reason:
          "it is \(FileKind.describe(info.st_mode & S_IFMT)), not a regular file; mapc reads only regular files here"
      )
    }
    if Int(info.st_size) > maxBytes {
      throw StoreIOError(
        code: .tooLarge, path: path, operation: "read",
        reason:
          "the file is \(ByteCount.text(Int(info.st_size))), more than the \(ByteCount.text(maxBytes)) mapc reads (for a store: half the machine's memory, or MAPC_MAX_STORE_BYTES when set)"
      )
    }
    if regularFileOnly {
      // Reads block again (O_NONBLOCK only kept open(2) from waiting for a FIFO's writer).
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    }
    #if os(Linux)
      _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
    #endif

    // A regular file longer than `limit`: its first `limit` bytes only, in one buffer.
    let prefix = (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_size) > limit
    // One extra byte beyond the size `fstat` reports lets the loop see end-of-file without
    // growing the buffer in the common case.
    var capacity = prefix ? limit : max(Int(info.st_size), 0) + 1
    var buffer = LargeBuffer.allocate(byteCount: capacity + InputBytes.paddingCount)
    var filled = 0
    if !prefix, (info.st_mode & S_IFMT) == S_IFREG, InputBytes.readHalves(fd, into: buffer, count: capacity - 1) {
      // The loop below then only sees the end of the file (or what was added since fstat).
      filled = capacity - 1
      if lseek(fd, off_t(filled), SEEK_SET) < 0 { filled = 0 }
    }
    while true {
      if filled == capacity {
        if prefix {
          isPrefix = true
          break
        }
        if filled > maxBytes {
          LargeBuffer.deallocate(buffer, byteCount: capacity + InputBytes.paddingCount)
          throw StoreIOError(
            code: .tooLarge, path: path, operation: "read",
            reason:
              "it holds more than the \(ByteCount.text(maxBytes)) mapc reads (for a store: half the machine's memory, or MAPC_MAX_STORE_BYTES when set)"
          )
        }
        let larger = capacity * 2 + 65_536
        let grown = LargeBuffer.allocate(byteCount: larger + InputBytes.paddingCount)
        grown.copyMemory(from: buffer, byteCount: filled)
        LargeBuffer.deallocate(buffer, byteCount: capacity + InputBytes.paddingCount)
        buffer = grown
        capacity = larger
      }
      let n = read(fd, buffer + filled, capacity - filled)
      if n > 0 {
        filled += n
      } else if n == 0 {
        break
      } else if errno != EINTR {
        let err = errno
        LargeBuffer.deallocate(buffer, byteCount: capacity + InputBytes.paddingCount)
        throw StoreIOError.system(err, path: path, operation: "read")
      }
    }
    (buffer + filled).initializeMemory(as: UInt8.self, repeating: 0, count: InputBytes.paddingCount)
    self.storage = buffer
    self.allocated = capacity + InputBytes.paddingCount
    self.count = filled
  }

  /// Reads the first `count` bytes of a large file in two halves at once (`pread`, which leaves
  /// the file offset alone): copying out of the page cache is work for a core. False unless
  /// every byte came, for small files, and with one processor.
  private static func readHalves(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Bool {
    guard count >= 16 << 20, Cores.workers > 1 else { return false }
    let ok = UnsafeMutableBufferPointer<Bool>.allocate(capacity: 2)
    ok.initialize(repeating: false)
    defer { ok.deallocate() }
    nonisolated(unsafe) let (base, done) = (buffer, ok)
    DispatchQueue.concurrentPerform(iterations: 2) { k in
      var at = k == 0 ? 0 : count / 2
      let end = k == 0 ? count / 2 : count
      while at < end {
        let n = pread(fd, base + at, end - at, off_t(at))
        if n > 0 {
          at += n
        } else if n < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
      done[k] = true
    }
    return ok[0] && ok[1]
  }

  /// Wraps a copy of `bytes` (for tests and for stores that do not come from a file).
  public convenience init(_ bytes: some Collection<UInt8>, path: String = "<memory>") {
    self.init(joining: bytes, EmptyCollection(), path: path)
  }

  /// Wraps a copy of `head` followed by `tail`, in one buffer (a store's values and what is
  /// rendered after them): contiguous collections are copied with one `memcpy` each.
  public init(joining head: some Collection<UInt8>, _ tail: some Collection<UInt8>, path: String = "<memory>") {
    self.path = path
    let total = head.count + tail.count
    self.count = total
    allocated = total + InputBytes.paddingCount
    storage = LargeBuffer.allocate(byteCount: allocated)
    let filled = Self.copy(head, to: storage)
    _ = Self.copy(tail, to: storage + filled)
    (storage + total).initializeMemory(as: UInt8.self, repeating: 0, count: InputBytes.paddingCount)
  }

  /// Copies `bytes` to `target`; returns how many were copied.
  private static func copy(_ bytes: some Collection<UInt8>, to target: UnsafeMutableRawPointer) -> Int {
    let copied = bytes.withContiguousStorageIfAvailable { p -> Int in
      if let base = p.baseAddress { target.copyMemory(from: base, byteCount: p.count) }
      return p.count
    }
    if let copied { return copied }
    let typed = target.bindMemory(to: UInt8.self, capacity: bytes.count)
    var i = 0
    for byte in bytes {
      typed[i] = byte
      i += 1
    }
    return i
  }

  /// Takes over a buffer of `allocated` bytes from `LargeBuffer.allocate` that holds `count`
  /// bytes followed by `paddingCount` zero bytes.
  package init(adopting storage: UnsafeMutableRawPointer, allocated: Int, count: Int, path: String) {
    self.path = path
    self.count = count
    self.storage = storage
    self.allocated = allocated
  }

  deinit { LargeBuffer.deallocate(storage, byteCount: allocated) }

  /// Calls `body` with the contents (without the padding). The pointer must not escape `body`.
  @inlinable
  public func withUnsafeBytes<R, E: Error>(
    _ body: (UnsafeRawBufferPointer) throws(E) -> R
  ) throws(E) -> R {
    defer { withExtendedLifetime(self) {} }
    return try body(unsafeBytes)
  }

  /// The contents, valid only while this object is alive. Prefer `withUnsafeBytes`; this is
  /// for readers that keep the object alive themselves for the whole scan.
  public var unsafeBytes: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: storage, count: count)
  }
}
