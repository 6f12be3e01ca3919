import Foundation
import MapTestSupport
import Testing

/// Every command of README.md's `sh` blocks runs as written, in order, in a copy of the
/// repository's examples, with `mapc` on the PATH (`swift run mapc` is taken as `mapc`). After a
/// command, `# …` lines are output it must print (`…` stands for any text) and `# (exit N)` its
/// exit status (0 otherwise); other comments and the text after `  #` on a command line are
/// notes. Lines that build, test or install mapc itself (`swift build`, `swift test`,
/// `scripts/build-release.sh`, `install`) are the ones not run: the test runs the mapc they build.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct ReadmeCommandTests {
  struct Command: CustomStringConvertible {
    var line: Int
    var text: String
    var expectedOutput: [String] = []
    var expectedExit: Int32 = 0
    var description: String { "README.md:\(line): \(text)" }
  }

  static func commands(in readme: String) -> [Command] {
    var result: [Command] = []
    var inBlock = false
    var pending = ""
    var pendingLine = 0
    for (i, raw) in readme.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = String(raw)
      if line.hasPrefix("```") {
        inBlock = line == "```sh"
        continue
      }
      guard inBlock else { continue }
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("#") {
        guard pending.isEmpty, !result.isEmpty, result.last!.line >= i - 40 else { continue }
        let note = String(trimmed.dropFirst()).trimmingCharacters(in: .whitespaces)
        if note.hasPrefix("(exit "), let code = Int32(note.dropFirst(6).prefix { $0.isNumber }) {
          result[result.count - 1].expectedExit = code
        } else if !note.isEmpty {
          result[result.count - 1].expectedOutput.append(note)
        }
        continue
      }
      if trimmed.isEmpty {
        // A blank line ends the outputs of the command before it.
        if !result.isEmpty { result[result.count - 1].line = -1000 }
        continue
      }
      if pending.isEmpty { pendingLine = i + 1 }
      pending += (pending.isEmpty ? "" : " ") + trimmed
      if pending.hasSuffix("\\") {
        pending.removeLast()
        continue
      }
      var text = pending
      pending = ""
      if let note = text.range(of: #"\s{2,}#.*$"#, options: .regularExpression) { text.removeSubrange(note) }
      text = text.replacingOccurrences(of: "swift run mapc ", with: "mapc ")
      let skipped = ["swift build", "swift test", "scripts/build-release.sh", "install "].contains {
        text.hasPrefix($0)
      }
      if !skipped { result.append(Command(line: pendingLine, text: text)) }
    }
    return result
  }

  /// `…` in an expected line matches any text.
  static func matches(_ expected: String, _ line: Substring) -> Bool {
    let parts = expected.components(separatedBy: "…")
    guard line.hasPrefix(parts[0]), line.hasSuffix(parts.last!) else { return false }
    var rest = line.dropFirst(parts[0].count)
    for part in parts.dropFirst().dropLast() {
      guard let r = rest.range(of: part) else { return false }
      rest = rest[r.upperBound...]
    }
    return rest.count >= parts.last!.count || parts.count == 1
  }

  @Test func everyCommandWorksAsWritten() throws {
    let readme = try String(contentsOf: SharedPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let commands = Self.commands(in: readme)
    #expect(commands.count >= 30, "found only \(commands.count) commands")
    let work = try FileManagerTemp.folder("readme")
    defer { FileManagerTemp.remove(work.path) }
    let fm = FileManager.default
    for folder in ["Mappings", "Examples"] {
      try fm.copyItem(
        at: SharedPaths.packageRoot.appendingPathComponent(folder), to: work.appendingPathComponent(folder))
    }
    let bin = work.appendingPathComponent(".bin")
    try fm.createDirectory(at: bin, withIntermediateDirectories: true)
    try fm.createSymbolicLink(at: bin.appendingPathComponent("mapc"), withDestinationURL: mapcExecutable!)
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    for command in commands {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", command.text]
      process.currentDirectoryURL = work
      process.environment = environment
      let out = work.appendingPathComponent(".stdout")
      let err = work.appendingPathComponent(".stderr")
      _ = fm.createFile(atPath: out.path, contents: nil)
      _ = fm.createFile(atPath: err.path, contents: nil)
      process.standardOutput = try FileHandle(forWritingTo: out)
      process.standardError = try FileHandle(forWritingTo: err)
      try process.run()
      process.waitUntilExit()
      let output = (try String(contentsOf: out, encoding: .utf8)) + (try String(contentsOf: err, encoding: .utf8))
      #expect(
        process.terminationStatus == command.expectedExit, "\(command) exited \(process.terminationStatus):\n\(output)")
      // Indentation of the README's `#` lines is not significant.
      let lines = output.split(separator: "\n").map { Substring($0.trimmingCharacters(in: .whitespaces)) }
      for expected in command.expectedOutput {
        #expect(
          lines.contains { Self.matches(expected, $0) }, "\(command) did not print: \(expected)\nit printed:\n\(output)"
        )
      }
    }
  }
}
