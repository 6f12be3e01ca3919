import Foundation
import MapTestSupport
import Testing

/// docs/mapc.1 (scripts/generate-manual.sh) lists every subcommand and every option the built
/// mapc has, so the page is regenerated when the command line changes.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct ManualPageTests {
  @Test func everySubcommandAndOptionIsInThePage() throws {
    let page = try String(contentsOf: SharedPaths.packageRoot.appendingPathComponent("docs/mapc.1"), encoding: .utf8)
    let help = runMapc(["--help"]).stdout
    let section = try #require(help.range(of: "SUBCOMMANDS:"))
    // Entries start two spaces in; their continuation lines start further in.
    let subcommands = help[section.upperBound...].split(separator: "\n").compactMap { line -> String? in
      guard line.hasPrefix("  "), !line.hasPrefix("   "), !line.hasPrefix("  See") else { return nil }
      return String(line.dropFirst(2).prefix { $0 != " " })
    }.filter { $0 != "help" }
    #expect(subcommands.count >= 7, "\(help)")
    for name in subcommands {
      #expect(page.contains(".It Em \(name)"), "docs/mapc.1 lacks subcommand \(name): run scripts/generate-manual.sh")
      let options = runMapc(["help", name]).stdout.split(separator: "\n").compactMap { line -> String? in
        let t = line.drop { $0 == " " }
        guard t.hasPrefix("--") else { return nil }
        return String(t.dropFirst(2).prefix { $0.isLetter || $0.isNumber || $0 == "-" })
      }
      for option in options where option != "help" && option != "version" {
        #expect(page.contains("Fl -\(option)"), "docs/mapc.1 lacks \(name) --\(option): run scripts/generate-manual.sh")
      }
    }
  }
}
