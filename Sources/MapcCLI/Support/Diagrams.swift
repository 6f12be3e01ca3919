import ArgumentParser
import Foundation
import MapCompiler
import MapRuntime

/// The pictures of `mapc diff` and `mapc dump`: Mermaid text as it is; SVG laid out by Graphviz's
/// `dot` (a child process; Specs/model-diff.md §3); HTML around that SVG.
enum Diagrams {
  static func render(diff: ModelDiff, format: String) throws -> String {
    try render(Diagram.of(diff), format: format, summary: diff.text())
  }

  static func render(_ diagram: Diagram, format: String, summary: String) throws -> String {
    switch format {
    case "mermaid": return diagram.mermaid()
    case "svg": return try svg(diagram.dot())
    default: return diagram.html(svg: try svg(diagram.dot()), summary: summary)
    }
  }

  /// Graphviz's `dot` on the PATH (or in /usr/bin), or nil.
  static var dotExecutable: String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") + ["/usr/bin", "/usr/local/bin"] {
      let candidate = "\(folder)/dot"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// `dot -Tsvg` of `text`; exit 1 with `diagram-dot-missing` or `diagram-dot-failed`.
  static func svg(_ text: String) throws -> String {
    guard let dot = dotExecutable else {
      Console.error(
        "SVG and HTML pictures are laid out by Graphviz's dot, which is not installed (Debian: apt-get install graphviz); --format mermaid needs nothing",
        id: "diagram-dot-missing")
      throw ExitCode(.inputErrors)
    }
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("mapc-dot-\(UUID().uuidString)").path
    try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: work) }
    let (input, output, errors) = (work + "/in.dot", work + "/out.svg", work + "/err.txt")
    _ = FileManager.default.createFile(atPath: input, contents: Data(text.utf8))
    _ = FileManager.default.createFile(atPath: errors, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: dot)
    process.arguments = ["-Tsvg", "-o", output, input]
    process.standardError = FileHandle(forWritingAtPath: errors)
    process.standardOutput = FileHandle.nullDevice
    do {
      try process.run()
      process.waitUntilExit()
    } catch {
      Console.error("cannot run \(dot): \(SystemErrorText.describe(error))", id: "diagram-dot-failed")
      throw ExitCode(.inputErrors)
    }
    guard process.terminationStatus == 0, let svg = try? String(contentsOfFile: output, encoding: .utf8) else {
      let why = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
      Console.error("dot failed: \(why.trimmingCharacters(in: .whitespacesAndNewlines))", id: "diagram-dot-failed")
      throw ExitCode(.inputErrors)
    }
    return svg
  }

  /// Writes `text` to `output` (atomically) or standard output.
  static func emit(_ text: String, to output: String?, reading inputs: [String]) throws {
    guard let output else {
      FileHandle.standardOutput.write(Data(text.utf8))
      return
    }
    var files = OutputTarget()
    files.reads(inputs, as: "model")
    files.writes(output, option: "--output")
    try files.refuseClash()
    do {
      try AtomicFileWriter.replaceContents(of: output, with: text)
    } catch {
      throw Console.writeFailure("output", path: output, error: error)
    }
  }
}
