import Foundation

/// File paths as text: made absolute, normalised and made relative without touching the file
/// system (symbolic links are kept as written, so a path means the same wherever it is shown).
package enum PathText {
  /// `path` made absolute against the working directory, with `.` and `..` folded.
  package static func absolute(_ path: String) -> String {
    normalized(path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
  }

  /// The folder part of a path as written, as `NSString.deletingLastPathComponent` gives it:
  /// `a/b` → `a`, `/a` → `/`, `a` → `` (empty), trailing slashes ignored (`a/b/` → `a`). That
  /// Foundation call traps on a one-character path (`o`, `x/`) in the Linux toolchain mapc is
  /// built with, so that `mapc compile m -o p` crashed: mapc uses this instead, everywhere.
  package static func folder(of path: String) -> String {
    var p = Substring(path)
    while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
    if p == "/" { return "/" }
    guard let slash = p.lastIndex(of: "/") else { return "" }
    var head = p[..<slash]
    while head.count > 1 && head.hasSuffix("/") { head = head.dropLast() }
    return head.isEmpty ? "/" : String(head)
  }

  /// `path` as the path of a `file:` URI: every byte but ASCII letters, digits and `-._~/`
  /// percent-encoded (so `%`, `?`, `#` and spaces reach the file as they are).
  package static func uriEncoded(_ path: String) -> String {
    path.addingPercentEncoding(withAllowedCharacters: uriAllowed) ?? path
  }

  private static let uriAllowed = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")

  /// An absolute path with `.` and `..` components folded (`..` above the root stays at the root).
  package static func normalized(_ absolute: String) -> String {
    var parts: [Substring] = []
    for c in absolute.split(separator: "/") where c != "." {
      if c == ".." {
        if !parts.isEmpty { parts.removeLast() }
      } else {
        parts.append(c)
      }
    }
    return "/" + parts.joined(separator: "/")
  }

  /// `path` relative to `folder` (both absolute and normalised); `.` when they are the same.
  package static func relative(_ path: String, from folder: String) -> String {
    let a = path.split(separator: "/")
    let b = folder.split(separator: "/")
    var common = 0
    while common < a.count, common < b.count, a[common] == b[common] { common += 1 }
    let joined = (Array(repeating: Substring(".."), count: b.count - common) + a[common...]).joined(separator: "/")
    return joined.isEmpty ? "." : joined
  }
}
