#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import MapJSONText
import MapRuntime

extension JSONOutput {
  /// Appends the bytes `range` of the file `source` to this writer's file, after what it has
  /// buffered, as elements of its innermost container rendered elsewhere (`wroteDirectly`).
  mutating func appendFile(_ source: Int32, _ range: Range<Int>) throws(StoreIOError) {
    guard !range.isEmpty else { return }
    try flushAndCheck()
    try FileCopy.copy(source, range, to: descriptor, path: path)
    wroteDirectly(range.count)
  }
}

/// Copies between files, in the kernel where it can.
enum FileCopy {
  /// Copies the bytes `range` of `source` to `fd`, at its offset.
  static func copy(_ source: Int32, _ range: Range<Int>, to fd: Int32, path: String) throws(StoreIOError) {
    #if os(Linux)
      // In the kernel, without the bytes coming up to this process and going down again; a
      // file system or kernel that cannot (EXDEV, ENOSYS, EINVAL…) gets the loop below.
      var from = Int64(range.lowerBound)
      while from < range.upperBound {
        let n = copyFileRange(source, &from, fd, nil, range.upperBound - Int(from), 0)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
      }
      if from == range.upperBound { return }
      try copyByReading(source, Int(from)..<range.upperBound, to: fd, path: path)
    #else
      try copyByReading(source, range, to: fd, path: path)
    #endif
  }

  private static func copyByReading(_ source: Int32, _ range: Range<Int>, to fd: Int32, path: String)
    throws(StoreIOError)
  {
    let size = 8 << 20
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    defer { buffer.deallocate() }
    var at = range.lowerBound
    while at < range.upperBound {
      let n = pread(source, buffer, min(size, range.upperBound - at), off_t(at))
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw StoreIOError.system(n < 0 ? errno : EIO, path: path, operation: "write") }
      if WriteCalls.write(fd, buffer, n) != n { throw StoreIOError.system(errno, path: path, operation: "write") }
      at += n
    }
  }
}

#if os(Linux)
  /// `copy_file_range(2)` (glibc 2.27, musl 1.1.24), which Swift's Glibc module does not
  /// declare without `_GNU_SOURCE`.
  @_silgen_name("copy_file_range")
  private func copyFileRange(
    _ input: Int32, _ inputOffset: UnsafeMutablePointer<Int64>?, _ output: Int32,
    _ outputOffset: UnsafeMutablePointer<Int64>?, _ length: Int, _ flags: UInt32
  ) -> Int
#endif
