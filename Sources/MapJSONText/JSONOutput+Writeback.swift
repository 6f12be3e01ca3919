import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import MapRuntime

/// Writeback requests of one writer, made in order on a background queue; `wait()` returns
/// once all are made (before the file is synced or closed).
final class WritebackQueue: @unchecked Sendable {
  private let fd: Int32
  /// The file offset where the writer's output begins.
  private let start: Int64
  private let queue = DispatchQueue(label: "mapc.writeback")
  private let group = DispatchGroup()

  init(_ fd: Int32, start: Int64) {
    self.fd = fd
    self.start = start
  }

  /// Asks for the writer's bytes `offset..<offset + length` to be written to disk.
  func start(at offset: Int, length: Int) {
    let (fd, from) = (fd, start + Int64(offset))
    queue.async(group: group) { Writeback.start(fd, offset: from, length: length) }
  }

  func wait() { group.wait() }
}

/// Early writeback of flushed output (Linux `sync_file_range`, looked up at run time because
/// the Glibc module does not import it).
enum Writeback {
  typealias SyncFileRange = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32

  /// The function's address, or 0 when the C library has none.
  static let address: UInt = {
    #if os(Linux)
      if let symbol = dlsym(nil, "sync_file_range") { return UInt(bitPattern: symbol) }
    #endif
    return 0
  }()

  static var isAvailable: Bool { address != 0 }

  /// Starts writing `length` bytes at `offset` to disk without waiting. Failures are ignored:
  /// the final `fsync` still writes everything and reports errors.
  static func start(_ fd: Int32, offset: Int64, length: Int) {
    guard let pointer = UnsafeRawPointer(bitPattern: address) else { return }
    let function = unsafeBitCast(pointer, to: SyncFileRange.self)
    let syncFileRangeWrite: UInt32 = 2  // SYNC_FILE_RANGE_WRITE
    _ = function(fd, offset, Int64(length), syncFileRangeWrite)
  }
}
