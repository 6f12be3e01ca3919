import Foundation
import MapJSONText
import MapRuntime
import MapSyntax

/// SARIF 2.1.0 (OASIS), for code-scanning services: one run whose driver lists every rule of
/// the catalogue (plus any compiler id that was reported), one result per finding — suppressed
/// and baselined findings carry `suppressions` — with regions in Unicode code points
/// (`columnKind`), relative paths against the `SRCROOT` base (the working directory).
public enum SARIFReporter {
  public static let schemaURI =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

  public static func render(_ report: LintReport, toolVersion: String, workingDirectory: String) -> String {
    // Rules: the catalogue, then other ids that were reported.
    var rules: [JSONValue] = []
    var ruleIndex: [String: Int] = [:]
    for rule in LintRules.all {
      ruleIndex[rule.id] = rules.count
      rules.append(descriptor(rule))
    }
    var extraLevels: [String: Diagnostic.Severity] = [:]
    for f in report.findings where ruleIndex[f.ruleId] == nil {
      extraLevels[f.ruleId] = max(extraLevels[f.ruleId] ?? .note, f.severity)
    }
    for (id, severity) in extraLevels.sorted(by: { $0.key < $1.key }) {
      ruleIndex[id] = rules.count
      rules.append(
        .object([
          ("id", .string(id)), ("name", .string(ruleName(id))),
          ("shortDescription", .object([("text", .string("mapc diagnostic \(id)"))])),
          (
            "fullDescription",
            .object([
              (
                "text",
                .string(
                  "A problem the mapc compiler or model reader reports; the message says what is wrong and where.")
              )
            ])
          ),
          ("defaultConfiguration", .object([("level", .string(level(severity)))])),
          ("properties", .object([("tags", .array([.string("core-data"), .string("compiler")]))])),
        ]))
    }

    // Artifacts: linted files first, then other files findings point into.
    var artifacts: [JSONValue] = []
    var artifactIndex: [String: Int] = [:]
    func artifact(_ path: String, target: Bool) {
      guard artifactIndex[path] == nil else { return }
      artifactIndex[path] = artifacts.count
      var members: [(String, JSONValue)] = [("location", .object(uriMembers(path)))]
      if target { members.append(("roles", .array([.string("analysisTarget")]))) }
      artifacts.append(.object(members))
    }
    for file in report.files { artifact(file, target: true) }
    for f in report.findings {
      if let file = f.file { artifact(file, target: false) }
      for n in f.diagnostic.notes { if let l = n.location { artifact(l.file, target: false) } }
    }

    func physical(_ file: String, _ l: SourceLocation?, snippet: String?) -> JSONValue {
      var artifactLocation = uriMembers(file)
      if let i = artifactIndex[file] { artifactLocation.append(("index", .int(i))) }
      var members: [(String, JSONValue)] = [("artifactLocation", .object(artifactLocation))]
      if let l {
        var region: [(String, JSONValue)] = [("startLine", .int(l.line)), ("startColumn", .int(l.column))]
        if let snippet { region.append(("snippet", .object([("text", .string(snippet))]))) }
        members.append(("region", .object(region)))
      }
      return .object(members)
    }

    let results: [JSONValue] = report.findings.map { f in
      var members: [(String, JSONValue)] = [
        ("ruleId", .string(f.ruleId)), ("ruleIndex", .int(ruleIndex[f.ruleId] ?? 0)),
        ("level", .string(level(f.severity))),
        ("message", .object([("text", .string(f.diagnostic.message))])),
      ]
      if let file = f.file {
        members.append(
          (
            "locations",
            .array([.object([("physicalLocation", physical(file, f.diagnostic.location, snippet: f.sourceLine))])])
          ))
      }
      let related: [JSONValue] = f.diagnostic.notes.enumerated().compactMap { (i, n) in
        guard let l = n.location else { return nil }
        return .object([
          ("id", .int(i + 1)), ("physicalLocation", physical(l.file, l, snippet: nil)),
          ("message", .object([("text", .string(n.message))])),
        ])
      }
      if !related.isEmpty { members.append(("relatedLocations", .array(related))) }
      members.append(("partialFingerprints", .object([("mapcFingerprint/v1", .string(f.fingerprint))])))
      switch f.status {
      case .active: break
      case .suppressed(let reason):
        members.append(
          (
            "suppressions",
            .array([
              .object([
                ("kind", .string("inSource")), ("status", .string("accepted")), ("justification", .string(reason)),
              ])
            ])
          ))
      case .baselined(let reason):
        members.append(
          (
            "suppressions",
            .array([
              .object([
                ("kind", .string("external")), ("status", .string("accepted")), ("justification", .string(reason)),
              ])
            ])
          ))
      }
      return .object(members)
    }

    let root = directoryURI(workingDirectory)
    let run: JSONValue = .object([
      (
        "tool",
        .object([
          (
            "driver",
            .object([
              ("name", .string("mapc")), ("fullName", .string("mapc lint")), ("version", .string(toolVersion)),
              ("semanticVersion", .string(toolVersion)), ("rules", .array(rules)),
            ])
          )
        ])
      ),
      (
        "invocations",
        .array([
          .object([("executionSuccessful", .bool(true)), ("workingDirectory", .object([("uri", .string(root))]))])
        ])
      ),
      ("originalUriBaseIds", .object([("SRCROOT", .object([("uri", .string(root))]))])),
      ("artifacts", .array(artifacts)),
      ("results", .array(results)),
      ("columnKind", .string("unicodeCodePoints")),
    ])
    return JSONValue.object([("$schema", .string(schemaURI)), ("version", .string("2.1.0")), ("runs", .array([run]))])
      .rendered()
  }

  static func descriptor(_ rule: LintRule) -> JSONValue {
    let help = "\(rule.explanation)\n\nSuppress: \(rule.suppression). Details: mapc lint --explain \(rule.id)"
    return .object([
      ("id", .string(rule.id)), ("name", .string(ruleName(rule.id))),
      ("shortDescription", .object([("text", .string(rule.title))])),
      ("fullDescription", .object([("text", .string(rule.explanation))])),
      ("help", .object([("text", .string(help)), ("markdown", .string(LintRuleDocs.markdown(rule)))])),
      ("defaultConfiguration", .object([("level", .string(level(rule.severity)))])),
      ("properties", .object([("tags", .array([.string("core-data"), .string(rule.origin.rawValue)]))])),
    ])
  }

  /// `lint-optional-into-mandatory` → `OptionalIntoMandatory`.
  static func ruleName(_ id: String) -> String {
    var parts = id.split(separator: "-").map(String.init)
    if let first = parts.first, first == "lint" || first == "map", parts.count > 1 { parts.removeFirst() }
    return parts.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }

  static func level(_ s: Diagnostic.Severity) -> String {
    switch s {
    case .error: "error"
    case .warning: "warning"
    case .note: "note"
    }
  }

  /// `uri` (relative to SRCROOT, or an absolute `file:` URI) and `uriBaseId` for a path.
  static func uriMembers(_ path: String) -> [(String, JSONValue)] {
    if path.hasPrefix("/") { return [("uri", .string("file://" + PathText.uriEncoded(path)))] }
    var p = path
    while p.hasPrefix("./") { p.removeFirst(2) }
    return [("uri", .string(PathText.uriEncoded(p))), ("uriBaseId", .string("SRCROOT"))]
  }

  static func directoryURI(_ path: String) -> String {
    let p = path.hasSuffix("/") ? path : path + "/"
    return "file://" + PathText.uriEncoded(p)
  }
}

/// The catalogue as Markdown (`Specs/lint-rules.md` holds exactly these sections) and as
/// plain text (`mapc lint --explain RULE`).
public enum LintRuleDocs {
  public static func markdown(_ rule: LintRule) -> String {
    var out = "### `\(rule.id)`\n\n"
    out +=
      "- Severity: **\(rule.severity.rawValue)**\(rule.origin == .compiler ? " (reported by the compiler, so by `mapc compile` too)" : "")\n"
    out += "- Summary: \(code(rule.title))\n"
    out += "- Suppress: \(code(rule.suppression))\n\n"
    out += code(rule.explanation) + "\n\n"
    let places =
      rule.bad.expectedMappingPositions.map { "`\(rule.bad.fileName):\($0.line):\($0.column)`" }
      + rule.bad.expectedBaselinePositions.map { "`\(LintExample.baselineFileName):\($0.line):\($0.column)`" }
    out += exampleMarkdown("Bad (reported at \(places.joined(separator: ", ")))", rule.bad)
    out += exampleMarkdown("Good (no finding)", rule.good)
    return out
  }

  /// Markup-looking words (`<attribute>`, `$source.<name>`) as code, so Markdown shows them.
  static func code(_ text: String) -> String {
    guard let regex = try? NSRegularExpression(pattern: "[^\\s]*<[^>\\s]*[^>]*?>[^\\s,.;:)]*") else { return text }
    return regex.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "`$0`")
  }

  static func exampleMarkdown(_ label: String, _ e: LintExample) -> String {
    var out = "\(label): source model\n\n```xml\n\(e.sourceEntities)\n```\n\n"
    out += "destination model\n\n```xml\n\(e.destinationEntities)\n```\n\n"
    if let snapshots = e.snapshotEntities, snapshots.count == 2, snapshots[1] != e.destinationEntities {
      out +=
        "destination model when the mapping model was made (its snapshot, `DESTINATION_SNAPSHOT`)\n\n```xml\n\(snapshots[1])\n```\n\n"
    }
    out += "mapping `\(e.fileName)`\n\n```xml\n\(e.mappingText.trimmingSuffixNewlines)\n```\n\n"
    if let b = e.baselineText {
      out += "baseline `\(LintExample.baselineFileName)`\n\n```json\n\(b.trimmingSuffixNewlines)\n```\n\n"
    }
    return out
  }

  public static func text(_ rule: LintRule) -> String {
    var out = "\(rule.id) (\(rule.severity.rawValue)\(rule.origin == .compiler ? ", compiler" : "")): \(rule.title)\n\n"
    out += wrap(rule.explanation, width: 88) + "\n\n"
    out += "Suppress: \(rule.suppression).\n\n"
    for (label, e) in [("Bad", rule.bad), ("Good", rule.good)] {
      out += "\(label) example — source model:\n\(indent(e.sourceEntities))\n"
      out += "destination model:\n\(indent(e.destinationEntities))\n"
      if let snapshots = e.snapshotEntities, snapshots.count == 2, snapshots[1] != e.destinationEntities {
        out +=
          "destination model when the mapping model was made (its snapshot, DESTINATION_SNAPSHOT):\n\(indent(snapshots[1]))\n"
      }
      out += "\(e.fileName):\n\(indent(e.mappingText.trimmingSuffixNewlines))\n"
      if let b = e.baselineText { out += "\(LintExample.baselineFileName):\n\(indent(b.trimmingSuffixNewlines))\n" }
      out += "\n"
    }
    return out
  }

  static func indent(_ s: String) -> String {
    s.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
  }

  static func wrap(_ s: String, width: Int) -> String {
    var lines: [String] = []
    var current = ""
    for word in s.split(separator: " ") {
      if !current.isEmpty && current.count + 1 + word.count > width {
        lines.append(current)
        current = String(word)
      } else {
        current += current.isEmpty ? String(word) : " " + word
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines.joined(separator: "\n")
  }
}

extension String {
  var trimmingSuffixNewlines: String {
    var s = self
    while s.hasSuffix("\n") { s.removeLast() }
    return s
  }
}
