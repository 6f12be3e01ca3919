#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replaces a file atomically: output goes to a new temporary file in the target's folder,
/// which `commit()` flushes to disk (`fsync`) and renames over the target, then flushes the
/// folder. Until `commit()` succeeds the target is never touched; if the writer is abandoned,
/// dropped or `commit()` fails, the temporary file is removed.
///
/// The temporary file is `.<target name>.mapc-<pid>-<random>.tmp` beside the target, so the
/// rename never crosses file systems; it is registered with `TemporaryFiles`, so SIGINT and
/// SIGTERM remove it, and the files that killed runs left for the same target (their process
/// gone) are removed when a new writer starts. A new target gets the permissions `0666` minus the umask; an
/// existing one keeps its permission bits.
///
/// A target that is not a file to replace is written to instead (`isStream`): a name of an
/// open descriptor (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`) writes to
/// that descriptor, at its offset (a log redirected with `>>` keeps its earlier lines), and an
/// existing FIFO or character device is opened for writing; nothing is renamed over them.
/// `commit()` then only closes. With `streams: false` (an SQLite store, which needs a file)
/// they are refused.
///
/// ```swift
/// var file = try AtomicFileWriter(target: "out.json")
/// var output = JSONOutput(
///   fileDescriptor: file.fileDescriptor, path: file.targetPath, style: .indented,
///   startsWriteback: true)
/// … write …
/// try output.finishDocument()
/// try file.commit()
/// ```
public struct AtomicFileWriter: ~Copyable, Sendable {
  /// The file that `commit()` replaces, as given.
  public let targetPath: String
  /// The path that is actually replaced: `targetPath`, or the file it links to when it is a
  /// symbolic link (the link itself is kept).
  public let resolvedTargetPath: String
  /// The temporary file being written.
  public let temporaryPath: String
  /// Where to write the contents (do not close it).
  public let fileDescriptor: Int32
  /// The target is written to directly (a descriptor, a FIFO, a character device): there is
  /// no temporary file (`temporaryPath` is empty) and nothing is renamed.
  public let isStream: Bool
  private var finished = false
  private let slot: Int?

  /// Creates the temporary file beside `target` (beside the file it links to, when `target`
  /// is a symbolic link to an existing file), or opens a stream target for writing (see the
  /// type's description; `streams: false` refuses them).
  public init(target given: String, streams: Bool = true) throws(StoreIOError) {
    let opened = try Self.open(given, streams: streams)
    targetPath = given
    resolvedTargetPath = opened.resolved
    temporaryPath = opened.temporary
    fileDescriptor = opened.fd
    slot = opened.slot
    isStream = opened.isStream
  }

  private struct Opened {
    var resolved: String
    var temporary: String
    var fd: Int32
    var slot: Int?
    var isStream: Bool
  }

  private static func open(_ given: String, streams: Bool) throws(StoreIOError) -> Opened {
    if streams, let stream = try Self.openStream(given) {
      return Opened(resolved: given, temporary: "", fd: stream, slot: nil, isStream: true)
    }
    if Self.descriptorNamed(given) != nil {
      throw StoreIOError(
        code: .notRegularFile, path: given, operation: "write",
        reason: "it names an open descriptor, not a file; this output must be a regular file")
    }
    var target = given
    var linkInfo = stat()
    if lstat(given, &linkInfo) == 0 && (linkInfo.st_mode & S_IFMT) == S_IFLNK,
      let resolved = realpath(given, nil)
    {
      target = String(cString: resolved)
      free(resolved)
    }
    var existing = stat()
    var keepMode: mode_t? = nil
    if stat(target, &existing) == 0 {
      if (existing.st_mode & S_IFMT) == S_IFDIR {
        throw StoreIOError(
          code: .isDirectory, path: given, operation: "write", reason: "it is a folder, not a file",
          errno: EISDIR)
      }
      if (existing.st_mode & S_IFMT) != S_IFREG {
        // Renaming over a device or FIFO would put a regular file in its place.
        throw StoreIOError(
          code: .notRegularFile, path: given, operation: "write",
          reason:
            "it is \(FileKind.describe(existing.st_mode & S_IFMT)), not a regular file; this output must be a regular file"
        )
      }
      keepMode = existing.st_mode & 0o7777
    }
    let (folder, name) = splitPath(target)
    TemporaryFiles.removeStale(folder: folder, name: name)
    var attempt = 0
    while true {
      let candidate = temporaryName(folder: folder, name: name)
      // Registered before it exists, so that a signal between open and register cannot leave it.
      let registered = TemporaryFiles.register(candidate)
      let fd = PlatformCalls.open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
      if fd >= 0 {
        if let keepMode { _ = fchmod(fd, keepMode) }
        return Opened(resolved: target, temporary: candidate, fd: fd, slot: registered, isStream: false)
      }
      TemporaryFiles.unregister(registered)
      let err = errno
      attempt += 1
      if err != EEXIST || attempt >= 100 {
        throw StoreIOError.system(err, path: given, operation: "create a temporary file beside")
      }
    }
  }

  /// Flushes the temporary file to disk and renames it over the target (after backing up the
  /// old target to `backupPath`, when given); then flushes the folder. On failure the
  /// temporary file is removed and the target is unchanged. With `durable: false` (a scratch
  /// file read back and removed by the same run) nothing is flushed: only the rename is done.
  public consuming func commit(backupPath: String? = nil, durable: Bool = true) throws(StoreIOError) {
    finished = true
    if isStream {
      // A pipe or terminal cannot be flushed to disk; a file behind a descriptor is the
      // caller's (the shell's) to keep.
      let failed = close(fileDescriptor) != 0 ? errno : 0
      if backupPath != nil {
        throw StoreIOError(
          code: .notRegularFile, path: targetPath, operation: "back up", reason: "it is a stream, not a file")
      }
      if failed != 0 && failed != EINTR { throw StoreIOError.system(failed, path: targetPath, operation: "write") }
      return
    }
    do throws(StoreIOError) {
      if durable && WriteCalls.fsync(fileDescriptor) != 0 {
        let err = errno
        _ = close(fileDescriptor)
        throw StoreIOError.system(err, path: targetPath, operation: "write")
      }
      if close(fileDescriptor) != 0 {
        throw StoreIOError.system(errno, path: targetPath, operation: "write")
      }
      // The folder is flushed before the rename too: a folder that cannot be flushed is
      // found while the target is still untouched.
      let before = durable ? WriteCalls.syncFolder(of: resolvedTargetPath) : 0
      if before != 0 { throw StoreIOError.system(before, path: targetPath, operation: "flush the folder of") }
      if let backupPath {
        try FileBackup.backUp(resolvedTargetPath, to: backupPath)
      }
      if WriteCalls.rename(temporaryPath, resolvedTargetPath) != 0 {
        throw StoreIOError.system(errno, path: targetPath, operation: "replace")
      }
    } catch {
      _ = unlink(temporaryPath)
      TemporaryFiles.unregister(slot)
      throw error
    }
    TemporaryFiles.unregister(slot)
    let after = durable ? WriteCalls.syncFolder(of: resolvedTargetPath) : 0
    if after != 0 {
      var e = StoreIOError.system(after, path: targetPath, operation: "flush the folder after replacing")
      e.reason += "; the file was replaced, but after a crash or power loss its old contents may come back"
      throw e
    }
  }

  /// Gives up: closes and removes the temporary file. The target is unchanged.
  public consuming func abandon() {
    // `deinit` does the work.
  }

  deinit {
    if !finished {
      _ = close(fileDescriptor)
      if isStream { return }
      _ = unlink(temporaryPath)
      TemporaryFiles.unregister(slot)
    }
  }
}

extension AtomicFileWriter {
  /// Whether a file of kind `kind` (from `st_mode`) is written to rather than replaced: a FIFO
  /// or a character device.
  public static func streams(_ kind: mode_t) -> Bool { kind == S_IFIFO || kind == S_IFCHR }

  /// The descriptor a path names (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
  /// `/proc/self/fd/N`, `/proc/PID/fd/N` of this process), or nil.
  public static func descriptorNamed(_ path: String) -> Int32? {
    switch path {
    case "/dev/stdout": return 1
    case "/dev/stderr": return 2
    default: break
    }
    for prefix in ["/dev/fd/", "/proc/self/fd/", "/proc/\(getpid())/fd/"] where path.hasPrefix(prefix) {
      return Int32(path.dropFirst(prefix.count))
    }
    return nil
  }

  /// A descriptor to write `path` through when it is a stream target: a duplicate of the
  /// descriptor it names, or the FIFO or character device opened for writing. Nil for a path
  /// to replace.
  static func openStream(_ path: String) throws(StoreIOError) -> Int32? {
    if let named = descriptorNamed(path) {
      let fd = fcntl(named, F_DUPFD_CLOEXEC, 3)
      if fd < 0 { throw StoreIOError.system(errno, path: path, operation: "write") }
      return fd
    }
    var info = stat()
    guard stat(path, &info) == 0, streams(info.st_mode & S_IFMT) else { return nil }
    let fd = PlatformCalls.open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
    if fd < 0 { throw StoreIOError.system(errno, path: path, operation: "write") }
    return fd
  }
}

/// Keeping the previous version of a file before it is replaced (`mapc run --in-place
/// --backup PATH`).
public enum FileBackup {
  /// Makes `backup` hold the current contents of `source`, replacing any file already there
  /// atomically. A hard link is used when the file system allows it (the old contents then
  /// stay reachable under `backup` after `source` is replaced by a rename); otherwise the
  /// contents are copied and flushed to disk.
  public static func backUp(_ source: String, to backup: String) throws(StoreIOError) {
    if source == backup {
      throw StoreIOError(
        code: .systemError, path: backup, operation: "back up to",
        reason: "the backup path is the file being replaced")
    }
    var info = stat()
    if stat(source, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
      throw StoreIOError(
        code: .isDirectory, path: source, operation: "back up", reason: "it is a folder, not a file",
        errno: EISDIR)
    }
    if stat(source, &info) != 0 {
      throw StoreIOError.system(errno, path: source, operation: "back up")
    }
    let (folder, name) = splitPath(backup)
    TemporaryFiles.removeStale(folder: folder, name: name)
    let temporary = temporaryName(folder: folder, name: name)
    let slot = TemporaryFiles.register(temporary)
    defer { TemporaryFiles.unregister(slot) }
    if link(source, temporary) != 0 {
      let err = errno
      switch err {
      case EXDEV, EPERM, EMLINK, ENOTSUP, EOPNOTSUPP, ENOSYS:
        try copyFile(source, to: temporary)
      default:
        throw StoreIOError.system(err, path: backup, operation: "create the backup")
      }
    }
    if WriteCalls.rename(temporary, backup) != 0 {
      let err = errno
      _ = unlink(temporary)
      throw StoreIOError.system(err, path: backup, operation: "create the backup")
    }
    // When `backup` already was a link to `source`, rename(2) does nothing and leaves the
    // temporary name behind.
    var leftover = stat()
    if lstat(temporary, &leftover) == 0 { _ = unlink(temporary) }
    let synced = WriteCalls.syncFolder(of: backup)
    if synced != 0 { throw StoreIOError.system(synced, path: backup, operation: "flush the folder of the backup") }
  }

  /// Copies the contents of `source` to a new file `destination` (which must not exist yet),
  /// with the same permission bits, and flushes it to disk. On failure `destination` is
  /// removed.
  public static func copyFile(_ source: String, to destination: String) throws(StoreIOError) {
    let input = open(source, O_RDONLY | O_CLOEXEC)
    if input < 0 { throw StoreIOError.system(errno, path: source, operation: "back up") }
    defer { _ = close(input) }
    var info = stat()
    let mode: mode_t = fstat(input, &info) == 0 ? info.st_mode & 0o7777 : 0o644
    let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    if output < 0 {
      throw StoreIOError.system(errno, path: destination, operation: "create the backup")
    }
    var failure: StoreIOError? = nil
    if let (code, reading) = copyAllBytes(from: input, to: output) {
      failure =
        reading
        ? StoreIOError.system(code, path: source, operation: "back up")
        : StoreIOError.system(code, path: destination, operation: "write the backup")
    }
    if failure == nil && WriteCalls.fsync(output) != 0 {
      failure = StoreIOError.system(errno, path: destination, operation: "write the backup")
    }
    if close(output) != 0 && failure == nil {
      failure = StoreIOError.system(errno, path: destination, operation: "write the backup")
    }
    if let failure {
      _ = unlink(destination)
      throw failure
    }
  }
}

/// Copies what `input` reads, from where it stands to its end, to `output`, a MiB at a time
/// (memory flat whatever the size): `AtomicFileWriter`'s backups and file copies. Returns the
/// `errno` of the first read or write that failed, and whether it was the read; nil when every
/// byte went.
func copyAllBytes(from input: Int32, to output: Int32) -> (code: Int32, reading: Bool)? {
  let chunk = 1 << 20
  let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
  defer { buffer.deallocate() }
  while true {
    let n = read(input, buffer, chunk)
    if n == 0 { return nil }
    if n < 0 {
      if errno == EINTR { continue }
      return (errno, true)
    }
    let failed = WriteCalls.writeAll(output, buffer, n).error
    if failed != 0 { return (failed, false) }
  }
}

/// `.<name>.mapc-<pid>-<random>.tmp` in `folder` (see `TemporaryFiles`).
func temporaryName(folder: String, name: String) -> String {
  "\(folder)/.\(name).mapc-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).tmp"
}

/// The folder (`.` when there is none) and the last component of a path.
package func splitPath(_ path: String) -> (folder: String, name: String) {
  guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
  let name = String(path[path.index(after: slash)...])
  let folder = String(path[..<slash])
  return (folder.isEmpty ? "/" : folder, name)
}
