import MapJSONText
import MapRuntime

/// The text, Markdown and JSON forms of a `ModelDiff` (Specs/model-diff.md §2).
extension ModelDiff {
  static func mark(_ kind: Kind) -> String {
    switch kind {
    case .added: "+"
    case .removed: "-"
    case .renamed: ">"
    case .changed: "~"
    case .unchanged: "="
    }
  }

  static func headline(_ e: EntityChange) -> String {
    var line = "\(mark(e.kind)) entity \(e.name)"
    switch e.kind {
    case .added: line += " (added)"
    case .removed: line += " (removed)"
    case .renamed: line += " (renamed from \(e.renamedFrom ?? "?"))"
    case .changed, .unchanged: break
    }
    if e.kind != .added && e.kind != .removed && !e.hashChanged {
      line += " (same version hash: stores do not see this change)"
    }
    return line
  }

  static func propertyLine(_ p: PropertyChange) -> String {
    var line = "\(mark(p.kind)) \(p.isRelationship ? "relationship" : "attribute") \(p.name)"
    switch p.kind {
    case .renamed: line += " (renamed from \(p.renamedFrom ?? "?"))"
    case .added, .removed: line += ": \(p.summary)"
    default: break
    }
    if !p.changes.isEmpty { line += (p.kind == .renamed ? "; " : ": ") + p.changes.joined(separator: ", ") }
    return line
  }

  /// The verdict in one sentence.
  public var inferenceSentence: String {
    switch inference {
    case .inferable:
      "Core Data can infer this step (lightweight migration) without losing data."
    case .losesData(let lost):
      // A whole entity can be said to go in a mapping (type remove); a property only by consent.
      "Core Data can infer this step only by dropping data (\(lost.joined(separator: ", "))): it cannot be inferred without losing data; write a mapping that keeps it, or accept the loss ("
        + [
          lost.contains { !$0.contains(".") } ? "an entity mapping of type remove says an entity goes" : nil,
          lost.contains { $0.contains(".") }
            ? "mapc migrate --allow-drop \(lost.first { $0.contains(".") }!) accepts a property's loss" : nil,
        ].compactMap { $0 }.joined(separator: "; ") + ")."
    case .notInferable(let reasons):
      "Core Data cannot infer this step: \(reasons.joined(separator: "; ")); write a mapping for it."
    }
  }

  /// The verdict when the hashes are equal: no step runs.
  public var compatibleSentence: String {
    "The two versions have the same entity version hashes: Core Data opens a store of \(from) with \(to) without migrating (no step runs, on a device or in mapc migrate)."
  }

  /// `3 added, 2 removed, 1 renamed, 4 changed entities`.
  public var countLine: String {
    let counts = [Kind.added, .removed, .renamed, .changed].map { k in (k, entities.filter { $0.kind == k }.count) }
    let unchanged = entities.filter { $0.kind == .unchanged }.count
    return counts.map { "\($0.1) \($0.0.rawValue)" }.joined(separator: ", ") + " entities; \(unchanged) unchanged"
  }

  /// Plain text: one line per entity that changed, its properties indented below.
  public func text() -> String {
    var lines = ["mapc diff: \(from) → \(to)"]
    for e in changedEntities {
      lines.append(Self.headline(e))
      for c in e.changes { lines.append("    ~ \(c)") }
      for p in e.properties { lines.append("    " + Self.propertyLine(p)) }
    }
    if changedEntities.isEmpty { lines.append("no entity changed") }
    for note in unmatchedRenamings { lines.append("! " + note) }
    lines.append(countLine)
    lines.append(sameHashes ? compatibleSentence : inferenceSentence)
    // Names, default values and patterns come from the models: a line break or another
    // control character in one is printed escaped, so it cannot start a line of its own (a
    // forged verdict) or reach the terminal (Specs/diagnostics.md §1).
    return lines.map(TerminalText.escaped).joined(separator: "\n") + "\n"
  }

  /// Markdown for a pull-request comment: a table of the entities that changed, then the verdict.
  public func markdown() -> String {
    func cell(_ s: String) -> String {
      var out = ""
      // Control characters first, as in text (a "\r\n" is one Character, which the cases
      // below would not see).
      for c in TerminalText.escaped(s) {
        switch c {
        case "|": out += "\\|"
        case "\n", "\r": out += " "
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "`": out += "'"
        default: out.append(c)
        }
      }
      return out
    }
    var out = "### Core Data model: `\(cell(from))` → `\(cell(to))`\n\n"
    if changedEntities.isEmpty {
      out += "No entity changed.\n\n"
    } else {
      out += "| entity | change | details |\n|---|---|---|\n"
      for e in changedEntities {
        var change = e.kind.rawValue
        if let old = e.renamedFrom { change += " from `\(cell(old))`" }
        if e.kind == .changed && !e.hashChanged { change += " (same version hash)" }
        let details = e.changes.map(cell) + e.properties.map { cell(Self.propertyLine($0)) }
        out += "| `\(cell(e.name))` | \(change) | \(details.isEmpty ? "" : details.joined(separator: "<br>")) |\n"
      }
      out += "\n"
    }
    for note in unmatchedRenamings { out += "- \(cell(note))\n" }
    if !unmatchedRenamings.isEmpty { out += "\n" }
    out += "\(cell(countLine)).\n\n"
    if sameHashes { return out + "**Lightweight migration:** none needed. \(cell(compatibleSentence))\n" }
    switch inference {
    case .inferable: out += "**Lightweight migration:** inferable, nothing dropped.\n"
    case .losesData: out += "**Lightweight migration:** not without losing data. \(cell(inferenceSentence))\n"
    case .notInferable: out += "**Lightweight migration:** not inferable. \(cell(inferenceSentence))\n"
    }
    return out
  }

  public func json() -> String {
    var verdict: [(String, JSONValue)] = []
    switch inference {
    case .inferable:
      verdict = [("inferable", .bool(true)), ("withoutDataLoss", .bool(true))]
    case .losesData(let lost):
      verdict = [
        ("inferable", .bool(true)), ("withoutDataLoss", .bool(false)), ("drops", .array(lost.map(JSONValue.string))),
      ]
    case .notInferable(let reasons):
      verdict = [
        ("inferable", .bool(false)), ("withoutDataLoss", .bool(false)),
        ("reasons", .array(reasons.map(JSONValue.string))),
      ]
    }
    let list: [JSONValue] = changedEntities.map { e in
      var members: [(String, JSONValue)] = [("name", .string(e.name)), ("change", .string(e.kind.rawValue))]
      if let old = e.renamedFrom { members.append(("renamedFrom", .string(old))) }
      members.append(("versionHashChanged", .bool(e.hashChanged)))
      members.append(("changes", .array(e.changes.map(JSONValue.string))))
      members.append(
        (
          "properties",
          .array(
            e.properties.map { p in
              var m: [(String, JSONValue)] = [
                ("name", .string(p.name)), ("kind", .string(p.isRelationship ? "relationship" : "attribute")),
                ("change", .string(p.kind.rawValue)),
              ]
              if let old = p.renamedFrom { m.append(("renamedFrom", .string(old))) }
              m.append(("summary", .string(p.summary)))
              m.append(("changes", .array(p.changes.map(JSONValue.string))))
              return .object(m)
            })
        ))
      return .object(members)
    }
    return JSONValue.object([
      ("from", .string(from)), ("to", .string(to)), ("sameHashes", .bool(sameHashes)),
      ("unmatchedRenamingIdentifiers", .array(unmatchedRenamings.map(JSONValue.string))),
      ("inference", .object(verdict)),
      ("unchangedEntities", .int(entities.filter { $0.kind == .unchanged }.count)), ("entities", .array(list)),
    ]).rendered()
  }
}
