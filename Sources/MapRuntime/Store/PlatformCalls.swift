#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The C library calls mapc names by their module (`write`, `fsync`, `rename`, `open`), where a
/// method of the same name would otherwise shadow them, under one name for every platform: the
/// module is Glibc on Linux, Musl in a static Linux build, Darwin on macOS.
enum PlatformCalls {
  #if canImport(Glibc)
    static func write(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { Glibc.write(fd, bytes, count) }
    static func fsync(_ fd: Int32) -> Int32 { Glibc.fsync(fd) }
    static func rename(_ from: String, _ to: String) -> Int32 { Glibc.rename(from, to) }
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { Glibc.open(path, flags, mode) }
  #elseif canImport(Musl)
    static func write(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { Musl.write(fd, bytes, count) }
    static func fsync(_ fd: Int32) -> Int32 { Musl.fsync(fd) }
    static func rename(_ from: String, _ to: String) -> Int32 { Musl.rename(from, to) }
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { Musl.open(path, flags, mode) }
  #elseif canImport(Darwin)
    static func write(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { Darwin.write(fd, bytes, count) }
    static func fsync(_ fd: Int32) -> Int32 { Darwin.fsync(fd) }
    static func rename(_ from: String, _ to: String) -> Int32 { Darwin.rename(from, to) }
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { Darwin.open(path, flags, mode) }
  #endif
}
