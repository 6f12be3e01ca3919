#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import MapRuntime

/// The one check every command makes before it reads or writes anything (`Specs/diagnostics.md`
/// §4): what it reads, what it writes, and whether an output would write over an input.
///
/// Paths are compared after resolving symbolic links and `..` (real paths), and, when both
/// exist, by device and inode (a hard link is the same file). An input folder (a model bundle,
/// a `.xcdatamodel`, a `.xcmappingmodel`) is read whole: an output inside it clashes, and so
/// does an output that is a hard link to any file in it. A store is read with its SQLite
/// companions (`-wal`, `-shm`, `-journal`), which an output may not name either, existing or
/// not. Outputs are also checked against each other (two options naming one file; a file
/// inside the migrate work folder, which is removed when the run ends).
///
/// An output that exists and is not a regular file (a FIFO, a character device, `/dev/stdout`)
/// is written to, not replaced (`AtomicFileWriter`), except where a regular file is needed
/// (a backup, a store replaced in place).
public struct OutputTarget: Sendable {
  /// How an input is read.
  public enum InputKind: Sendable {
    /// A file, or a folder read whole.
    case file
    /// A store: the file and its SQLite companions.
    case store
  }

  /// How an output is written.
  public enum OutputKind: Sendable {
    /// Replaced atomically; an existing FIFO, device or descriptor is written to.
    case file
    /// A store output: a file, and the SQLite companions replaced with it.
    case store
    /// A regular file replaced atomically (a backup, a store replaced in place, with its
    /// companions): never a FIFO or device.
    case replacedStore
    /// A regular file replaced atomically: never a FIFO or device.
    case replacedFile
    /// A folder written whole (`export -o X.xcmappingmodel`).
    case folder
    /// A folder made and removed again (the migrate work folder).
    case removedFolder
  }

  struct Input: Sendable {
    var path: String
    var role: String
    var kind: InputKind
  }

  struct Output: Sendable {
    var path: String
    var option: String
    var kind: OutputKind
    /// The role of the input this output is meant to replace (`--write-baseline` the
    /// `--baseline`, `--in-place` the store): not a clash.
    var replaces: String?
  }

  /// Why a command refuses to start: `message` names the output's option and path and the
  /// input (or other output) it would write over.
  public struct Clash: Error, Sendable, CustomStringConvertible {
    /// The stable diagnostic id (`io-output-is-input`, `usage-…`).
    public var id: String
    /// What clashes, for the error line.
    public var message: String
    /// The output's option (`--output`).
    public var option: String
    /// The output's path.
    public var output: String
    /// The role of the input it names (`store`, `model`); nil: another output.
    public var role: String?
    /// The message.
    public var description: String { message }
  }

  private var inputs: [Input] = []
  private var outputs: [Output] = []

  /// A check with nothing recorded yet.
  public init() {}

  /// Records an input (nil: none). `role` names it in messages: "store", "model", "mapping".
  public mutating func reads(_ path: String?, as role: String, kind: InputKind = .file) {
    if let path { inputs.append(Input(path: path, role: role, kind: kind)) }
  }

  /// Records every file in `paths`.
  public mutating func reads(_ paths: [String], as role: String) {
    for p in paths { reads(p, as: role) }
  }

  /// Records an output (nil: none), given for `option` (`--output`, `-o`, `--backup`).
  public mutating func writes(
    _ path: String?, option: String, kind: OutputKind = .file, replacing role: String? = nil
  ) {
    if let path { outputs.append(Output(path: path, option: option, kind: kind, replaces: role)) }
  }

  /// The first clash, or nil when every output may be written.
  public func clash() -> Clash? {
    let read = inputs.flatMap { Self.entries(of: $0) }
    var written: [(output: Output, place: Place)] = []
    for output in outputs {
      if let problem = Self.kindProblem(output) { return problem }
      let places = ([output.path] + (Self.hasCompanions(output.kind) ? Self.companions(output.path) : [])).map(
        Place.init)
      for place in places {
        let relevant = read.filter { $0.role != output.replaces }
        // The same file first (a model's `contents`), then a place inside or around a folder.
        for entry in relevant where place.isSameFile(as: entry.place) {
          return Self.clash(output, place, entry)
        }
        for entry in relevant {
          if let clash = Self.clash(output, place, entry) { return clash }
        }
        for (other, otherPlace) in written {
          if let clash = Self.clash(output, place, other, otherPlace) { return clash }
        }
      }
      written += places.map { (output, $0) }
    }
    return nil
  }

  // MARK: - Places

  /// A path with its real path and, when it exists, its identity.
  struct Place: Sendable {
    var path: String
    var resolved: String?
    var device: UInt64?
    var inode: UInt64?
    var isFolder = false

    init(_ path: String) {
      self.path = path
      resolved = OutputTarget.resolved(path)
      var info = stat()
      if stat(path, &info) == 0 {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        isFolder = (info.st_mode & S_IFMT) == S_IFDIR
      }
    }

    func isSameFile(as other: Place) -> Bool {
      if let device, let inode, device == other.device, inode == other.inode { return true }
      if let resolved, resolved == other.resolved { return true }
      return false
    }

    /// Whether this place lies inside the folder `folder` (by real paths).
    func lies(inside folder: Place) -> Bool {
      guard let resolved, let base = folder.resolved else { return false }
      return resolved.hasPrefix(base == "/" ? "/" : base + "/")
    }
  }

  struct Entry: Sendable {
    var place: Place
    var role: String
    /// The input as given (a file found inside an input folder is named by the folder).
    var input: String
  }

  /// The places an input covers: itself, its companions, and every file inside it.
  static func entries(of input: Input) -> [Entry] {
    let paths = [input.path] + (input.kind == .store ? companions(input.path) : [])
    var result = paths.map { Entry(place: Place($0), role: input.role, input: $0) }
    if result[0].place.isFolder {
      // Hard links to the files inside a folder input (a bundle's `contents`) are the same files.
      let enumerator = FileManager.default.enumerator(atPath: input.path)
      var count = 0
      while let relative = enumerator?.nextObject() as? String, count < 10_000 {
        count += 1
        let place = Place(input.path + "/" + relative)
        if !place.isFolder { result.append(Entry(place: place, role: input.role, input: input.path)) }
      }
    }
    return result
  }

  static func companions(_ path: String) -> [String] { ["-wal", "-shm", "-journal"].map { path + $0 } }

  static func hasCompanions(_ kind: OutputKind) -> Bool { kind == .store || kind == .replacedStore }

  // MARK: - Rules

  static func clash(_ output: Output, _ place: Place, _ entry: Entry) -> Clash? {
    let named = place.path == output.path ? output.path : "\(output.path) (its \(place.path))"
    func make(_ text: String) -> Clash {
      Clash(
        id: "io-output-is-input", message: "\(output.option) \(named) \(text)", option: output.option,
        output: output.path, role: entry.role)
    }
    if place.isSameFile(as: entry.place) {
      let spelling = entry.place.path == place.path ? "" : " (the same file under another name)"
      let inside = entry.input == entry.place.path ? "" : " inside \(entry.input)"
      return make("is the input \(entry.role) \(entry.place.path)\(inside)\(spelling)")
    }
    if entry.place.isFolder && place.lies(inside: entry.place) {
      return make("lies inside the input \(entry.role) \(entry.place.path)")
    }
    if (output.kind == .folder || output.kind == .removedFolder) && entry.place.lies(inside: place) {
      let what = output.kind == .folder ? "which writing it would replace" : "which is removed when the run ends"
      return make("holds the input \(entry.role) \(entry.input), \(what)")
    }
    return nil
  }

  static func clash(_ output: Output, _ place: Place, _ other: Output, _ otherPlace: Place) -> Clash? {
    func make(_ text: String) -> Clash {
      Clash(
        id: "io-output-is-input", message: "\(output.option) \(output.path) \(text)", option: output.option,
        output: output.path, role: nil)
    }
    if place.isSameFile(as: otherPlace) {
      return make("is also written by \(other.option) \(other.path)")
    }
    if other.kind == .removedFolder && place.lies(inside: otherPlace) {
      return make("lies inside \(other.path), which is removed when the run ends")
    }
    if output.kind == .removedFolder && otherPlace.lies(inside: place) {
      return make("holds \(other.option) \(other.path), and is removed when the run ends")
    }
    return nil
  }

  /// An output of the wrong kind of file: a folder where a file goes, a FIFO or device where
  /// a regular file must be replaced.
  static func kindProblem(_ output: Output) -> Clash? {
    var info = stat()
    guard stat(output.path, &info) == 0 else { return nil }
    let kind = info.st_mode & S_IFMT
    func make(_ text: String) -> Clash {
      Clash(
        id: "io-not-regular-file", message: "\(output.option) \(output.path) \(text)", option: output.option,
        output: output.path, role: nil)
    }
    switch output.kind {
    case .folder, .removedFolder:
      if kind != S_IFDIR { return make("is \(FileKind.describe(kind)), not a folder") }
    case .file, .store:
      if kind == S_IFDIR { return make("is a folder; give a file path") }
      if kind != S_IFREG && !AtomicFileWriter.streams(kind) {
        return make("is \(FileKind.describe(kind)); mapc writes regular files, FIFOs and character devices")
      }
    case .replacedFile, .replacedStore:
      if kind == S_IFDIR { return make("is a folder; give a file path") }
      if kind != S_IFREG {
        return make("is \(FileKind.describe(kind)), not a regular file; it would be replaced by one")
      }
    }
    return nil
  }

  /// Whether `path` is a regular file (after following symbolic links); false when missing.
  public static func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }

  /// The absolute path with every symbolic link and `..` resolved: the real path of the
  /// longest part of `path` that exists, followed by the rest (with `.` and `..` taken
  /// lexically). Nil when not even the working folder resolves.
  /// The real path of `path`: links and `..` resolved, for the part that exists.
  public static func realPath(_ path: String) -> String? { resolved(path) }

  static func resolved(_ path: String) -> String? {
    var head = path.isEmpty ? "." : path
    var rest: [Substring] = []
    while true {
      if let r = realpath(head, nil) {
        defer { free(r) }
        var parts = String(cString: r).split(separator: "/")
        for part in rest.reversed() {
          if part == ".." {
            _ = parts.popLast()
          } else if part != "." {
            parts.append(part)
          }
        }
        return "/" + parts.joined(separator: "/")
      }
      let (folder, name) = splitPath(head)
      if name.isEmpty || folder == head { return nil }
      rest.append(Substring(name))
      head = folder
    }
  }
}
