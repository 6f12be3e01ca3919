/// Bytes appended one run after another into one buffer from `LargeBuffer`, handed over at the
/// end as the run's `InputBytes` without a copy (a store reader's payloads, which the graph's
/// slices point into).
///
/// A reader that knows about how many bytes to expect (the size of the file it reads) reserves
/// them: a mapped buffer takes memory only where it is written, so the reserve costs address
/// space, not memory, and the buffer is not copied as it fills. Past the reserve it doubles.
package final class ByteArena: @unchecked Sendable {
  private var storage: UnsafeMutableRawPointer?
  /// Bytes allocated at `storage`, the padding `InputBytes` needs included.
  private var allocated = 0
  /// Bytes appended.
  package private(set) var count = 0
  private let reserve: Int

  /// `expected`: about how many bytes will be appended (allocated at the first append).
  package init(expected: Int = 0) { reserve = max(expected, 0) }

  deinit { if let storage { LargeBuffer.deallocate(storage, byteCount: allocated) } }

  package func append(_ byte: UInt8) {
    ensure(1)
    storage!.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
    count += 1
  }

  package func append(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    ensure(bytes.count)
    (storage! + count).copyMemory(from: base, byteCount: bytes.count)
    count += bytes.count
  }

  package func append(_ bytes: [UInt8]) { bytes.withUnsafeBytes { append($0) } }

  /// Appends what `other` holds.
  package func append(_ other: ByteArena) {
    guard let source = other.storage else { return }
    append(UnsafeRawBufferPointer(start: source, count: other.count))
  }

  /// The bytes appended so far, as input bytes read from `path`; the arena is empty after.
  package func take(path: String) -> InputBytes {
    ensure(0)
    let p = storage!
    (p + count).initializeMemory(as: UInt8.self, repeating: 0, count: InputBytes.paddingCount)
    let result = InputBytes(adopting: p, allocated: allocated, count: count, path: path)
    storage = nil
    allocated = 0
    count = 0
    return result
  }

  /// Room for `extra` more bytes and the padding after them.
  @inline(__always) private func ensure(_ extra: Int) {
    let needed = count + extra + InputBytes.paddingCount
    if needed > allocated { grow(to: needed) }
  }

  private func grow(to needed: Int) {
    var size = max(needed, storage == nil ? reserve + InputBytes.paddingCount : allocated * 2, 65_536)
    let larger: UnsafeMutableRawPointer
    if let p = LargeBuffer.allocateIfPossible(byteCount: size) {
      larger = p
    } else {
      // A reserve the system will not map (strict overcommit): room for what is needed now.
      size = max(needed + needed / 2, 65_536)
      larger = LargeBuffer.allocate(byteCount: size)
    }
    if let storage {
      larger.copyMemory(from: storage, byteCount: count)
      LargeBuffer.deallocate(storage, byteCount: allocated)
    }
    storage = larger
    allocated = size
  }
}
