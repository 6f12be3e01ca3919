#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Words for the kinds of files mapc refuses to read or replace.
package enum FileKind {
  /// "a FIFO", "a character device", … for a file type from `st_mode`.
  package static func describe(_ kind: mode_t) -> String {
    switch kind {
    case S_IFIFO: return "a FIFO (named pipe)"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    case S_IFDIR: return "a folder"
    case S_IFLNK: return "a symbolic link"
    default: return "not a regular file"
    }
  }
}
