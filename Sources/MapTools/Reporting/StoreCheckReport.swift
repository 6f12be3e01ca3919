import Foundation
import MapJSONText
import MapRuntime

/// The findings of `mapc store check` (Specs/store-check.md) as text (one diagnostic line each,
/// placed at the store), JSON and SARIF 2.1.0 (like `mapc lint --format sarif`: one run, a rule
/// per finding id, a result per finding whose logical location is the table, row and entity).
public struct StoreCheckReport: Sendable {
  public var store: String
  /// The model version the store was checked against.
  public var version: String
  public var findings: [StoreFinding]

  public init(store: String, version: String, findings: [StoreFinding]) {
    self.store = store
    self.version = version
    self.findings = findings
  }

  /// Whether the run fails (exit 1): an error or a warning; notes do not fail.
  public var fails: Bool { findings.contains { $0.severity != .note } }

  public func count(_ s: StoreFinding.Severity) -> Int { findings.filter { $0.severity == s }.count }

  /// `store: 2 errors, 1 warning, 0 notes (checked against 'V')`.
  public var summary: String {
    func n(_ k: Int, _ word: String) -> String { "\(k) \(word)\(k == 1 ? "" : "s")" }
    return "\(store): \(n(count(.error), "error")), \(n(count(.warning), "warning")), \(n(count(.note), "note"))"
      + " (checked against '\(version)')"
  }

  /// One line per finding: `STORE: error: PLACE: MESSAGE; repair: … [id]`, escaped.
  public func text() -> String {
    findings.map { f in
      DiagnosticLine.render(f.severity, line(f), id: f.id, place: store)
    }.joined(separator: "\n")
  }

  func line(_ f: StoreFinding) -> String {
    let place = f.place
    return (place.isEmpty ? "" : place + ": ") + f.message + "; repair: " + f.repair
  }

  func members(_ f: StoreFinding) -> [(String, JSONValue)] {
    var m: [(String, JSONValue)] = [
      ("id", .string(f.id)), ("severity", .string(f.severity.rawValue)), ("message", .string(f.message)),
    ]
    if let t = f.table { m.append(("table", .string(t))) }
    if let c = f.column { m.append(("column", .string(c))) }
    if let r = f.row { m.append(("row", .int(Int(r)))) }
    if let e = f.entity { m.append(("entity", .string(e))) }
    m.append(("count", .int(f.count)))
    m.append(("repair", .string(f.repair)))
    return m
  }

  public func json() -> String {
    JSONValue.object([
      ("store", .string(store)), ("version", .string(version)),
      ("errors", .int(count(.error))), ("warnings", .int(count(.warning))), ("notes", .int(count(.note))),
      ("findings", .array(findings.map { .object(members($0)) })),
    ]).rendered() + "\n"
  }

  public func sarif(toolVersion: String, workingDirectory: String) -> String {
    var ids: [String] = []
    for f in findings where !ids.contains(f.id) { ids.append(f.id) }
    ids.sort()
    let rules: [JSONValue] = ids.map { id in
      .object([
        ("id", .string(id)), ("name", .string(SARIFReporter.ruleName(id))),
        ("shortDescription", .object([("text", .string("mapc store check finding \(id)"))])),
        ("properties", .object([("tags", .array([.string("core-data"), .string("store")]))])),
      ])
    }
    let results: [JSONValue] = findings.map { f in
      var logical: [(String, JSONValue)] = [("kind", .string("table"))]
      logical.append(("fullyQualifiedName", .string(f.place.isEmpty ? store : f.place)))
      return .object([
        ("ruleId", .string(f.id)), ("ruleIndex", .int(ids.firstIndex(of: f.id) ?? 0)),
        ("level", .string(SARIFReporter.level(f.severity))),
        ("message", .object([("text", .string(line(f)))])),
        (
          "locations",
          .array([
            .object([
              (
                "physicalLocation",
                .object([("artifactLocation", .object(SARIFReporter.uriMembers(store) + [("index", .int(0))]))])
              ),
              ("logicalLocations", .array([.object(logical)])),
            ])
          ])
        ),
        ("properties", .object(members(f))),
      ])
    }
    let root = SARIFReporter.directoryURI(workingDirectory)
    let run: JSONValue = .object([
      (
        "tool",
        .object([
          (
            "driver",
            .object([
              ("name", .string("mapc")), ("fullName", .string("mapc store check")),
              ("version", .string(toolVersion)), ("semanticVersion", .string(toolVersion)), ("rules", .array(rules)),
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
      (
        "artifacts",
        .array([
          .object([
            ("location", .object(SARIFReporter.uriMembers(store))), ("roles", .array([.string("analysisTarget")])),
          ])
        ])
      ),
      ("results", .array(results)),
    ])
    return JSONValue.object([
      ("$schema", .string(SARIFReporter.schemaURI)), ("version", .string("2.1.0")), ("runs", .array([run])),
    ]).rendered() + "\n"
  }
}
