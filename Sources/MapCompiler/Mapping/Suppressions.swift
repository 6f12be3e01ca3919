import MapRuntime
import MapSyntax

/// `<!-- mapc-lint-disable RULE[, RULE…]: reason -->` comments.
///
/// A comment applies to the element that follows it among its siblings; with no element after
/// it, to its parent element; before the root element, to the whole file.
enum Suppressions {
  static let marker = "mapc-lint-disable"

  static func collect(_ xml: XML.Document) -> [Suppression] {
    var result: [Suppression] = []
    let whole = xml.root.location.line...Int.max
    for node in xml.prolog {
      if case .comment(let c) = node, let s = parse(c, scope: whole) { result.append(s) }
    }
    walk(xml.root, into: &result)
    return result
  }

  private static func walk(_ e: XML.Element, into result: inout [Suppression]) {
    var pending: [XML.Comment] = []
    for node in e.children {
      switch node {
      case .comment(let c) where c.value.contains(marker):
        pending.append(c)
      case .element(let child):
        if !pending.isEmpty {
          let scope = child.location.line...lastLine(child)
          for c in pending { if let s = parse(c, scope: scope) { result.append(s) } }
          pending = []
        }
        walk(child, into: &result)
      default:
        break
      }
    }
    guard !pending.isEmpty else { return }
    let scope = e.location.line...lastLine(e)
    for c in pending { if let s = parse(c, scope: scope) { result.append(s) } }
  }

  /// The last line an element's content reaches.
  static func lastLine(_ e: XML.Element) -> Int {
    var line = e.location.line
    for node in e.children {
      switch node {
      case .element(let c): line = max(line, lastLine(c))
      case .text(let t): line = max(line, t.positions.endLine)
      case .comment(let c): line = max(line, c.positions.endLine)
      case .processingInstruction(let p): line = max(line, p.location.line)
      }
    }
    for a in e.attributes { line = max(line, a.valuePositions.endLine) }
    return line
  }

  /// Parses `mapc-lint-disable a, b: reason`; nil for other comments.
  static func parse(_ c: XML.Comment, scope: ClosedRange<Int>) -> Suppression? {
    let text = c.value.trimmedXMLSpace
    guard text.hasPrefix(marker) else { return nil }
    let rest = text.dropFirst(marker.count)
    let (rulesPart, reason): (Substring, String)
    if let colon = rest.firstIndex(of: ":") {
      rulesPart = rest[..<colon]
      reason = String(rest[rest.index(after: colon)...]).trimmedXMLSpace
    } else {
      rulesPart = rest
      reason = ""
    }
    let rules = rulesPart.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
    return Suppression(rules: rules, reason: reason, location: c.location, scope: scope)
  }
}
