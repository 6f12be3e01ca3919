import Foundation
import MapTestSupport
import Testing

/// The command line behaves the same way everywhere: misspelt options are named, limits have
/// an "unlimited", plans do not depend on the working directory, success says so.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct CLIConsistencyTests {
  static let bookshelf = SharedPaths.packageRoot.appendingPathComponent("Mappings/bookshelf")

  @Test func plansAreTheSameFromAnyWorkingDirectory() throws {
    let work = try FileManagerTemp.folder("cwd")
    defer { FileManagerTemp.remove(work.path) }
    let a = work.appendingPathComponent("a.cdm").path
    let b = work.appendingPathComponent("b.cdm").path
    let fromRoot = runMapc(["compile", "Mappings/bookshelf/BookshelfV1ToV2.xml", "-o", a], in: SharedPaths.packageRoot)
    let fromFolder = runMapc(["compile", "BookshelfV1ToV2.xml", "-o", b], in: Self.bookshelf)
    #expect(fromRoot.exitCode == 0 && fromFolder.exitCode == 0, "\(fromRoot.stderr)\(fromFolder.stderr)")
    #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
    // Paths are stored relative to the plan and resolved against where it is read from.
    let dump = runMapc(["dump", "a.cdm"], in: work).stdout
    let mappingLine = try #require(dump.split(separator: "\n").first { $0.hasPrefix("  mapping: ") })
    let shown = String(mappingLine.dropFirst("  mapping: ".count))
    #expect(shown.hasSuffix("Mappings/bookshelf/BookshelfV1ToV2.xml"))
    #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent(shown).path), "\(shown)")
  }

  @Test func compileSaysWhatItWroteUnlessQuiet() throws {
    let plan = FileManagerTemp.path("p.cdm")
    defer { FileManagerTemp.remove(plan) }
    let loud = runMapc(["compile", Self.bookshelf.appendingPathComponent("BookshelfV1ToV2.xml").path, "-o", plan])
    #expect(loud.exitCode == 0)
    #expect(loud.stderr.hasPrefix("mapc: compiled BookshelfV1ToV2: 3 entity mappings, 0 warnings; wrote \(plan) ("))
    let quiet = runMapc([
      "compile", Self.bookshelf.appendingPathComponent("BookshelfV1ToV2.xml").path, "-o", plan, "--quiet",
    ])
    #expect(quiet.exitCode == 0 && quiet.stderr.isEmpty)
  }

  /// Every option each command's help text lists (read here from `--help`, not from the
  /// description the pre-check reads) passes the pre-check of unknown options, and the options
  /// ArgumentParser takes on every command reach it.
  @Test func everyListedOptionPassesThePreCheck() throws {
    // The commands, from ArgumentParser's description of the tool.
    let tool = try #require(
      try JSONSerialization.jsonObject(with: Data(runMapc(["--experimental-dump-help"]).stdout.utf8))
        as? [String: Any])
    func leaves(_ c: [String: Any], _ path: [String]) -> [String] {
      let subcommands = (c["subcommands"] as? [[String: Any]] ?? []).filter { $0["commandName"] as? String != "help" }
      if subcommands.isEmpty { return [path.joined(separator: " ")] }
      return subcommands.flatMap { leaves($0, path + [$0["commandName"] as? String ?? ""]) }
    }
    let commands = leaves(try #require(tool["command"] as? [String: Any]), [])
    #expect(commands.count >= 20 && commands.contains("store convert"), "\(commands)")
    for command in commands {
      let words = command.split(separator: " ").map(String.init)
      let help = runMapc(words + ["--help"])
      try #require(help.exitCode == 0, "\(command): \(help.stderr)")
      // `  -o, --output <output>   …` and `  --strict   …`: the option names at a line's start.
      let options = try #require(help.stdout.range(of: "\nOPTIONS:\n"), "\(command): \(help.stdout)")
      let names = help.stdout[options.upperBound...].split(separator: "\n").flatMap { line -> [String] in
        let entry = line.drop { $0 == " " }
        guard entry.hasPrefix("-"), line.count - entry.count <= 4 else { return [] }  // not a wrapped line
        return entry.components(separatedBy: "  ")[0].split(separator: ",").compactMap { part in
          let name = part.trimmingCharacters(in: .whitespaces).prefix { $0 != " " }
          return name.hasPrefix("--") ? String(name) : nil
        }
      }
      #expect(names.count >= 2, "\(command): \(help.stdout)")
      let all = runMapc(words + names.filter { $0 != "--help" && $0 != "--version" }.map { $0 + "=x" })
      #expect(!all.stderr.contains("Unknown option"), "\(command): \(all.stderr)")
      let dump = runMapc(words + ["--experimental-dump-help"])
      #expect(dump.exitCode == 0 && dump.stdout.hasPrefix("{"), "\(command): \(dump.stderr)")
    }
    let completion = runMapc(["store", "convert", "--generate-completion-script", "bash"])
    #expect(completion.exitCode == 0 && completion.stdout.hasPrefix("#!/bin/bash"), "\(completion.stderr)")
  }

  @Test func aMisspeltOptionIsNamedWithASuggestion() {
    let r = runMapc([
      "run", Self.bookshelf.appendingPathComponent("BookshelfV1ToV2.xml").path,
      "--store", Self.bookshelf.appendingPathComponent("store-v1.json").path, "--ouput", "x.json",
    ])
    #expect(r.exitCode == 64)
    #expect(r.stderr.contains("Unknown option '--ouput'"))
    #expect(r.stderr.contains("'--output'"))
    #expect(!r.stderr.contains("give exactly one of"))
  }

  @Test func maxErrorsZeroReportsEveryError() throws {
    let work = try FileManagerTemp.folder("max-errors")
    defer { FileManagerTemp.remove(work.path) }
    let mapping = Self.bookshelf.appendingPathComponent("BookshelfV1ToV2.xml").path
    // A store with 60 dangling references: 60 errors.
    var objects: [String] = []
    for i in 0..<60 { objects.append(#"{"id": "l\#(i)", "borrower": "x", "returned": false, "book": "missing\#(i)"}"#) }
    let store = """
      {"metadata": {}, "objects": {"Book": [], "Loan": [\(objects.joined(separator: ", "))]}}
      """
    let path = work.appendingPathComponent("s.json").path
    try Data(store.utf8).write(to: URL(fileURLWithPath: path))
    let capped = runMapc(["run", mapping, "--store", path, "--dry-run", "--quiet"])
    #expect(capped.exitCode == 2)
    #expect(capped.stderr.contains("stopped after 50 errors (--max-errors 50)"))
    let all = runMapc(["run", mapping, "--store", path, "--dry-run", "--quiet", "--max-errors", "0"])
    #expect(all.exitCode == 2)
    #expect(all.stderr.components(separatedBy: "error:").count - 1 == 60, "\(all.stderr)")
    #expect(!all.stderr.contains("stopped after"))
    #expect(runMapc(["run", mapping, "--store", path, "--dry-run", "--max-errors", "-1"]).exitCode == 64)
  }

  @Test func hashTakesModelVersionAndStillShowsTheToolVersion() {
    let bundle = Self.bookshelf.appendingPathComponent("Bookshelf.xcdatamodeld").path
    let r = runMapc(["hash", "--model-version", "Bookshelf", bundle])
    #expect(r.exitCode == 0)
    #expect(r.stdout.hasPrefix("version name:         Bookshelf\n"))
    #expect(runMapc(["--version"]).stdout.hasPrefix("0."))
  }
}
