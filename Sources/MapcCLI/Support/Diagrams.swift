import ArgumentParser
import Foundation
import MapRuntime
import MapcKit
import MapTools

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

  /// Graphviz's `dot` in a folder of the PATH (in its order), else in /usr/bin or
  /// /usr/local/bin; nil when none.
  static var dotExecutable: String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    var folders: [String] = path.split(separator: ":").map { String($0) }
    folders += ["/usr/bin", "/usr/local/bin"]
    for folder in folders {
      let candidate = "\(folder)/dot"
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder), !isFolder.boolValue,
        FileManager.default.isExecutableFile(atPath: candidate)
      {
        return candidate
      }
    }
    return nil
  }

  /// `dot -Tsvg` of `text`; exit 1 with `diagram-dot-missing` or `diagram-dot-failed`. `dot`
  /// runs as a `ChildProcess`: SIGINT, SIGTERM or SIGHUP to mapc terminate it and remove its
  /// temporary files (`mapc-dot-*`).
  static func svg(_ text: String) throws -> String {
    guard let dot = dotExecutable else {
      Console.error(
        "SVG and HTML pictures are laid out by Graphviz's dot, which is not installed (Debian: apt-get install graphviz); --format mermaid needs nothing",
        id: "diagram-dot-missing")
      throw ExitCode(.inputErrors)
    }
    let finished: ChildProcess.Finished
    do {
      finished = try ChildProcess.run(dot, ["-Tsvg"], input: Data(text.utf8), label: "dot")
    } catch {
      Console.error(error.message, id: "diagram-dot-failed")
      throw ExitCode(.inputErrors)
    }
    guard finished.status == 0, let svg = String(data: finished.output, encoding: .utf8), !svg.isEmpty else {
      let why = String(decoding: finished.errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      let status = finished.status > 128 ? "ended by signal \(finished.status - 128)" : "exit status \(finished.status)"
      Console.error("\(dot) failed (\(status))\(why.isEmpty ? "" : ": " + why)", id: "diagram-dot-failed")
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
