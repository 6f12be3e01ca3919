import MapJSONText
import MapRuntime
import MapSyntax

/// Compiler-style text: `path:line:column: severity: message [rule-id]`, then the source line
/// and a caret under the column, then the notes; a summary line at the end. Only active
/// findings are shown (suppressed and baselined ones are counted in the summary).
public enum TextReporter {
  public static func render(_ report: LintReport, colour: Bool = false) -> String {
    var out = ""
    for f in report.active {
      out += headline(f.diagnostic, colour: colour) + "\n"
      if let line = f.sourceLine.map(TerminalText.escaped), let column = f.diagnostic.location?.column {
        out += line + "\n" + caretLine(line, column: column, colour: colour) + "\n"
      }
      for note in f.diagnostic.notes {
        let place = note.location.map { "\($0): " } ?? f.diagnostic.location.map { "\($0): " } ?? ""
        out +=
          TerminalText.escaped(place) + paint("note:", .cyan, colour) + " " + TerminalText.escaped(note.message) + "\n"
      }
    }
    out += report.summary + "\n"
    return out
  }

  static func headline(_ d: Diagnostic, colour: Bool) -> String {
    let place: String
    if let l = d.location {
      place = "\(l): "
    } else if let file = d.file {
      place = "\(file): "
    } else {
      place = "mapc: "
    }
    let severity: String
    switch d.severity {
    case .error: severity = paint("error:", .red, colour)
    case .warning: severity = paint("warning:", .magenta, colour)
    case .note: severity = paint("note:", .cyan, colour)
    }
    return paint(TerminalText.escaped(place), .bold, colour) + severity + " " + TerminalText.escaped(d.message)
      + " [\(d.id)]"
  }

  /// Blanks up to the column (tabs kept, so the caret lines up), then `^`.
  static func caretLine(_ line: String, column: Int, colour: Bool) -> String {
    var prefix = ""
    for (i, c) in line.unicodeScalars.enumerated() where i < column - 1 {
      prefix += c == "\t" ? "\t" : " "
    }
    return prefix + paint("^", .green, colour)
  }

  enum Style: String {
    case bold = "1", red = "1;31", magenta = "1;35", cyan = "1;36", green = "1;32"
  }

  static func paint(_ s: String, _ style: Style, _ on: Bool) -> String {
    on ? "\u{1B}[\(style.rawValue)m\(s)\u{1B}[0m" : s
  }
}

/// GitHub Actions workflow commands: one `::error file=…,line=…,col=…,title=RULE::message`
/// (or `::warning`, `::notice`) per active finding.
public enum GitHubReporter {
  public static func render(_ report: LintReport) -> String {
    var out = ""
    for f in report.active {
      let d = f.diagnostic
      let command: String
      switch d.severity {
      case .error: command = "error"
      case .warning: command = "warning"
      case .note: command = "notice"
      }
      var properties: [String] = []
      if let file = f.file { properties.append("file=\(escapeProperty(file))") }
      if let l = d.location {
        properties.append("line=\(l.line)")
        properties.append("col=\(l.column)")
      }
      properties.append("title=\(escapeProperty(d.id))")
      var message = "\(d.message) [\(d.id)]"
      for note in d.notes {
        message += "\nnote: " + (note.location.map { "\($0): " } ?? "") + note.message
      }
      out += "::\(command) \(properties.joined(separator: ","))::\(escapeData(message))\n"
    }
    return out
  }

  /// `%`, CR and LF, as the runner expects in a message.
  static func escapeData(_ s: String) -> String {
    s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
      .replacingOccurrences(of: "\n", with: "%0A")
  }

  /// Property values also escape `:` and `,`.
  static func escapeProperty(_ s: String) -> String {
    escapeData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
  }
}

/// mapc's own JSON: every finding (suppressed and baselined ones too, with their status) and
/// a summary.
public enum JSONReporter {
  public static func render(_ report: LintReport, toolVersion: String) -> String {
    func location(_ l: SourceLocation?, file: String?) -> [(String, JSONValue)] {
      [
        ("file", (l?.file ?? file).map(JSONValue.string) ?? .null),
        ("line", l.map { .int($0.line) } ?? .null),
        ("column", l.map { .int($0.column) } ?? .null),
      ]
    }
    let findings: [JSONValue] = report.findings.map { f in
      let (status, justification): (String, String?) =
        switch f.status {
        case .active: ("active", nil)
        case .suppressed(let r): ("suppressed", r)
        case .baselined(let r): ("baselined", r)
        }
      var members: [(String, JSONValue)] = [
        ("rule", .string(f.ruleId)), ("severity", .string(f.severity.rawValue)),
        ("message", .string(f.diagnostic.message)),
      ]
      members += location(f.diagnostic.location, file: f.file)
      members.append(("status", .string(status)))
      if let justification { members.append(("justification", .string(justification))) }
      members.append(("fingerprint", .string(f.fingerprint)))
      members.append(
        (
          "notes",
          .array(
            f.diagnostic.notes.map { n in .object([("message", .string(n.message))] + location(n.location, file: nil)) }
          )
        ))
      return .object(members)
    }
    return JSONValue.object([
      ("version", .int(1)),
      ("tool", .object([("name", .string("mapc lint")), ("version", .string(toolVersion))])),
      ("files", .array(report.files.map(JSONValue.string))),
      (
        "summary",
        .object([
          ("files", .int(report.files.count)), ("errors", .int(report.count(.error))),
          ("warnings", .int(report.count(.warning))),
          ("notes", .int(report.count(.note))), ("suppressed", .int(report.suppressedCount)),
          ("baselined", .int(report.baselinedCount)),
        ])
      ),
      ("findings", .array(findings)),
    ]).rendered()
  }
}
