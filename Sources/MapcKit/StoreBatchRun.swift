import Foundation
import MapJSONText
import MapRuntime
import MapTools

/// One store of `mapc migrate --stores`: `mapc migrate` run on it in a child process, and its
/// line of the JSON Lines report (Specs/migrate.md §8).
package struct StoreBatchRun: Sendable {
  package var json: JSONValue
  package var succeeded: Bool

  package static func migrate(_ e: StoreBatch.Entry, index: Int, executable: String, extra: [String], work: String)
    -> StoreBatchRun
  {
    let folder = work + "/store-\(index)"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let report = folder + "/report.json"
    var arguments = ["migrate"]
    for m in e.models { arguments += ["--model", m] }
    arguments += ["--store", e.store, "--output", e.output, "--report", report, "--quiet"]
    if let to = e.to { arguments += ["--to", to] }
    if let mappings = e.mappings { arguments += ["--mappings", mappings] }
    let inputDigest = FileDigest.sha256(ofFile: e.store)
    let start = Date()
    let child = ChildMapc.run(executable: executable, arguments + extra, stderrPath: folder + "/stderr.txt")
    let milliseconds = Int((Date().timeIntervalSince(start) * 1000).rounded())
    var members: [(String, JSONValue)] = [("store", .string(e.store))]
    if let line = e.line { members.append(("line", .int(line))) }
    members.append(("output", .string(e.output)))
    let steps = Self.steps(report)
    let result: String
    if child.status != 0 {
      result = "failed"
    } else if steps.isEmpty {
      result = "at-target"
    } else {
      result = "migrated"
    }
    members.append(("result", .string(result)))
    members.append(("exitCode", .int(Int(child.status))))
    if let first = steps.first?.from, let last = steps.last?.to {
      members.append(("from", .string(first)))
      members.append(("to", .string(last)))
    }
    members.append(
      (
        "steps",
        .array(
          steps.map {
            .object([
              ("from", .string($0.from)), ("to", .string($0.to)), ("mapping", .string($0.mapping)),
              ("objectsRead", .int($0.read)), ("objectsMade", .int($0.made)),
              ("lossesAccepted", .array($0.dropped.map(JSONValue.string))),
            ])
          })
      ))
    members.append(("milliseconds", .int(milliseconds)))
    members.append(("storeSHA256", inputDigest.map(JSONValue.string) ?? .null))
    let outputDigest = child.status == 0 ? FileDigest.sha256(ofFile: e.output) : nil
    members.append(("outputSHA256", outputDigest.map(JSONValue.string) ?? .null))
    if child.status != 0 {
      // The child's messages, as it printed them (each line escaped on its own).
      let lines = child.stderr.split(separator: "\n").map { TerminalText.escaped(String($0)) }
      members.append(("errors", .array(lines.map(JSONValue.string))))
    }
    return StoreBatchRun(json: .object(members), succeeded: child.status == 0)
  }

  package struct Step {
    package var from: String
    package var to: String
    package var mapping: String
    package var read: Int
    package var made: Int
    package var dropped: [String]
  }

  /// The steps of a `--report` file (none when the child wrote none: failed, or at its target).
  package static func steps(_ path: String) -> [Step] {
    guard let data = FileManager.default.contents(atPath: path),
      let document = try? JSONDocument(Array(data), file: path),
      let steps = document.root["steps"]?.array, steps.allSatisfy(\.isObject)
    else { return [] }
    return steps.map { s in
      Step(
        from: s["from"]?.string ?? "", to: s["to"]?.string ?? "", mapping: s["mapping"]?.string ?? "",
        read: Self.count(s["objectsRead"]), made: Self.count(s["objectsMade"]),
        dropped: (s["dropped"]?.array ?? []).map { item in
          if let text = item.string { return text }
          if item.isObject { return item["name"]?.string ?? item["element"]?.string ?? item.value.line() }
          return item.value.line()
        })
    }
  }

  /// A count of a report: a number, its integer part (0 for anything else).
  private static func count(_ node: JSONNode?) -> Int {
    if case .int(let i)? = node?.content { return i }
    guard let n = node?.number, let i = Int(exactly: n.rounded(.towardZero)) else { return 0 }
    return i
  }
}
