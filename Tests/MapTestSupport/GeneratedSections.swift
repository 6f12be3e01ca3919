import Foundation

/// The generated parts of the specs: each between `<!-- generated: NAME -->` (a line of its
/// own) and the next `<!-- end generated -->`, produced from the one fact in the sources that
/// they restate. A test checks each; with `MAPC_WRITE_SPECS=1` it rewrites them instead, so a
/// generator never passes without checking.
public enum GeneratedSections {
  /// Whether this run rewrites the generated sections (`MAPC_WRITE_SPECS=1`).
  public static var writing: Bool { ProcessInfo.processInfo.environment["MAPC_WRITE_SPECS"] == "1" }

  /// The text of section `name` of `text`, or nil when its markers are missing.
  public static func section(_ name: String, in text: String) -> String? {
    guard let range = bodyRange(name, in: text) else { return nil }
    return String(text[range])
  }

  /// The names of the sections of `relative` (a path below the package) that differ from their
  /// bodies; with `MAPC_WRITE_SPECS=1` the file is rewritten first, so none differ. A missing
  /// marker counts as a difference.
  public static func stale(_ relative: String, _ sections: [(name: String, body: String)]) throws -> [String] {
    let path = SharedPaths.packageRoot.appendingPathComponent(relative).path
    var text = try String(contentsOfFile: path, encoding: .utf8)
    if writing {
      let original = text
      for (name, body) in sections {
        if let range = bodyRange(name, in: text) { text.replaceSubrange(range, with: body) }
      }
      if text != original { try replaceFile(path, with: text) }
    }
    return sections.filter { section($0.name, in: text) != $0.body }.map(\.name)
  }

  /// The message of a test that found stale sections.
  public static func advice(_ relative: String, _ stale: [String]) -> String {
    "\(relative): \(stale.joined(separator: ", ")) out of date: MAPC_WRITE_SPECS=1 swift test rewrites it"
  }

  static func bodyRange(_ name: String, in text: String) -> Range<String.Index>? {
    guard let open = text.range(of: "<!-- generated: \(name) -->\n"),
      let close = text.range(of: "<!-- end generated -->", range: open.upperBound..<text.endIndex)
    else { return nil }
    return open.upperBound..<close.lowerBound
  }
}
