/// Graphviz DOT, laid out by `dot -Tsvg` (Specs/model-diff.md §3 says why Graphviz): every box
/// an HTML-like table, coloured by its mark; node ids `entity-…` so the SVG can be checked.
extension Diagram {
  static func colours(_ mark: Mark) -> (fill: String, line: String) {
    switch mark {
    case .none: ("#ffffff", "#57606a")
    case .added: ("#dafbe1", "#1a7f37")
    case .removed: ("#ffebe9", "#cf222e")
    case .renamed: ("#ddf4ff", "#0969da")
    case .changed: ("#fff8c5", "#9a6700")
    }
  }

  static func prefix(_ mark: Mark) -> String {
    switch mark {
    case .none: ""
    case .added: "+ "
    case .removed: "− "
    case .renamed: "→ "
    case .changed: "~ "
    }
  }

  /// Text in a DOT HTML-like label.
  static func html(_ s: String) -> String {
    var out = ""
    for u in s.unicodeScalars {
      switch u {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "\n", "\r", "\t": out += " "
      default: if u.value >= 0x20 && u.value != 0x7F { out.unicodeScalars.append(u) }
      }
    }
    return out
  }

  /// Text in a DOT `"…"` string.
  static func dotString(_ s: String) -> String {
    "\"" + html(s).replacingQuotes() + "\""
  }

  /// At most `limit` characters, `…` after.
  static func clipped(_ s: String, _ limit: Int = 80) -> String {
    s.count <= limit ? s : String(s.prefix(limit - 1)) + "…"
  }

  public func dot() -> String {
    var out = "digraph \"mapc\" {\n"
    out +=
      "  graph [fontname=\"Helvetica\", fontsize=11, rankdir=\(kind == .mapping ? "LR" : "TB"), nodesep=0.4, ranksep=0.6];\n"
    out += "  node [shape=plaintext, fontname=\"Helvetica\", fontsize=10];\n"
    out += "  edge [fontname=\"Helvetica\", fontsize=9, color=\"#57606a\"];\n"
    for column in (kind == .mapping ? [0, 1, 2] : [0]) {
      if kind == .mapping { out += "  { rank=same;\n" }
      for n in nodes where n.column == column { out += "  " + node(n) + "\n" }
      if kind == .mapping { out += "  }\n" }
    }
    for (i, e) in edges.enumerated() {
      let (_, line) = Self.colours(e.mark)
      var attributes = ["id=\"edge-\(i)\"", "color=\"\(line)\""]
      if !e.label.isEmpty { attributes.append("label=" + Self.dotString(Self.clipped(e.label, 40))) }
      if kind == .entityRelationship {
        attributes.append("dir=both")
        attributes.append("arrowtail=\(Self.arrow(e.fromCardinality))")
        attributes.append("arrowhead=\(Self.arrow(e.toCardinality))")
      }
      if e.mark == .removed { attributes.append("style=dashed") }
      out += "  \(e.from) -> \(e.to) [\(attributes.joined(separator: ", "))];\n"
    }
    return out + "}\n"
  }

  static func arrow(_ c: Cardinality) -> String {
    switch c {
    case .zeroOrOne: "teeodot"
    case .exactlyOne: "teetee"
    case .zeroOrMore: "crowodot"
    case .oneOrMore: "crowtee"
    }
  }

  func node(_ n: Node) -> String {
    let (fill, line) = Self.colours(n.mark)
    var title = "<B>\(Self.html(n.title))</B>"
    if n.mark == .removed { title = "<S>\(title)</S>" }
    var label =
      "<TABLE BORDER=\"1\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"3\" COLOR=\"\(line)\" BGCOLOR=\"\(fill)\">"
    label += "<TR><TD COLSPAN=\"2\">\(Self.html(Self.prefix(n.mark)))\(title)</TD></TR>"
    if let note = n.note {
      label +=
        "<TR><TD COLSPAN=\"2\"><FONT POINT-SIZE=\"8\" COLOR=\"\(line)\">\(Self.html(Self.clipped(note)))</FONT></TD></TR>"
    }
    for r in n.rows {
      let (_, rowLine) = Self.colours(r.mark)
      var name = Self.html(Self.prefix(r.mark) + r.name)
      if r.mark == .removed { name = "<S>\(name)</S>" }
      var detail = Self.html(Self.clipped(r.detail, 60))
      if let note = r.note, r.mark != .none, r.mark != .added, r.mark != .removed {
        detail += " <FONT POINT-SIZE=\"8\">(\(Self.html(Self.clipped(note, 50))))</FONT>"
      }
      label +=
        "<TR><TD ALIGN=\"LEFT\"><FONT COLOR=\"\(rowLine)\">\(name)</FONT></TD><TD ALIGN=\"LEFT\"><FONT COLOR=\"\(rowLine)\">\(detail)</FONT></TD></TR>"
    }
    label += "</TABLE>"
    return "\(n.id) [id=\"entity-\(n.id)\", tooltip=\(Self.dotString(n.title)), label=<\(label)>];"
  }
}

extension String {
  /// `\` escaped for a DOT string (quotes are already `&quot;`).
  fileprivate func replacingQuotes() -> String {
    var out = ""
    for c in self { out += c == "\\" ? "\\\\" : String(c) }
    return out
  }
}
