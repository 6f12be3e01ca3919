/// A complete, exact textual rendering of a value, for comparing values field by field where
/// `==` is not enough: `Expression ==` ignores spans, `String ==` equates canonically
/// equivalent strings, and `Double ==` equates 0.0 with -0.0 and never equates NaNs.
///
/// It walks every stored property with `Mirror`, so a field added to a type later is compared
/// too. Each line is `path = value`; strings are shown with non-ASCII scalars escaped, doubles
/// with their bit pattern, dictionaries sorted by their rendered entries.
public enum DeepDescription {
  public static func lines(of value: Any, root: String = "") -> [String] {
    var lines: [String] = []
    describe(value, path: root, into: &lines)
    return lines
  }

  /// The lines that differ between two values, as `- path = a` / `+ path = b` pairs; empty
  /// when the values are identical in every field. At most `limit` differences are listed.
  public static func differences(_ a: Any, _ b: Any, limit: Int = 20) -> [String] {
    let la = lines(of: a), lb = lines(of: b)
    var result: [String] = []
    for (i, (x, y)) in zip(la, lb).enumerated() where x != y {
      result.append("line \(i): - \(x)")
      result.append("line \(i): + \(y)")
      if result.count >= 2 * limit { return result }
    }
    if la.count != lb.count {
      result.append("line counts differ: \(la.count) vs \(lb.count)")
    }
    return result
  }

  /// Every Optional stored property met in `value`, keyed `Type.property`, with whether it
  /// was non-nil at least once. Used to check that a sample sets every optional field.
  public static func optionalFields(of value: Any) -> [String: Bool] {
    var result: [String: Bool] = [:]
    func walk(_ v: Any) {
      let mirror = Mirror(reflecting: v)
      let isRecord = mirror.displayStyle == .struct || mirror.displayStyle == .class
      for child in mirror.children {
        let childMirror = Mirror(reflecting: child.value)
        if isRecord, childMirror.displayStyle == .optional, let label = child.label {
          let key = "\(type(of: v)).\(label)"
          result[key] = (result[key] ?? false) || !childMirror.children.isEmpty
        }
        walk(child.value)
      }
    }
    walk(value)
    return result
  }

  /// Calls `body` with `value` and every value stored inside it, depth first.
  public static func forEachValue(in value: Any, _ body: (Any) -> Void) {
    body(value)
    for child in Mirror(reflecting: value).children { forEachValue(in: child.value, body) }
  }

  /// The case name of an enum value (`keyPath` for `.keyPath(base:components:)`).
  public static func caseName(_ value: Any) -> String {
    Mirror(reflecting: value).children.first?.label ?? "\(value)"
  }

  public static func escaped(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case " "..."~": out.unicodeScalars.append(scalar)
      default: out += "\\u{\(String(scalar.value, radix: 16))}"
      }
    }
    return out + "\""
  }

  private static func describe(_ value: Any, path: String, into lines: inout [String]) {
    let mirror = Mirror(reflecting: value)
    // First, as `Optional("x") as? String` succeeds and would hide the Optional.
    if mirror.displayStyle == .optional {
      if let some = mirror.children.first {
        describe(some.value, path: path + "?", into: &lines)
      } else {
        lines.append("\(path) = nil")
      }
      return
    }
    switch value {
    case let s as String:
      lines.append("\(path) = \(escaped(s))")
      return
    case let d as Double:
      lines.append("\(path) = \(d) [bits \(String(d.bitPattern, radix: 16))]")
      return
    case let f as Float:
      lines.append("\(path) = \(f) [bits \(String(f.bitPattern, radix: 16))]")
      return
    case is Bool, is Int, is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8, is UInt16,
      is UInt32, is UInt64:
      lines.append("\(path) = \(value)")
      return
    default:
      break
    }
    switch mirror.displayStyle {
    case .collection:
      lines.append("\(path).count = \(mirror.children.count)")
      for (i, child) in mirror.children.enumerated() {
        describe(child.value, path: "\(path)[\(i)]", into: &lines)
      }
    case .set, .dictionary:
      var entries: [[String]] = []
      for child in mirror.children {
        var sub: [String] = []
        describe(child.value, path: "\(path)[*]", into: &sub)
        entries.append(sub)
      }
      lines.append("\(path).count = \(entries.count)")
      for entry in entries.sorted(by: { $0.joined(separator: "\n") < $1.joined(separator: "\n") }) {
        lines.append(contentsOf: entry)
      }
    case .enum:
      if let payload = mirror.children.first {
        let label = payload.label ?? "?"
        lines.append("\(path) = .\(label)")
        describe(payload.value, path: "\(path).\(label)", into: &lines)
      } else {
        lines.append("\(path) = .\(value)")
      }
    default:
      // Structs, classes, tuples. A struct with no stored properties shows its description.
      if mirror.children.isEmpty {
        lines.append("\(path) = \(String(reflecting: value))")
      }
      for (i, child) in mirror.children.enumerated() {
        describe(child.value, path: "\(path).\(child.label ?? ".\(i)")", into: &lines)
      }
    }
  }
}
