import MapRuntime

/// Mermaid text: an `erDiagram` for a model, a `flowchart LR` for a mapping. GitHub renders it in
/// Markdown as it is (a ```mermaid block).
extension Diagram {
  public func mermaid() -> String {
    switch kind {
    case .entityRelationship: erMermaid()
    case .mapping: flowchartMermaid()
    }
  }

  /// Letters, digits, `_`, `-` (what Mermaid takes for a type or attribute name).
  static func word(_ s: String) -> String {
    let w = String(
      s.unicodeScalars.map { u in
        (u.isASCII && (u.properties.isAlphabetic || ("0"..."9").contains(u))) || u == "_" || u == "-"
          ? Character(u) : "_"
      })
    return w.isEmpty ? "_" : w
  }

  /// Text inside a Mermaid `"…"`: quotes cannot appear; control characters are escaped as in
  /// every text output (`\n`, `\u{1B}`: `TerminalText`), so no name starts a line.
  static func quotedText(_ s: String) -> String {
    var out = ""
    for u in TerminalText.escaped(s).unicodeScalars {
      switch u {
      case "\"": out += "'"
      case "\t": out += " "
      default: out.unicodeScalars.append(u)
      }
    }
    return out
  }

  /// An ER attribute row's type column (one word: `String`, `Integer_64`, `to-many`) and what
  /// else its detail says (`optional`, `→ Tag`, `default 3`), for the row's comment.
  static func typeAndNotes(_ detail: String) -> (type: String, notes: [String]) {
    var parts = detail.components(separatedBy: ", ")
    var head = parts.removeFirst()
    var notes: [String] = []
    if head.hasSuffix("?") {
      head.removeLast()
      notes.append("optional")
    }
    for kind in ["to-one", "to-many"] where head.hasPrefix(kind + " ") {
      notes.append(String(head.dropFirst(kind.count + 1)))
      head = kind
    }
    return (word(head), notes + parts)
  }

  static func symbol(_ c: Cardinality, left: Bool) -> String {
    switch c {
    case .zeroOrOne: left ? "|o" : "o|"
    case .exactlyOne: "||"
    case .zeroOrMore: left ? "}o" : "o{"
    case .oneOrMore: left ? "}|" : "|{"
    }
  }

  func erMermaid() -> String {
    var out = "erDiagram\n"
    out += "  %% \(Self.quotedText(title)); marks: added, removed, renamed, changed\n"
    for n in nodes {
      out += "  \(n.id) {\n"
      if n.mark != .none {
        out += "    change \(n.mark.rawValue) \"\(Self.quotedText(n.note ?? "entity \(n.mark.rawValue)"))\"\n"
      }
      for r in n.rows {
        let (type, notes) = Self.typeAndNotes(r.detail)
        var comment = notes
        if r.mark != .none {
          comment.append(r.mark.rawValue + (r.note.flatMap { $0 == r.mark.rawValue ? nil : ": " + $0 } ?? ""))
        }
        out += "    \(type) \(Self.word(r.name))"
        if !comment.isEmpty { out += " \"\(Self.quotedText(comment.joined(separator: "; ")))\"" }
        out += "\n"
      }
      out += "  }\n"
    }
    for e in edges {
      let mark = e.mark == .none ? "" : " (\(e.mark.rawValue))"
      out +=
        "  \(e.from) \(Self.symbol(e.fromCardinality, left: true))--\(Self.symbol(e.toCardinality, left: false)) \(e.to) : \"\(Self.quotedText(e.label + mark))\"\n"
    }
    return out
  }

  /// Text in a flowchart label: Mermaid's entity codes for the characters it would read.
  static func label(_ s: String) -> String {
    var out = ""
    for u in TerminalText.escaped(s).unicodeScalars {
      switch u {
      case "\"": out += "#quot;"
      case "<": out += "#lt;"
      case ">": out += "#gt;"
      case "#": out += "#35;"
      case "\t": out += " "
      default: out.unicodeScalars.append(u)
      }
    }
    return out
  }

  func flowchartMermaid() -> String {
    var out =
      "flowchart LR\n  %% mapping \(Self.quotedText(title)): source entities → entity mappings → destination entities\n"
    for column in 0...2 {
      let name = ["source", "mappings", "destination"][column]
      out += "  subgraph \(name)\n"
      for n in nodes where n.column == column {
        var lines = ["<b>\(Self.label(n.title))</b>" + (n.note.map { " (\(Self.label($0)))" } ?? "")]
        lines += n.rows.map { Self.label($0.name) + (column == 1 ? " = " : ": ") + Self.label($0.detail) }
        out += "    \(n.id)[\"\(lines.joined(separator: "<br/>"))\"]\n"
      }
      out += "  end\n"
    }
    for e in edges { out += "  \(e.from) --> \(e.to)\n" }
    return out
  }
}
