#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation

/// A program mapc runs and waits for (Graphviz's `dot`), so that an interrupted mapc leaves
/// neither files nor processes behind.
///
/// Its input, output and errors are temporary files mapc creates before it starts the program
/// (`mapc-LABEL-RANDOM.in`, `.out`, `.err` in the temporary folder), so the program creates no
/// file of its own; they are registered with `TemporaryFiles`, whose SIGINT, SIGTERM and SIGHUP
/// handler removes them. The program runs in a process group of its own, which the same handler
/// terminates (a script's own children too) before mapc ends of the signal.
package enum ChildProcess {
  package struct Failure: Error {
    package var message: String
  }

  package struct Finished {
    /// The exit status, or 128 + the signal that ended the program.
    package var status: Int32
    package var output: Data
    package var errors: Data
  }

  /// Runs `executable` with `arguments`, `input` on its standard input, and waits for it.
  package static func run(_ executable: String, _ arguments: [String], input: Data, label: String) throws(Failure)
    -> Finished
  {
    let base = FileManager.default.temporaryDirectory.path + "/mapc-\(label)-\(UUID().uuidString)"
    var files: [(path: String, slot: Int?, fd: Int32)] = []
    defer {
      for f in files {
        if f.fd >= 0 { close(f.fd) }
        unlink(f.path)
        TemporaryFiles.unregister(f.slot)
      }
    }
    for suffix in [".in", ".out", ".err"] {
      let path = base + suffix
      let slot = TemporaryFiles.register(path)
      let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      files.append((path, slot, fd))
      if fd < 0 { throw Failure(message: "cannot create '\(path)': \(String(cString: strerror(errno)))") }
    }
    let written = input.withUnsafeBytes { raw -> Bool in
      var offset = 0
      while offset < raw.count {
        let n = write(files[0].fd, raw.baseAddress! + offset, raw.count - offset)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return false }
        offset += n
      }
      return true
    }
    guard written, lseek(files[0].fd, 0, SEEK_SET) == 0 else {
      throw Failure(message: "cannot write '\(files[0].path)': \(String(cString: strerror(errno)))")
    }
    let status = try spawnAndWait(executable, arguments, fds: (files[0].fd, files[1].fd, files[2].fd))
    func contents(_ fd: Int32) -> Data {
      lseek(fd, 0, SEEK_SET)
      var data = Data()
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let n = read(fd, &buffer, buffer.count)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        data.append(contentsOf: buffer[0..<n])
      }
      return data
    }
    return Finished(status: status, output: contents(files[1].fd), errors: contents(files[2].fd))
  }

  private static func spawnAndWait(_ executable: String, _ arguments: [String], fds: (Int32, Int32, Int32))
    throws(Failure) -> Int32
  {
    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t? = nil
      var attributes: posix_spawnattr_t? = nil
    #else
      var actions = posix_spawn_file_actions_t()
      var attributes = posix_spawnattr_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fds.0, 0)
    posix_spawn_file_actions_adddup2(&actions, fds.1, 1)
    posix_spawn_file_actions_adddup2(&actions, fds.2, 2)
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var handled = sigset_t()
    sigemptyset(&handled)
    for s in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ] { sigaddset(&handled, s) }
    posix_spawnattr_setsigdefault(&attributes, &handled)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for a in argv { free(a) } }

    // The signals stay blocked on this thread until the child's id is where the handler looks.
    var blocked = sigset_t()
    sigemptyset(&blocked)
    for s in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&blocked, s) }
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    if spawned == 0 { TemporaryFiles.registerChild(pid, group: true) }
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    guard spawned == 0 else {
      throw Failure(message: "cannot run \(executable): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    TemporaryFiles.unregisterChild(pid)
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }
}
