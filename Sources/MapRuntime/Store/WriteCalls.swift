import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system calls through which mapc writes a store, its backup and their folder: the one
/// seam where faults are injected to test that a failing write never damages a file.
///
/// `MAPC_FAULT` (read once) makes them fail, for the tests and for anyone checking a setup:
/// - `write-at=N`: the write that would take the file past byte N fails with EIO;
/// - `full-at=N`: likewise with ENOSPC (a full disk);
/// - `fsync`: flushing a file fails with EIO;
/// - `rename`: the rename over the target fails with EIO;
/// - `folder-fsync`: flushing the folder fails with EIO.
/// Several can be given, separated by commas. Without it the calls are the plain ones.
package enum WriteCalls {
  package struct Faults {
    var failWriteAt: (byte: Int, errno: Int32)?
    var fsync = false
    var rename = false
    var folderFsync = false
  }

  package static let faults: Faults? = {
    guard let raw = getenv("MAPC_FAULT") else { return nil }
    var f = Faults()
    for item in String(cString: raw).split(separator: ",") {
      let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
      switch parts[0] {
      case "write-at": f.failWriteAt = (Int(parts.last ?? "") ?? 0, EIO)
      case "full-at": f.failWriteAt = (Int(parts.last ?? "") ?? 0, ENOSPC)
      case "fsync": f.fsync = true
      case "rename": f.rename = true
      case "folder-fsync": f.folderFsync = true
      default: break
      }
    }
    return f
  }()

  /// Bytes written through `write` so far (for `write-at`, `full-at`). A counter under a lock,
  /// not `Synchronization.Atomic`, which needs macOS 15 (the package supports macOS 13).
  private static let written = WrittenCount()

  private final class WrittenCount: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func load() -> Int { lock.withLock { value } }
    func add(_ n: Int) { lock.withLock { value += n } }
  }

  package static func write(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    if let (at, err) = faults?.failWriteAt {
      let before = written.load()
      if before + count > at {
        // The bytes before N are written (a short write), then the failure.
        if before < at {
          let n = PlatformCalls.write(fd, bytes, at - before)
          if n > 0, faults != nil { written.add(n) }
          return n
        }
        errno = err
        return -1
      }
    }
    let n = PlatformCalls.write(fd, bytes, count)
    if n > 0, faults != nil { written.add(n) }
    return n
  }

  /// Writes all `count` bytes through `write`, going on after short writes and EINTR. Returns
  /// how many bytes were written and 0, or with the errno of the write that failed (EIO when a
  /// write wrote nothing).
  package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> (written: Int, error: Int32) {
    var done = 0
    while done < count {
      let n = write(fd, bytes + done, count - done)
      if n > 0 {
        done += n
      } else if n < 0 && errno == EINTR {
        continue
      } else {
        return (done, n < 0 ? errno : EIO)
      }
    }
    return (done, 0)
  }

  package static func fsync(_ fd: Int32) -> Int32 {
    if faults?.fsync == true {
      errno = EIO
      return -1
    }
    return PlatformCalls.fsync(fd)
  }

  package static func rename(_ from: String, _ to: String) -> Int32 {
    if faults?.rename == true {
      errno = EIO
      return -1
    }
    return PlatformCalls.rename(from, to)
  }

  /// Flushes the folder holding `path` to disk. 0, or the errno of a real failure: folders
  /// that cannot be opened for reading or synced at all (EACCES, EINVAL, ENOTSUP…) count as
  /// success, as some file systems do not sync folders; EIO and the like do not.
  package static func syncFolder(of path: String) -> Int32 {
    let fd = open(splitPath(path).folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if fd < 0 { return errno == EIO ? EIO : 0 }
    defer { _ = close(fd) }
    if faults?.folderFsync == true { return EIO }
    if PlatformCalls.fsync(fd) != 0 {
      let err = errno
      return err == EINVAL || err == ENOTSUP || err == EOPNOTSUPP || err == EROFS || err == EBADF ? 0 : err
    }
    return 0
  }
}
