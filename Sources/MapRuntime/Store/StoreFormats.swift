#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a store's format is found: by name (`--store-format`) or from the first bytes of the file,
/// among the formats a program knows, which it lists itself (`mapc`: SQLite, then JSON).
package enum StoreFormats {
  /// Bytes of a file `recognizes(prefix:)` sees.
  package static let prefixLength = 64

  /// The format named `name` (case-insensitive).
  package static func named(_ name: String, among formats: [any StoreFormat]) -> (any StoreFormat)? {
    formats.first { $0.name == name.lowercased() }
  }

  /// The format of the file at `path` from its first bytes: the first of `formats` that
  /// recognizes them, else the last one (the format of last resort, which reports what is
  /// wrong with the file when it reads it, a missing file included: mapc's is JSON).
  package static func detect(_ path: String, among formats: [any StoreFormat]) -> any StoreFormat {
    let prefix = firstBytes(of: path)
    return formats.first { $0.recognizes(prefix: prefix) } ?? formats[formats.count - 1]
  }

  /// The format named `name`, else the one of the file's content.
  package static func resolve(
    _ name: String?, path: String, among formats: [any StoreFormat]
  ) throws(MigrationFailure) -> any StoreFormat {
    guard let name else { return detect(path, among: formats) }
    guard let format = named(name, among: formats) else {
      throw MigrationFailure([
        MigrationError(
          "store-format-unknown",
          "unknown store format '\(name)' (formats: \(formats.map(\.name).joined(separator: ", ")))", file: path)
      ])
    }
    return format
  }

  /// The first bytes of a regular file; nothing for anything else (a FIFO, a device, a
  /// folder), which is then never opened here: the JSON reader refuses it with its own error.
  static func firstBytes(of path: String) -> [UInt8] {
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return [] }
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return [] }
    defer { _ = close(fd) }
    var buffer = [UInt8](repeating: 0, count: prefixLength)
    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, prefixLength) }
    return n > 0 ? Array(buffer[..<n]) : []
  }
}
