#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import CSignalSafe
import Foundation

/// The temporary files this process is writing, so that an interrupted run removes them.
///
/// `AtomicFileWriter` registers each temporary file while it is open. `installSignalHandlers()`
/// (called by the command line) makes SIGINT, SIGTERM and SIGHUP remove every registered file
/// before the process ends with the signal's usual status, and terminates a program mapc is
/// waiting for (`ChildProcess`); the handler only calls `kill`, `waitpid`, `unlink`, `_Fork`,
/// `execve`, `signal` and `raise`, which are safe in a signal handler. SIGKILL cannot be caught: the files
/// of a killed run are removed by the next run for the same target (`removeStale`).
///
/// Names are `.<target>.mapc-<pid>-<random>.tmp`: the process id tells a file whose writer is
/// gone from one being written right now by another process.
public enum TemporaryFiles {
  static let slotCount = 16
  static let slotSize = 4096
  nonisolated(unsafe) static let paths = UnsafeMutablePointer<CChar>.allocate(capacity: slotCount * slotSize)
  nonisolated(unsafe) static let used = UnsafeMutablePointer<Int32>.allocate(capacity: slotCount)
  static let lock = NSLock()
  nonisolated(unsafe) static var initialised = false
  /// Where the signal handler builds the names of SQLite's journal files (no allocation there).
  nonisolated(unsafe) static let scratch = UnsafeMutablePointer<CChar>.allocate(capacity: slotSize + 16)
  /// `-journal`, `-wal`, `-shm`, each NUL-terminated, then an empty one: one C buffer, so that
  /// the handler walks it with plain loops (no Swift collection, no generic metadata, which the
  /// runtime may have to look up under a lock the interrupted thread holds).
  nonisolated(unsafe) static let journalSuffixes: UnsafeMutablePointer<CChar> = {
    let bytes = Array("-journal\0-wal\0-shm\0\0".utf8)
    let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
    var i = 0
    while i < bytes.count {
      buffer[i] = CChar(bitPattern: bytes[i])
      i += 1
    }
    return buffer
  }()

  /// The folders removed whole (`rm -rf`, in a process of its own) after the child has ended:
  /// `mapc test`'s work folder, which holds the child's files too; a fused chain's scratch folder
  /// and the chunks folder of the step it is running. One path per slot, `hasFolder` saying
  /// which slots are taken, then the argument vector for execve (`rm -rf --`, then the taken
  /// slots, which the handler fills in), all made before any signal can come.
  static let folderSlots = 8
  nonisolated(unsafe) static let folders = UnsafeMutablePointer<CChar>.allocate(capacity: folderSlots * slotSize)
  nonisolated(unsafe) static let hasFolder: UnsafeMutablePointer<Int32> = {
    let pointer = UnsafeMutablePointer<Int32>.allocate(capacity: folderSlots)
    pointer.initialize(repeating: 0, count: folderSlots)
    return pointer
  }()
  nonisolated(unsafe) static let removeArguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
    let argv = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 4 + folderSlots)
    argv[0] = strdup("/bin/rm")
    argv[1] = strdup("-rf")
    argv[2] = strdup("--")
    argv.advanced(by: 3).initialize(repeating: nil, count: 1 + folderSlots)
    return argv
  }()
  nonisolated(unsafe) static let emptyEnvironment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
    let envp = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 1)
    envp[0] = nil
    return envp
  }()

  /// The programs mapc is waiting for, which the handler ends before anything is removed, one
  /// per slot (`mapc test --jobs N` waits for N children at once): 0 for a free slot; a process
  /// id (a mapc child of `mapc test`: ended with SIGTERM and waited for, so that its own handler
  /// removes its files); or minus a process group (`ChildProcess`, Graphviz's `dot`: the group
  /// is ended, a script's own children too, and not waited for).
  static let childSlots = 256
  nonisolated(unsafe) static let children: UnsafeMutablePointer<pid_t> = {
    let pointer = UnsafeMutablePointer<pid_t>.allocate(capacity: childSlots)
    pointer.initialize(repeating: 0, count: childSlots)
    return pointer
  }()

  /// Ends `pid` when this process is interrupted, until `unregisterChild(pid)`: the process
  /// (waited for), or with `group` the process group it leads. False when every slot is taken
  /// (more than `childSlots` children at once): the child then ends with its parent only
  /// through `endWithParent`.
  @discardableResult
  public static func registerChild(_ pid: pid_t, group: Bool = false) -> Bool {
    lock.withLock {
      var slot = 0
      while slot < childSlots {
        if children[slot] == 0 {
          children[slot] = group ? -pid : pid
          return true
        }
        slot += 1
      }
      return false
    }
  }

  /// Forgets `pid` (a process or the group it leads), once it has ended.
  public static func unregisterChild(_ pid: pid_t) {
    lock.withLock {
      var slot = 0
      while slot < childSlots {
        if children[slot] == pid || children[slot] == -pid { children[slot] = 0 }
        slot += 1
      }
    }
  }

  /// Removes `path` whole when this process is interrupted (after its child has ended), until
  /// `unregisterFolder(path)`. Several folders at once, each in a slot of its own (a chain's
  /// scratch folder and the chunks folder of its step); false when every slot is taken or the
  /// path is too long: the folder is then removed only by the run itself, or by the next one
  /// (`ScratchFolder.removeStale`).
  @discardableResult
  public static func registerFolder(_ path: String) -> Bool {
    _ = (removeArguments, emptyEnvironment)
    let bytes = Array(path.utf8)
    guard bytes.count < slotSize, !bytes.contains(0) else { return false }
    return lock.withLock {
      guard let slot = (0..<folderSlots).first(where: { hasFolder[$0] == 0 }) else { return false }
      let base = folders + slot * slotSize
      for (i, b) in bytes.enumerated() { base[i] = CChar(bitPattern: b) }
      base[bytes.count] = 0
      hasFolder[slot] = 1
      return true
    }
  }

  /// Forgets the folder `path` (every slot that holds it): it is no longer removed on a signal.
  public static func unregisterFolder(_ path: String) {
    lock.withLock {
      for slot in 0..<folderSlots where hasFolder[slot] != 0 && String(cString: folders + slot * slotSize) == path {
        hasFolder[slot] = 0
      }
    }
  }

  /// Removes the registered folder `path`, then forgets it: a signal that comes while it is
  /// being removed removes the rest (forgotten first, a signal in between would leave it).
  public static func removeFolder(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
    unregisterFolder(path)
  }

  /// The folders registered now, in slot order (for tests).
  static var registeredFolders: [String] {
    lock.withLock {
      (0..<folderSlots).filter { hasFolder[$0] != 0 }.map { String(cString: folders + $0 * slotSize) }
    }
  }

  /// Records `path` until `unregister(_:)`; returns its slot (nil when all slots are taken or
  /// the path is too long: the file is then only removed by the writer itself).
  static func register(_ path: String) -> Int? {
    lock.withLock {
      if !initialised {
        used.initialize(repeating: 0, count: slotCount)
        initialised = true
      }
      let bytes = Array(path.utf8)
      guard bytes.count < slotSize, let slot = (0..<slotCount).first(where: { used[$0] == 0 }) else { return nil }
      let base = paths + slot * slotSize
      for (i, b) in bytes.enumerated() { base[i] = CChar(bitPattern: b) }
      base[bytes.count] = 0
      used[slot] = 1
      return slot
    }
  }

  static func unregister(_ slot: Int?) {
    guard let slot else { return }
    lock.withLock { used[slot] = 0 }
  }

  /// Removes the registered files on SIGINT, SIGTERM, SIGHUP and SIGPIPE, then ends the process with
  /// the signal; ignores SIGXFSZ (a write past `ulimit -f` is an error of that write).
  public static func installSignalHandlers() {
    lock.withLock {
      if !initialised {
        used.initialize(repeating: 0, count: slotCount)
        initialised = true
      }
    }
    // Initialised here, not lazily in the handler.
    _ = (paths, scratch, journalSuffixes, folders, hasFolder, removeArguments, emptyEnvironment, children)
    var set = sigset_t()
    sigemptyset(&set)
    // SIGPIPE too: a reader of the progress that went away (`mapc run … 2>&1 | head`) ended
    // mapc part-way through its write, the temporary file left behind.
    for s in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] {
      _ = signal(s, removeOnSignal)
      sigaddset(&set, s)
    }
    // A parent may have blocked them (the mask is inherited across exec): a run must answer
    // Ctrl-C and `kill` all the same.
    _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
    // A write past the file size limit (`ulimit -f`) fails with EFBIG instead of ending the
    // process: the write's own error names the file, and the run removes what it wrote.
    _ = signal(SIGXFSZ, SIG_IGN)
  }

  /// The environment variable `mapc test` sets for the children it starts: the parent's process
  /// id. Such a child ends itself (SIGTERM, so that its handler removes its files) when that
  /// parent is gone, even when the parent was killed beyond any handler (SIGKILL).
  public static let parentVariable = "MAPC_END_WITH_PARENT"

  /// Raises SIGTERM when the process named by `parentVariable` is no longer this process's
  /// parent (it ended: the child was handed to another): checked now, then every 100 ms by a
  /// thread of its own.
  public static func endWithParent() {
    guard let text = getenv(parentVariable).map({ String(cString: $0) }), let parent = pid_t(text), parent > 0 else {
      return
    }
    if getppid() != parent { _ = raise(SIGTERM) }
    let watcher = Thread {
      while getppid() == parent { usleep(100_000) }
      _ = raise(SIGTERM)
    }
    watcher.stackSize = 1 << 16
    watcher.start()
  }

  /// The files a killed run left for `target` in `folder`: named for it, owned by this user,
  /// and written by a process that no longer exists. Removed; returns how many.
  @discardableResult
  public static func removeStale(folder: String, name: String) -> Int {
    removeStale(folder: folder) { $0 == name }
  }

  /// How the names of temporary files end: the file itself, and SQLite's companions of it.
  static let temporarySuffixes = [".tmp", ".tmp-journal", ".tmp-wal", ".tmp-shm"]

  /// The same for every target whose name `target` accepts.
  @discardableResult
  public static func removeStale(folder: String, target: (Substring) -> Bool) -> Int {
    guard let dir = opendir(folder) else { return 0 }
    defer { closedir(dir) }
    var removed = 0
    while let entry = readdir(dir) {
      let entryName = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
      }
      // A temporary file, or the journal files SQLite keeps beside one it was writing.
      guard entryName.hasPrefix("."), let suffix = Self.temporarySuffixes.first(where: { entryName.hasSuffix($0) }),
        let marker = entryName.range(of: ".mapc-", options: .backwards),
        target(entryName[entryName.index(after: entryName.startIndex)..<marker.lowerBound])
      else { continue }
      let middle = entryName[marker.upperBound...].dropLast(suffix.count)
      let parts = middle.split(separator: "-")
      let path = folder + "/" + entryName
      guard parts.count == 2, isLeft(path, byProcess: parts[0], type: S_IFREG) else { continue }
      if unlink(path) == 0 { removed += 1 }
    }
    return removed
  }

  /// Whether `path`, of file type `type` (`S_IFREG`, `S_IFDIR`), owned by this user, was left by
  /// the process `pid` names (a decimal process id) and that process has ended: not this one,
  /// and no process has that id (one that has it again keeps the file).
  static func isLeft(_ path: String, byProcess pid: Substring, type: mode_t) -> Bool {
    guard let pid = pid_t(pid), pid > 0, pid != getpid() else { return false }
    if kill(pid, 0) == 0 || errno != ESRCH { return false }
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == type && info.st_uid == getuid()
  }
}

/// The signal handler: terminate the process group of a program mapc waits for (`ChildProcess`),
/// unlink every registered file and the journal files SQLite keeps beside it (`-journal`,
/// `-wal`, `-shm`, named in a buffer of its own: nothing is allocated here), then die of the
/// signal.
private let removeOnSignal: @convention(c) (Int32) -> Void = { sig in
  // Only raw pointers, integers and while loops here (no ranges, arrays or other generic
  // code): a debug build asks the runtime for the metadata of generic types, under locks the
  // interrupted thread may hold, and a handler that waits for them never ends the process.
  let scratch = TemporaryFiles.scratch
  let used = TemporaryFiles.used
  let paths = TemporaryFiles.paths
  let suffixes = TemporaryFiles.journalSuffixes
  let slotSize = TemporaryFiles.slotSize
  let slotCount = TemporaryFiles.slotCount
  // The program mapc waits for ended first, so that it writes nothing more into the files
  // removed below: a process group (negative) with whatever it started itself; a mapc child
  // also waited for, so that it has removed its own files.
  let children = TemporaryFiles.children
  let childSlots = TemporaryFiles.childSlots
  var c = 0
  while c < childSlots {
    if children[c] != 0 { _ = kill(children[c], SIGTERM) }
    c += 1
  }
  c = 0
  while c < childSlots {
    if children[c] > 0 {
      var status: Int32 = 0
      _ = waitpid(children[c], &status, 0)
    }
    c += 1
  }
  var slot = 0
  while slot < slotCount {
    if used[slot] != 0 {
      let path = paths + slot * slotSize
      _ = unlink(path)
      var n = 0
      while n < slotSize && path[n] != 0 {
        scratch[n] = path[n]
        n += 1
      }
      var at = 0
      while suffixes[at] != 0 {
        var k = 0
        while suffixes[at + k] != 0 {
          scratch[n + k] = suffixes[at + k]
          k += 1
        }
        scratch[n + k] = 0
        _ = unlink(scratch)
        at += k + 1
      }
    }
    slot += 1
  }
  // _Fork, execve, waitpid and _exit are safe in a signal handler; rm removes the folder whole.
  // Not fork(): glibc's takes malloc's locks, which the interrupted thread may hold (a process
  // that never ends, seen when SIGTERM came during a malloc).
  let hasFolder = TemporaryFiles.hasFolder
  let arguments = TemporaryFiles.removeArguments
  var taken = 0
  slot = 0
  while slot < TemporaryFiles.folderSlots {
    if hasFolder[slot] != 0 {
      arguments[3 + taken] = TemporaryFiles.folders + slot * slotSize
      taken += 1
    }
    slot += 1
  }
  arguments[3 + taken] = nil
  if taken > 0 {
    let remover = csignalsafe_fork()
    if remover == 0 {
      _ = execve("/bin/rm", TemporaryFiles.removeArguments, TemporaryFiles.emptyEnvironment)
      _exit(127)
    } else if remover > 0 {
      var status: Int32 = 0
      _ = waitpid(remover, &status, 0)
    }
  }
  _ = signal(sig, SIG_DFL)
  _ = raise(sig)
}
