#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import MapRuntime

/// The owners and properties of the links out of a chunk that `ChunkReader` checks at the end
/// (`ChunkLinks.outside`), in a file of the run's scratch folder, read back only to name the
/// links whose id names no object: memory stays a buffer's, whatever the store's links.
final class OutsideLinkFile {
  private let path: String
  private var fd: Int32 = -1
  private var buffer: [UInt8] = []
  private(set) var count = 0

  init(folder: String) { path = "\(folder)/outside-links" }

  deinit { if fd >= 0 { _ = close(fd) } }

  /// Adds the link at file offset `offset`, from `owner`'s `property`.
  func append(offset: Int, owner: String, property: String) throws(StoreIOError) {
    Self.put(UInt64(offset), &buffer)
    for text in [owner, property] {
      Self.put(UInt64(text.utf8.count), &buffer)
      buffer.append(contentsOf: text.utf8)
    }
    count += 1
    if buffer.count >= 1 << 20 { try flush() }
  }

  private static func put(_ v: UInt64, _ into: inout [UInt8]) {
    withUnsafeBytes(of: v.littleEndian) { into.append(contentsOf: $0) }
  }

  private func flush() throws(StoreIOError) {
    guard !buffer.isEmpty else { return }
    if fd < 0 {
      fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      guard fd >= 0 else { throw StoreIOError.system(errno, path: path, operation: "write") }
    }
    let n = buffer.withUnsafeBytes { WriteCalls.write(fd, $0.baseAddress!, $0.count) }
    guard n == buffer.count else { throw StoreIOError.system(errno, path: path, operation: "write") }
    buffer.removeAll(keepingCapacity: true)
  }

  /// The owner and property of each link at one of `offsets`.
  func links(at offsets: Set<Int>) throws(StoreIOError) -> [Int: (owner: String, property: String)] {
    try flush()
    var found: [Int: (owner: String, property: String)] = [:]
    guard fd >= 0, !offsets.isEmpty else { return found }
    var data: [UInt8] = []
    var at = 0
    var end = false
    // Reads on from the file until `need` bytes past `at` are in `data`.
    func fill(_ need: Int) throws(StoreIOError) -> Bool {
      while data.count - at < need && !end {
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n >= 0 else { throw StoreIOError.system(errno, path: path, operation: "read") }
        if n == 0 { end = true }
        data.removeFirst(at)
        at = 0
        data.append(contentsOf: chunk[0..<n])
      }
      return data.count - at >= need
    }
    func number() throws(StoreIOError) -> Int? {
      guard try fill(8) else { return nil }
      var v: UInt64 = 0
      for k in 0..<8 { v |= UInt64(data[at + k]) << (8 * k) }
      at += 8
      return Int(v)
    }
    func text() throws(StoreIOError) -> String? {
      guard let n = try number(), try fill(n) else { return nil }
      defer { at += n }
      return String(decoding: data[at..<(at + n)], as: UTF8.self)
    }
    guard lseek(fd, 0, SEEK_SET) == 0 else { throw StoreIOError.system(errno, path: path, operation: "read") }
    while found.count < offsets.count, let offset = try number(), let owner = try text(), let property = try text() {
      if offsets.contains(offset) { found[offset] = (owner, property) }
    }
    return found
  }
}
