#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import MapRuntime

/// The rows of one entity table of a store written from chunks (`CoreDataChunkWriter`), kept
/// in a scratch file as the values they bind, in order, until the store is written: per row
/// its `Z_PK`, its `Z_OPT` (0: none) and one cell per column of the table.
///
/// A cell is a tag byte and its payload: 0 NULL; 1 an integer and 2 a REAL (8 bytes, little
/// endian, a REAL as its bit pattern); 3 text and 4 a BLOB (an 8-byte length, then the bytes).
/// The format is private to a run: written and read by this type, removed with the run's
/// scratch folder.
final class ScratchRows {
  let path: String
  private var fd: Int32
  private var pending: [UInt8] = []
  /// Rows written.
  private(set) var count = 0
  /// Whether any row has a `Z_OPT` of its own (`EntityTable.objectVersions`).
  var versioned = false
  /// The highest `Z_PK` of the rows.
  var highestKey: Int64 = 0
  /// What cannot be stored, found in the table's columns (`CoreDataWriter.slots`) as chunks
  /// were rendered; the rows' own errors are the writer's (`CoreDataChunkWriter`).
  var columnErrors: [String] = []

  /// Bytes gathered before they are written to the file.
  private static let flushSize = 1 << 20

  init(path: String) throws(MigrationFailure) {
    self.path = path
    fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if fd < 0 { throw Self.failure(errno, path, "write") }
    pending.reserveCapacity(Self.flushSize + 4096)
  }

  deinit { if fd >= 0 { close(fd) } }

  static func failure(_ code: Int32, _ path: String, _ operation: String) -> MigrationFailure {
    MigrationFailure(StoreIOError.system(code, path: path, operation: operation), file: path)
  }

  // MARK: - Writing

  func beginRow(key: Int64, version: Int64) {
    count += 1
    putInteger(key)
    putInteger(version)
  }

  func putNull() { pending.append(0) }

  func putInteger(_ n: Int64) {
    pending.append(1)
    withUnsafeBytes(of: n.littleEndian) { pending.append(contentsOf: $0) }
  }

  func putReal(_ d: Double) {
    pending.append(2)
    withUnsafeBytes(of: d.bitPattern.littleEndian) { pending.append(contentsOf: $0) }
  }

  func putText(_ utf8: UnsafeRawBufferPointer) { putBytes(3, utf8) }

  func putText(_ s: String) {
    var s = s
    s.withUTF8 { putBytes(3, UnsafeRawBufferPointer($0)) }
  }

  func putBlob(_ bytes: [UInt8]) { bytes.withUnsafeBytes { putBytes(4, $0) } }

  func put(_ v: SQLiteValue) {
    switch v {
    case .null, .malformedText: putNull()
    case .integer(let n): putInteger(n)
    case .real(let d): putReal(d)
    case .text(let s): putText(s)
    case .blob(let b): putBlob(b)
    }
  }

  private func putBytes(_ tag: UInt8, _ bytes: UnsafeRawBufferPointer) {
    pending.append(tag)
    withUnsafeBytes(of: Int64(bytes.count).littleEndian) { pending.append(contentsOf: $0) }
    pending.append(contentsOf: bytes)
  }

  /// Writes what was gathered when there is enough of it (`force`: all of it).
  func flush(force: Bool = false) throws(MigrationFailure) {
    guard pending.count >= Self.flushSize || (force && !pending.isEmpty) else { return }
    let (done, error) = pending.withUnsafeBytes { WriteCalls.writeAll(fd, $0.baseAddress!, $0.count) }
    if done != pending.count { throw Self.failure(error, path, "write") }
    pending.removeAll(keepingCapacity: true)
  }

  // MARK: - Reading

  /// Reads the rows back from the start, in order (after `flush(force: true)`).
  struct Reader: ~Copyable {
    private let fd: Int32
    private let path: String
    private var buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var offset: Int64 = 0

    init(_ rows: ScratchRows) {
      fd = rows.fd
      path = rows.path
      buffer = .allocate(byteCount: 1 << 20, alignment: 8)
    }

    deinit { buffer.deallocate() }

    /// Makes at least `n` unread bytes available in the buffer.
    private mutating func ensure(_ n: Int) throws(MigrationFailure) {
      guard end - start < n else { return }
      let kept = end - start
      if n > buffer.count {
        let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: max(n, buffer.count * 2), alignment: 8)
        larger.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: kept)
        buffer.deallocate()
        buffer = larger
      } else if kept > 0 {
        memmove(buffer.baseAddress!, buffer.baseAddress! + start, kept)
      }
      start = 0
      end = kept
      while end < n {
        let got = pread(fd, buffer.baseAddress! + end, buffer.count - end, off_t(offset))
        if got < 0 && errno == EINTR { continue }
        if got < 0 { throw ScratchRows.failure(errno, path, "read") }
        if got == 0 { throw ScratchRows.failure(EIO, path, "read (the scratch file ended early)") }
        end += got
        offset += Int64(got)
      }
    }

    mutating func integer() throws(MigrationFailure) -> Int64 {
      try ensure(9)
      defer { start += 9 }
      return Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: start + 1, as: Int64.self))
    }

    /// The next cell bound into `column` of `statement`: text and BLOBs are copied by SQLite.
    mutating func bindCell(_ statement: SQLiteStatement, _ column: Int) throws(MigrationFailure) {
      try ensure(1)
      let tag = buffer[start]
      var number: Int64 = 0
      var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
      switch tag {
      case 0: start += 1
      case 1, 2: number = try integer()
      default:
        try ensure(9)
        let n = Int(Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: start + 1, as: Int64.self)))
        try ensure(9 + n)
        bytes = UnsafeRawBufferPointer(rebasing: buffer[(start + 9)..<(start + 9 + n)])
        start += 9 + n
      }
      do throws(SQLiteDatabase.Failure) {
        switch tag {
        case 0: try statement.bindNull(column)
        case 1: try statement.bindInteger(column, number)
        case 2: try statement.bindReal(column, Double(bitPattern: UInt64(bitPattern: number)))
        case 3: try statement.bindTextCopy(column, bytes)
        default: try statement.bind(column, .blob(Array(bytes)))
        }
      } catch {
        throw MigrationFailure([
          MigrationError("sqlite-write", "cannot write the store: \(error.message)", file: nil)
        ])
      }
    }
  }
}
