#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import MapJSONText
import MapRuntime
import MapSyntax
import MapTools

/// `mapc migrate --stores MANIFEST|GLOB` (Specs/migrate.md §8): many stores, each migrated on its
/// own by this program in a child process, exactly as `mapc migrate` alone would, in parallel,
/// a failure never stopping the others; one JSON Lines line per store.
package struct StoreBatch {
  /// One store to migrate.
  package struct Entry: Sendable {
    package var store: String
    package var models: [String]
    package var to: String?
    package var mappings: String?
    package var output: String
    /// The manifest's line (nil for a glob).
    package var line: Int?
  }

  /// Reads a JSON Lines manifest: one object a line, `store`, `model` (a string or an array of
  /// them), `output`, optionally `to` and `mappings`; paths relative to the manifest's folder.
  /// An output must resolve, after links, inside that folder. Blank lines are skipped.
  package static func manifest(_ path: String) throws(DiagnosticsError) -> [Entry] {
    let bytes: [UInt8]
    do {
      let input = try InputBytes(contentsOf: path, regularFileOnly: true, maxBytes: Limits.xmlFileBytes)
      bytes = input.withUnsafeBytes { Array($0) }
    } catch {
      throw DiagnosticsError([
        .error("migrate-manifest-invalid", "cannot read the manifest: \(error.description)", at: nil, file: path)
      ])
    }
    let folder = PathText.folder(of: path)
    let base = folder.isEmpty ? "." : folder
    func resolve(_ p: String) -> String { p.hasPrefix("/") || folder.isEmpty ? p : folder + "/" + p }
    var entries: [Entry] = []
    for (index, raw) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
      let line = index + 1
      let text = Array(raw)
      if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
      let document: JSONDocument
      do {
        document = try JSONDocument(text, file: path, firstLine: line)
      } catch {
        throw error.diagnostics(id: "migrate-manifest-invalid")
      }
      func invalid(_ message: String, _ steps: [JSONDocument.Step] = []) -> DiagnosticsError {
        let at =
          (steps.isEmpty ? nil : document.location(of: steps)) ?? SourceLocation(file: path, line: line, column: 1)
        return DiagnosticsError([.error("migrate-manifest-invalid", message, at: at)])
      }
      let object = document.root
      guard let keys = object.keys else { throw invalid("a manifest line is a JSON object") }
      let known: Set<String> = ["store", "model", "output", "to", "mappings", "comment"]
      if let unknown = keys.filter({ !known.contains($0) }).sorted().first {
        throw invalid("unknown key '\(unknown)' (known: \(known.sorted().joined(separator: ", ")))", [.key(unknown)])
      }
      func pathValue(_ key: String) throws(DiagnosticsError) -> String? {
        guard let value = object[key] else { return nil }
        guard let s = value.string, !s.isEmpty, !s.utf8.contains(0) else {
          throw invalid("'\(key)' is a path (a non-empty string without NUL)", [.key(key)])
        }
        return resolve(s)
      }
      guard let store = try pathValue("store") else { throw invalid("a line gives 'store'") }
      guard let output = try pathValue("output") else { throw invalid("a line gives 'output'") }
      var models: [String] = []
      if let list = object["model"]?.strings {
        models = list.map(resolve)
      } else if let one = try pathValue("model") {
        models = [one]
      }
      if models.isEmpty { throw invalid("a line gives 'model' (a path, or an array of paths)", [.key("model")]) }
      guard object["to"] == nil || object["to"]?.string != nil else {
        throw invalid("'to' is a version name", [.key("to")])
      }
      // An output a manifest names stays inside the manifest's folder, after links.
      if !Self.isInside(output, folder: base) {
        throw invalid("'output' resolves outside the manifest's folder \(base)", [.key("output")])
      }
      entries.append(
        Entry(
          store: store, models: models, to: object["to"]?.string, mappings: try pathValue("mappings"),
          output: output,
          line: line))
    }
    return entries
  }

  /// Every store `pattern` matches (glob(3), sorted), each to `folder/<its path>`: the path as
  /// matched, a leading `/` and `./` left out; `..` is refused (it would leave the folder).
  package static func matching(
    _ pattern: String, models: [String], to: String?, mappings: String?, folder: String
  ) throws(DiagnosticsError) -> [Entry] {
    var result = glob_t()
    defer { globfree(&result) }
    let status = glob(pattern, 0, nil, &result)
    guard status == 0 else {
      throw DiagnosticsError([
        .error("usage-path-not-found", "--stores \(pattern): no file matches", at: nil, file: pattern)
      ])
    }
    var entries: [Entry] = []
    for i in 0..<Int(result.gl_pathc) {
      guard let c = result.gl_pathv[i] else { continue }
      let store = String(cString: c)
      var relative = Substring(store)
      while relative.hasPrefix("/") { relative = relative.dropFirst() }
      while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
      if relative.split(separator: "/").contains("..") {
        throw DiagnosticsError([
          .error(
            "usage-output-outside",
            "--stores: the store \(store) has '..' in its path, so its output would leave \(folder)",
            at: nil, file: store)
        ])
      }
      entries.append(Entry(store: store, models: models, to: to, mappings: mappings, output: folder + "/" + relative))
    }
    return entries
  }

  /// Whether `path` (its folder, after links; and the file it names when it is a link) is
  /// inside `folder` (after links). The output's folders may not exist yet: the nearest one that
  /// does decides.
  package static func isInside(_ path: String, folder: String) -> Bool {
    guard let root = realPath(folder) else { return false }
    var parts = PathText.absolute(path).split(separator: "/").map(String.init)
    let name = parts.popLast() ?? ""
    var resolved: String? = nil
    while resolved == nil {
      resolved = realPath("/" + parts.joined(separator: "/"))
      if resolved == nil {
        if parts.isEmpty { return false }
        parts.removeLast()
      }
    }
    var target = resolved!
    if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: target + "/" + name) {
      let absolute = PathText.normalized(link.hasPrefix("/") ? link : target + "/" + link)
      var linkParts = absolute.split(separator: "/").map(String.init)
      linkParts.removeLast()
      target = realPath("/" + linkParts.joined(separator: "/")) ?? absolute
    }
    return target == root || target.hasPrefix(root == "/" ? "/" : root + "/")
  }

  package static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
