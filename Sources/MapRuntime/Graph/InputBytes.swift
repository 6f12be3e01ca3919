/// The bytes of an input store, kept for the whole run: string values and Transformable values
/// of the source store are slices of it.
public final class InputBytes: @unchecked Sendable {
  public let bytes: UnsafeMutableRawBufferPointer
  public let path: String

  /// Takes ownership of `bytes` (allocated with `UnsafeMutableRawBufferPointer.allocate`).
  public init(bytes: UnsafeMutableRawBufferPointer, path: String) {
    self.bytes = bytes
    self.path = path
  }

  public convenience init(copying array: [UInt8], path: String) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(array.count, 1), alignment: 16)
    array.withUnsafeBytes { src in
      if let base = src.baseAddress, let dst = buffer.baseAddress {
        dst.copyMemory(from: base, byteCount: src.count)
      }
    }
    self.init(bytes: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<array.count]), path: path)
  }

  deinit { bytes.deallocate() }

  public var count: Int { bytes.count }

  @inline(__always) public func buffer(_ slice: ByteSlice) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: bytes[slice.start..<slice.end])
  }
}
