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

  /// Text inside a Mermaid `"…"`: quotes and line ends cannot appear.
  static func quotedText(_ s: String) -> String {
    var out = ""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "'"
      case "\n", "\r", "\t": out += " "
      default: if u.value >= 0x20 && u.value != 0x7F { out.unicodeScalars.append(u) }
      }
    }
    return out
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
        let type = Self.word(r.detail.hasSuffix("?") ? String(r.detail.dropLast()) : r.detail)
        var comment: [String] = []
        if r.detail.hasSuffix("?") { comment.append("optional") }
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
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "#quot;"
      case "<": out += "#lt;"
      case ">": out += "#gt;"
      case "#": out += "#35;"
      case "\n", "\r", "\t": out += " "
      default: if u.value >= 0x20 && u.value != 0x7F { out.unicodeScalars.append(u) }
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
