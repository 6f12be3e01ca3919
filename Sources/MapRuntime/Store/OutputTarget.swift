#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one check every command makes before it writes a file (`run --output/--in-place/--backup`,
/// `migrate --backup`, `compile -o`, `import -o`, `export -o`): is this path safe to replace?
///
/// A path is refused when it names an existing file that is not a regular file (a device, a
/// FIFO, a socket, a folder, or a symbolic link to one of those): mapc only ever replaces
/// regular files. It is refused when it is one of the inputs under any spelling (`./s.json`,
/// a symbolic link, a hard link: compared by device and inode), and when it lies inside an input
/// folder (a model's `contents`, a `.xcmappingmodel`'s `xcmapping.xml`). A folder output
/// (`export -o X.xcmappingmodel`) may be a folder, but not one that holds an input.
public enum OutputTarget {
  /// Why `path` (given for `option`, e.g. "--output") must not be written, or nil when it may.
  public static func problem(
    _ path: String, option: String, inputs: [String], isFolder: Bool = false
  ) -> String? {
    var target = stat()
    let exists = stat(path, &target) == 0
    if exists {
      let kind = target.st_mode & S_IFMT
      if kind == S_IFDIR && !isFolder {
        return "\(option) \(path) is a folder; give a file path"
      }
      if kind != S_IFREG && kind != S_IFDIR {
        return "\(option) \(path) is \(FileKind.describe(kind)), not a regular file; mapc writes only regular files"
      }
    }
    let resolvedPath = resolved(path)
    for input in inputs {
      var source = stat()
      guard stat(input, &source) == 0 else { continue }
      if exists && source.st_dev == target.st_dev && source.st_ino == target.st_ino {
        return "\(option) \(path) is the input \(input) (the same file under another name); nothing was written"
      }
      guard let resolvedPath, let resolvedInput = resolved(input) else { continue }
      if (source.st_mode & S_IFMT) == S_IFDIR && resolvedPath.hasPrefix(resolvedInput + "/") {
        return "\(option) \(path) lies inside the input \(input); nothing was written"
      }
      if isFolder && resolvedInput.hasPrefix(resolvedPath + "/") {
        return "\(option) \(path) holds the input \(input), which writing it would replace; nothing was written"
      }
    }
    return nil
  }

  /// Whether `path` is a regular file (after following symbolic links); false when missing.
  public static func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }

  /// The absolute path with every symbolic link resolved: of `path` when it exists, else of
  /// its folder followed by its last component. Nil when neither resolves.
  static func resolved(_ path: String) -> String? {
    if let r = realpath(path, nil) {
      defer { free(r) }
      return String(cString: r)
    }
    let (folder, name) = splitPath(path)
    guard let r = realpath(folder, nil) else { return nil }
    defer { free(r) }
    let base = String(cString: r)
    return base == "/" ? "/" + name : base + "/" + name
  }
}
