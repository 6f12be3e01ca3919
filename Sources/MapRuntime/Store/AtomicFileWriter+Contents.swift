#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension AtomicFileWriter {
  /// Replaces `path` with `bytes` the one way mapc replaces any file (plans, mappings, mapping
  /// models, baselines, pins): a temporary file beside it, every byte written, `fsync`, rename,
  /// `fsync` of the folder. Only regular files are replaced; a symbolic link keeps pointing
  /// where it did and the file it names gets the contents. On failure `path` is unchanged and
  /// no temporary file is left.
  public static func replaceContents(of path: String, with bytes: [UInt8]) throws(StoreIOError) {
    let writer = try AtomicFileWriter(target: path)
    let failed = bytes.withUnsafeBytes { raw -> Int32 in
      guard let base = raw.baseAddress else { return 0 }  // nothing to write
      return WriteCalls.writeAll(writer.fileDescriptor, base, raw.count).error
    }
    if failed != 0 {
      writer.abandon()
      throw StoreIOError.system(failed, path: path, operation: "write")
    }
    try writer.commit()
  }

  /// `replaceContents(of:with:)` for text, written as UTF-8.
  public static func replaceContents(of path: String, with text: String) throws(StoreIOError) {
    try replaceContents(of: path, with: Array(text.utf8))
  }

  /// `replaceContents(of:with:)` with the contents of the file at `source`, copied a MiB at a
  /// time (memory stays flat whatever its size).
  public static func replaceContents(of path: String, withFile source: String) throws(StoreIOError) {
    let input = open(source, O_RDONLY | O_CLOEXEC)
    if input < 0 { throw StoreIOError.system(errno, path: source, operation: "read") }
    defer { _ = close(input) }
    let writer = try AtomicFileWriter(target: path)
    if let (code, reading) = copyAllBytes(from: input, to: writer.fileDescriptor) {
      writer.abandon()
      throw StoreIOError.system(code, path: reading ? source : path, operation: reading ? "read" : "write")
    }
    try writer.commit()
  }
}
