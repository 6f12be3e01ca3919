import Foundation
import MapTestSupport
import Testing

/// A user of the `mapc` binary has no `Specs/` folder: no message, note or help text may send
/// them to one. This suite reads every Swift file of Sources for `Specs/` outside comments.
///
/// The catalogue files are let off (`…Catalogue.swift`: each module's diagnostic families, and
/// MapcCatalogue, which puts them together), whose family headings name their spec because
/// they render only into `Specs/diagnostics.md` (in the repository, beside the specs it names).
/// The suite checks that no other source file uses a catalogue, so that a command that starts
/// printing one fails here.
@Suite struct UserMessagesTests {
  static let sources = SharedPaths.packageRoot.appendingPathComponent("Sources")
  /// Whether `name` is a catalogue file.
  static func isCatalogue(_ name: String) -> Bool { name.hasSuffix("Catalogue.swift") }

  /// The text of `line` that is code or string, without a comment (`//` outside quotes).
  static func withoutComment(_ line: Substring) -> Substring {
    var quotes = 0
    var previous: Character = " "
    for i in line.indices {
      let c = line[i]
      if c == "\"" && previous != "\\" { quotes += 1 }
      if c == "/" && previous == "/" && quotes % 2 == 0 { return line[..<line.index(before: i)] }
      previous = c
    }
    return line
  }

  /// `file:line: text` for every line of `text` that names `Specs/` outside a comment.
  static func pointers(in text: String, file: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { n, line in
      withoutComment(line).contains("Specs/") ? "\(file):\(n + 1): \(line.trimmingCharacters(in: .whitespaces))" : nil
    }
  }

  static func swiftFiles() throws -> [URL] {
    let all = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
    return all.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
  }

  @Test func noUserVisibleStringNamesASpecsFile() throws {
    let files = try Self.swiftFiles()
    #expect(files.count > 100, "Sources not found at \(Self.sources.path)")
    var found: [String] = []
    for url in files where !Self.isCatalogue(url.lastPathComponent) {
      found += Self.pointers(in: try String(contentsOf: url, encoding: .utf8), file: url.lastPathComponent)
    }
    #expect(found.isEmpty, "say the thing, or name a mapc command that shows it:\n\(found.joined(separator: "\n"))")
  }

  @Test func theCatalogueIsNotShownByAnyCommand() throws {
    var users: [String] = []
    for url in try Self.swiftFiles() where !Self.isCatalogue(url.lastPathComponent) {
      if try String(contentsOf: url, encoding: .utf8).contains("Catalogue.") { users.append(url.path) }
    }
    #expect(users.isEmpty, "the catalogues name Specs/ files; a command now shows one: \(users)")
  }

  /// The scanner finds what it is meant to find, and leaves comments alone.
  @Test func theScannerFindsAPointer() {
    let text = """
      /// See Specs/store-format.md.
      let a = "read Specs/functions.md §5"  // and Specs/x.md here is a comment
      let b = 1  // Specs/limits.md
        long text of a help discussion (Specs/migrate.md) \\
      let c = "http://example/Specs/x"
      """
    #expect(Self.pointers(in: text, file: "f").map { $0.prefix { $0 != " " } } == ["f:2:", "f:4:", "f:5:"])
  }
}
