import Foundation
import MapTestSupport
import Testing

/// `Specs/architecture.md`'s table of output languages and their one escaper is true of the
/// code both ways: every escaper and delegate it names is declared in the file it names, and
/// every function in `Sources/` that takes a string and returns it escaped or quoted is named in
/// it, so a second escaper for a language cannot be added without the spec saying so.
@Suite struct EscaperTableTests {
  struct Entry: Hashable {
    /// A file name, or a path under `Sources/` where two files share the name.
    var file: String
    var function: String

    func isIn(_ relative: String) -> Bool { relative == file || relative.hasSuffix("/" + file) }
  }

  /// The (file, function) pairs of the table, escapers and delegates alike.
  static func tableEntries() throws -> Set<Entry> {
    let spec = try String(
      contentsOf: SharedPaths.packageRoot.appendingPathComponent("Specs/architecture.md"), encoding: .utf8)
    let start = try #require(spec.range(of: "<!-- escapers -->"))
    let end = try #require(spec.range(of: "<!-- end escapers -->"))
    var entries = Set<Entry>()
    for line in spec[start.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("| ") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 3, cells[1] != "escaper", !cells[1].hasPrefix("---") else { continue }
      for cell in cells[1...] where cell != "—" {
        // `File.swift: a, b`, `Other.swift: c`
        for group in cell.split(separator: "`") where group.contains(".swift: ") {
          let parts = group.components(separatedBy: ".swift: ")
          for name in parts[1].split(separator: ",") {
            entries.insert(Entry(file: parts[0] + ".swift", function: name.trimmingCharacters(in: .whitespaces)))
          }
        }
      }
    }
    return entries
  }

  @Test func everyNamedEscaperIsDeclaredInItsFile() throws {
    let entries = try Self.tableEntries()
    #expect(entries.count >= 20, "the table names only \(entries.count) functions")
    let files = try SharedPaths.swiftFiles(under: "Sources")
    for entry in entries {
      let matches = files.filter { entry.isIn($0.relative) }
      #expect(matches.count == 1, "\(entry.file) is not one file of Sources/")
      #expect(
        matches.contains { $0.text.contains("func \(entry.function)(") },
        "\(entry.file) declares no function \(entry.function)")
    }
  }

  @Test func everyEscapingFunctionIsInTheTable() throws {
    let entries = try Self.tableEntries()
    let declaration = try NSRegularExpression(
      pattern: #"func (\w+)\(_ \w+: (?:String|Substring)[^)]*\) -> String"#)
    let escaping = try NSRegularExpression(pattern: "(?i)escap|quot|html|cell|literal")
    var found = 0
    for (relative, text) in try SharedPaths.swiftFiles(under: "Sources") {
      let ns = text as NSString
      for m in declaration.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
        let name = ns.substring(with: m.range(at: 1))
        guard escaping.firstMatch(in: name, range: NSRange(location: 0, length: (name as NSString).length)) != nil
        else { continue }
        found += 1
        let named = entries.contains { $0.function == name && $0.isIn(relative) }
        #expect(named, "\(relative): \(name) escapes text but the escaper table does not name it")
      }
    }
    #expect(found >= 15, "the scan found only \(found) escaping functions")
  }
}
