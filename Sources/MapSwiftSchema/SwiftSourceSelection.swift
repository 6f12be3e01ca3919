import Foundation
import MapRuntime

/// Which Swift files a schema is read from, and the build they are read as
/// (Specs/swiftdata-schema.md §1): the union of the paths given (files, folders of them, Xcode
/// projects read for one target's files), less the files an exclusion pattern matches.
public struct SwiftSourceSelection: Sendable, Hashable {
  public var paths: [String]
  /// Glob patterns (`*`, `?`, `**`); a file is left out when one matches its path below the
  /// folder given, or any run of that path's components (`Old`, `Legacy.swift`, `Old/*.swift`).
  public var excludes: [String]
  /// The target of the Xcode projects among `paths` whose files are read (nil: a project's
  /// only target).
  public var xcodeTarget: String?
  public var conditions: SwiftBuildConditions

  public init(
    paths: [String], excludes: [String] = [], xcodeTarget: String? = nil,
    conditions: SwiftBuildConditions = SwiftBuildConditions()
  ) {
    self.paths = paths
    self.excludes = excludes
    self.xcodeTarget = xcodeTarget
    self.conditions = conditions
  }

  /// Whether a path names an Xcode project (`App.xcodeproj`).
  public static func isXcodeProject(_ path: String) -> Bool {
    (path.hasSuffix("/") ? String(path.dropLast()) : path).hasSuffix(".xcodeproj")
  }

  /// The files chosen, in the order of the paths (a folder's sorted by path), and notes about
  /// the choice (a pattern that matched no file). The same file reached twice (by device and
  /// inode: through two paths, a folder and a file in it, a link) is `swift-duplicate-file`.
  public func files() throws(SwiftSchemaError) -> (files: [String], notes: [Diagnostic]) {
    var found: [(path: String, relative: [Substring], given: String)] = []
    for path in paths {
      if Self.isXcodeProject(path) {
        do throws(Diagnostic) {
          let base = PathText.folder(of: (path.hasSuffix("/") ? String(path.dropLast()) : path))
          for file in try XcodeProjectTarget.files(project: path, target: xcodeTarget) {
            let relative = file.hasPrefix(base + "/") ? String(file.dropFirst(base.count + 1)) : file
            found.append((file, relative.split(separator: "/"), path))
          }
        } catch {
          throw SwiftSchemaError([error])
        }
        continue
      }
      let listed = try SwiftSchema.files([path])
      let base = path.hasSuffix("/") ? String(path.dropLast()) : path
      for file in listed {
        let relative = file == path ? (file as NSString).lastPathComponent : String(file.dropFirst(base.count + 1))
        found.append((file, relative.split(separator: "/"), path))
      }
    }
    var used = Set<String>()
    var kept: [(path: String, given: String)] = []
    for file in found {
      let matching = excludes.filter { glob in Self.matches(glob, file.relative) }
      if matching.isEmpty {
        kept.append((file.path, file.given))
      } else {
        used.formUnion(matching)
      }
    }
    var seen: [FileIdentity: (path: String, given: String)] = [:]
    for file in kept {
      guard let identity = FileIdentity(file.path) else { continue }
      if let first = seen[identity] {
        let how =
          file.path == first.path
          ? "is reached through both \(first.given) and \(file.given)" : "is the same file as \(first.path)"
        throw SwiftSchemaError([
          Diagnostic(
            .error, id: "swift-duplicate-file",
            "\(file.path) \(how): each file is read once (give it once, or leave one out with an exclusion)",
            file: file.path)
        ])
      }
      seen[identity] = file
    }
    let notes = excludes.filter { !used.contains($0) }.map {
      Diagnostic(.note, id: "", "the exclusion '\($0)' matched no Swift file")
    }
    return (kept.map(\.path), notes)
  }

  /// A file's device and inode (of the file a link leads to).
  struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    init?(_ path: String) {
      let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
      guard let a = try? FileManager.default.attributesOfItem(atPath: target),
        let device = (a[.systemNumber] as? NSNumber)?.uint64Value,
        let inode = (a[.systemFileNumber] as? NSNumber)?.uint64Value
      else { return nil }
      self.device = device
      self.inode = inode
    }
  }

  /// Whether `glob` matches the whole relative path or any run of its components.
  static func matches(_ glob: String, _ components: [Substring]) -> Bool {
    let pattern = Array((glob.hasPrefix("./") ? String(glob.dropFirst(2)) : glob).utf8)
    for start in components.indices {
      for end in (start + 1)...components.count
      where Self.glob(pattern, Array(components[start..<end].joined(separator: "/").utf8)) {
        return true
      }
    }
    return false
  }

  /// `*` any run without `/`, `**` any run, `?` one byte other than `/`; the rest literally.
  /// Dynamic programming over pattern and text: time bounded by their product.
  static func glob(_ p: [UInt8], _ t: [UInt8]) -> Bool {
    // reach[j]: the pattern read so far matches t[0..<j].
    var reach = [Bool](repeating: false, count: t.count + 1)
    reach[0] = true
    var k = 0
    while k < p.count {
      var next = [Bool](repeating: false, count: t.count + 1)
      if p[k] == 0x2A {
        let any = k + 1 < p.count && p[k + 1] == 0x2A
        var on = false
        for j in 0...t.count {
          if reach[j] { on = true }
          next[j] = on
          if j < t.count && t[j] == 0x2F && !any { on = false }
        }
        k += any ? 2 : 1
      } else {
        for j in 0..<t.count where reach[j] {
          if p[k] == 0x3F ? t[j] != 0x2F : p[k] == t[j] { next[j + 1] = true }
        }
        k += 1
      }
      reach = next
    }
    return reach[t.count]
  }
}
