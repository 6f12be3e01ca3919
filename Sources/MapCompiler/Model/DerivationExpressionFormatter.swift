/// Prints a derived attribute's `derivationExpression` the way NSExpression's `description`
/// does, which is what Core Data hashes for derived attributes.
///
/// This is a small, self-contained normaliser for the shapes Xcode accepts as derivations:
/// key paths, key paths with a collection operator (`oneToMany.@count` prints as
/// `count:(oneToMany)`, `items.@sum.price` as `sum:(items.price)`), and function calls
/// (`canonical:(optionalString)`, `now()`), with whitespace normalised. Anything else is
/// returned trimmed, unchanged.
///
/// HOOK: the full NSExpression parser and printer (MapCompiler's expression layer) will replace
/// this: `printedForm` should become "parse, then print" once that printer exists.
enum DerivationExpressionFormatter {
  static func printedForm(_ text: String) -> String {
    var parser = Parser(Array(text.unicodeScalars))
    guard let node = parser.expression(), parser.atEnd else { return text.trimmingXMLSpace }
    return node.printed
  }

  private indirect enum Node {
    case keyPath([String])
    case function(name: String, arguments: [Node])
    case literal(String)

    var printed: String {
      switch self {
      case .literal(let text):
        return text
      case .function(let name, let arguments):
        return name + "(" + arguments.map(\.printed).joined(separator: ", ") + ")"
      case .keyPath(let components):
        // A collection operator turns the key path into a function over the path before it.
        if let i = components.firstIndex(where: { $0.hasPrefix("@") }), i > 0 {
          let op = String(components[i].dropFirst())
          let function = Self.collectionFunctions[op] ?? (op + ":")
          let path = components[..<i] + components[(i + 1)...]
          return function + "(" + path.joined(separator: ".") + ")"
        }
        return components.joined(separator: ".")
      }
    }

    /// NSExpression's function names for the key-path collection operators.
    static let collectionFunctions = [
      "count": "count:", "sum": "sum:", "avg": "average:", "min": "min:", "max": "max:",
    ]
  }

  private struct Parser {
    let scalars: [Unicode.Scalar]
    var pos = 0

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    var atEnd: Bool {
      mutating get {
        skipSpace()
        return pos == scalars.count
      }
    }

    mutating func skipSpace() {
      while pos < scalars.count, scalars[pos].properties.isWhitespace { pos += 1 }
    }

    func isIdentifierScalar(_ s: Unicode.Scalar) -> Bool {
      s == "_" || s.properties.isAlphabetic || ("0"..."9").contains(s)
    }

    mutating func identifier() -> String? {
      let start = pos
      while pos < scalars.count, isIdentifierScalar(scalars[pos]) { pos += 1 }
      guard pos > start, !("0"..."9").contains(scalars[start]) else {
        pos = start
        return nil
      }
      return String(String.UnicodeScalarView(scalars[start..<pos]))
    }

    mutating func expression() -> Node? {
      skipSpace()
      guard pos < scalars.count else { return nil }
      let c = scalars[pos]
      if c == "\"" || c == "'" { return stringLiteral(quote: c) }
      if ("0"..."9").contains(c) || c == "-" { return numberLiteral() }
      if c == "(" {
        pos += 1
        let inner = expression()
        skipSpace()
        guard pos < scalars.count, scalars[pos] == ")" else { return nil }
        pos += 1
        return inner
      }
      let start = pos
      guard var name = identifier() else { return nil }
      // A function name may be a selector such as `add:to:`.
      var isSelector = false
      while pos < scalars.count, scalars[pos] == ":" {
        isSelector = true
        name += ":"
        pos += 1
        if let more = identifier() { name += more }
      }
      skipSpace()
      if pos < scalars.count, scalars[pos] == "(" {
        pos += 1
        var arguments: [Node] = []
        skipSpace()
        if pos < scalars.count, scalars[pos] == ")" {
          pos += 1
          return .function(name: name, arguments: [])
        }
        while true {
          guard let argument = expression() else { return nil }
          arguments.append(argument)
          skipSpace()
          guard pos < scalars.count else { return nil }
          if scalars[pos] == "," {
            pos += 1
          } else if scalars[pos] == ")" {
            pos += 1
            return .function(name: name, arguments: arguments)
          } else {
            return nil
          }
        }
      }
      guard !isSelector else {
        pos = start
        return nil
      }
      var components = [name]
      while pos < scalars.count, scalars[pos] == "." {
        pos += 1
        if pos < scalars.count, scalars[pos] == "@" {
          pos += 1
          guard let op = identifier() else { return nil }
          components.append("@" + op)
        } else {
          guard let next = identifier() else { return nil }
          components.append(next)
        }
      }
      return .keyPath(components)
    }

    mutating func stringLiteral(quote: Unicode.Scalar) -> Node? {
      let start = pos
      pos += 1
      while pos < scalars.count, scalars[pos] != quote {
        if scalars[pos] == "\\" { pos += 1 }
        pos += 1
      }
      guard pos < scalars.count else { return nil }
      pos += 1
      // NSExpression prints string constants in double quotes.
      let body = String(String.UnicodeScalarView(scalars[(start + 1)..<(pos - 1)]))
      return .literal("\"" + body + "\"")
    }

    mutating func numberLiteral() -> Node? {
      let start = pos
      if scalars[pos] == "-" { pos += 1 }
      while pos < scalars.count, ("0"..."9").contains(scalars[pos]) || scalars[pos] == "." {
        pos += 1
      }
      guard pos > start else { return nil }
      return .literal(String(String.UnicodeScalarView(scalars[start..<pos])))
    }
  }
}
