import Foundation
import MapJSONText
import MapRuntime
import MapSyntax

/// A baseline file: findings accepted as they are today, so that CI fails only on new ones.
///
/// ```json
/// {
///   "version": 1,
///   "entries": [
///     { "rule": "…", "file": "…", "fingerprint": "…", "message": "…", "reason": "…" }
///   ]
/// }
/// ```
/// `file` is relative to the baseline's folder; `fingerprint` (see `LintFinding`) does not
/// depend on line numbers, so edits elsewhere in the mapping keep entries valid. Each entry
/// accepts one finding with the same rule, file and fingerprint.
public struct LintBaseline: Sendable {
  public struct Entry: Sendable, Hashable {
    public var rule: String
    public var file: String
    public var fingerprint: String
    public var message: String
    public var reason: String
    /// Where the entry's `{` is in the baseline file.
    public var location: SourceLocation?
  }

  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  public var path: String
  public var entries: [Entry]

  public init(path: String, entries: [Entry] = []) {
    self.path = path
    self.entries = entries
  }

  static let unusedEntryRule = LintRule(
    id: "lint-unused-baseline-entry", severity: .warning,
    title: "A baseline entry that matches no finding",
    explanation: """
      A baseline (--baseline FILE) accepts findings that exist today, one entry per finding. An \
      entry whose finding is gone (fixed, or its line or message changed) no longer accepts \
      anything and would hide the same finding if it came back. Delete the entry, or rewrite \
      the baseline with --write-baseline FILE (which keeps the reasons of entries that still \
      match). Only entries for files linted in the run are checked. The example lints the \
      mapping with the baseline file shown.
      """,
    suppression: "edit the baseline file",
    bad: LintExample(
      source: DestinationEntityUnproduced.person, destination: DestinationEntityUnproduced.person,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
            <attribute name="name">$source.name</attribute>
          </entityMapping>
        """),
      baseline: """
        {
          "version": 1,
          "entries": [
            ‸{
              "rule": "lint-optional-into-mandatory",
              "file": "example.xml",
              "fingerprint": "0123456789abcdef0123456789abcdef",
              "message": "Person.name is mandatory, but this value may be nil",
              "reason": "every person had a name in version 1"
            }
          ]
        }

        """),
    good: LintExample(
      source: DestinationEntityUnproduced.person, destination: SuppressionRules.mandatoryName,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
            <attribute name="name">$source.name</attribute>
          </entityMapping>
        """),
      baseline: """
        {
          "version": 1,
          "entries": [
            {
              "rule": "lint-optional-into-mandatory",
              "file": "example.xml",
              "fingerprint": "5c69ae2963198cdb13605d2d5bea05aa",
              "message": "Person.name is mandatory, but this value may be nil",
              "reason": "every person had a name in version 1"
            }
          ]
        }

        """))

  /// Reads a baseline file.
  public static func load(path: String) throws(Failure) -> LintBaseline {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Failure(description: "\(path): cannot read the baseline file")
    }
    let document: JSONDocument
    do {
      document = try JSONDocument(Array(data), file: path)
    } catch {
      throw Failure(description: "\(path): the baseline is not valid JSON")
    }
    let json = document.root
    guard case .int(1)? = json["version"]?.content, let list = json["entries"]?.array else {
      throw Failure(description: "\(path): not a mapc lint baseline (expected {\"version\": 1, \"entries\": […]})")
    }
    var entries: [Entry] = []
    for (i, item) in list.enumerated() {
      guard let rule = item["rule"]?.string, let file = item["file"]?.string,
        let fingerprint = item["fingerprint"]?.string
      else {
        throw Failure(description: "\(path): entry \(i + 1) needs string members rule, file and fingerprint")
      }
      entries.append(
        Entry(
          rule: rule, file: file, fingerprint: fingerprint, message: item["message"]?.string ?? "",
          reason: item["reason"]?.string ?? "", location: document.location(of: item)))
    }
    return LintBaseline(path: path, entries: entries)
  }

  static func canonical(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
  }

  private var folder: String { PathText.folder(of: Self.canonical(path)) }

  private func resolve(_ entryFile: String) -> String {
    Self.canonical(entryFile.hasPrefix("/") ? entryFile : folder + "/" + entryFile)
  }

  /// Marks accepted findings as baselined and reports entries of linted files that accept
  /// nothing. Compiler errors are never accepted.
  public func apply(to findings: inout [LintFinding], lintedFiles: [String]) -> [Diagnostic] {
    var byKey: [String: [Int]] = [:]
    for (i, e) in entries.enumerated() {
      byKey["\(e.rule)\u{0}\(resolve(e.file))\u{0}\(e.fingerprint)", default: []].append(i)
    }
    var used = Set<Int>()
    for i in findings.indices where findings[i].isActive && !findings[i].isCompileError {
      guard let file = findings[i].file else { continue }
      let key = "\(findings[i].ruleId)\u{0}\(Self.canonical(file))\u{0}\(findings[i].fingerprint)"
      guard var candidates = byKey[key], !candidates.isEmpty else { continue }
      let e = candidates.removeFirst()
      byKey[key] = candidates
      used.insert(e)
      findings[i].status = .baselined(reason: entries[e].reason)
    }
    let linted = Set(lintedFiles.map(Self.canonical))
    var result: [Diagnostic] = []
    for (i, e) in entries.enumerated() where !used.contains(i) && linted.contains(resolve(e.file)) {
      result.append(
        Self.unusedEntryRule.finding(
          "baseline entry for \(e.rule) in \(e.file) matches no finding (\(e.message.isEmpty ? "fingerprint \(e.fingerprint)" : "\"\(e.message)\"")); delete it, or rewrite the baseline with --write-baseline",
          at: e.location, file: path))
    }
    return result
  }

  /// The baseline text accepting `findings` (active and already baselined ones; compiler
  /// errors are left out). Reasons come from `previous` entries that match.
  public static func render(accepting findings: [LintFinding], path: String, previous: LintBaseline?) -> String {
    let base = LintBaseline(path: path)
    var reasons: [String: [String]] = [:]
    if let previous {
      for e in previous.entries {
        reasons["\(e.rule)\u{0}\(previous.resolve(e.file))\u{0}\(e.fingerprint)", default: []].append(e.reason)
      }
    }
    var items: [JSONValue] = []
    for f in findings where !f.isCompileError && f.ruleId != unusedEntryRule.id {
      switch f.status {
      case .suppressed: continue
      case .active, .baselined: break
      }
      guard let file = f.file else { continue }
      let key = "\(f.ruleId)\u{0}\(canonical(file))\u{0}\(f.fingerprint)"
      var reason = ""
      if var r = reasons[key], !r.isEmpty {
        reason = r.removeFirst()
        reasons[key] = r
      }
      items.append(
        .object([
          ("rule", .string(f.ruleId)),
          ("file", .string(PathText.relative(canonical(file), from: base.folder))),
          ("fingerprint", .string(f.fingerprint)),
          ("message", .string(f.diagnostic.message)),
          ("reason", .string(reason)),
        ]))
    }
    return JSONValue.object([("version", .int(1)), ("entries", .array(items))]).rendered()
  }
}
