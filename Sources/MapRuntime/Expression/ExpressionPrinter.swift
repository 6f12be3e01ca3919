/// The canonical text of expressions and predicates (`Specs/expressions.md`, §6): Foundation's
/// `predicateFormat` / `description`, except where §9 says otherwise.
///
/// For every canonical tree (one the parser can produce), parsing the printed text gives the
/// same tree back. In expressions, parentheses are written only where precedence needs them; in
/// predicates, around every compound operand of AND, OR and NOT, as Foundation does.
extension Expression: CustomStringConvertible {
  public var description: String {
    var out = ""
    ExpressionPrinter.write(self, minimumLevel: .assignment, to: &out)
    return out
  }
}

extension Predicate: CustomStringConvertible {
  public var description: String {
    var out = ""
    ExpressionPrinter.write(self, to: &out)
    return out
  }
}

extension Comparison: CustomStringConvertible {
  public var description: String {
    var out = ""
    ExpressionPrinter.write(self, to: &out)
    return out
  }
}

/// How tightly an expression binds, loosest first; a node printed where a tighter level is
/// needed gets parentheses.
enum ExpressionLevel: Int, Comparable {
  case assignment = 0
  case setOperation = 1
  case bitwise = 2
  case additive = 3
  case multiplicative = 4
  case power = 5
  /// `~x`.
  case unary = 6
  case primary = 7

  static func < (a: ExpressionLevel, b: ExpressionLevel) -> Bool { a.rawValue < b.rawValue }

  var next: ExpressionLevel { ExpressionLevel(rawValue: rawValue + 1) ?? .primary }

  static func ofArithmetic(_ name: String) -> ExpressionLevel? {
    switch name {
    case "add:to:", "from:subtract:": .additive
    case "multiply:by:", "divide:by:": .multiplicative
    case "raise:toPower:": .power
    case "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:",
      "rightshift:by:":
      .bitwise
    default: nil
    }
  }
}

enum ExpressionPrinter {
  static func level(of expression: Expression) -> ExpressionLevel {
    switch expression.kind {
    case .assignment: return .assignment
    case .setOperation: return .setOperation
    case .function(let name, let arguments):
      if arguments.count == 2, let level = ExpressionLevel.ofArithmetic(name) { return level }
      if arguments.count == 1, name == "onesComplement:" { return .unary }
      return .primary
    default: return .primary
    }
  }

  static func write(_ e: Expression, minimumLevel: ExpressionLevel, to out: inout String) {
    let parenthesize = level(of: e) < minimumLevel
    if parenthesize { out += "(" }
    writeBare(e, to: &out)
    if parenthesize { out += ")" }
  }

  private static func writeBare(_ e: Expression, to out: inout String) {
    switch e.kind {
    case .constant(let constant):
      writeConstant(constant, to: &out)
    case .evaluatedObject:
      out += "SELF"
    case .variable(let name):
      out += "$" + name
    case .keyPath(let base, let components):
      if base.kind != .evaluatedObject {
        write(base, minimumLevel: .primary, to: &out)
        out += "."
      }
      for (i, component) in components.enumerated() {
        if i > 0 { out += "." }
        if ExpressionSyntax.isReservedWord(component) { out += "#" }
        out += component
      }
    case .index(let base, let subscript_):
      write(base, minimumLevel: .primary, to: &out)
      out += "["
      switch subscript_ {
      case .expression(let index): write(index, minimumLevel: .assignment, to: &out)
      case .first: out += "FIRST"
      case .last: out += "LAST"
      case .size: out += "SIZE"
      }
      out += "]"
    case .function(let name, let arguments):
      if arguments.count == 2, let level = ExpressionLevel.ofArithmetic(name),
        let symbol = ExpressionSyntax.arithmeticOperators[name]
      {
        write(arguments[0], minimumLevel: level, to: &out)
        out += " " + symbol + " "
        write(arguments[1], minimumLevel: level.next, to: &out)
      } else if name == "onesComplement:", arguments.count == 1 {
        out += "~"
        write(arguments[0], minimumLevel: .primary, to: &out)
      } else {
        out += name + "("
        writeList(arguments, to: &out)
        out += ")"
      }
    case .selector(let target, let selector, let arguments):
      out += "FUNCTION("
      write(target, minimumLevel: .assignment, to: &out)
      out += ", "
      writeString(selector, to: &out)
      // Foundation writes a space between the selector and the comma before the arguments.
      if !arguments.isEmpty { out += " " }
      for argument in arguments {
        out += ", "
        write(argument, minimumLevel: .assignment, to: &out)
      }
      out += ")"
    case .aggregate(let elements):
      out += "{"
      writeList(elements, to: &out)
      out += "}"
    case .fetch(let request, let context, let countOnly):
      out += "FETCH("
      write(request, minimumLevel: .assignment, to: &out)
      out += ", "
      write(context, minimumLevel: .assignment, to: &out)
      out += countOnly ? ", YES)" : ", NO)"
    case .cast(let value, let type):
      out += "CAST("
      write(value, minimumLevel: .assignment, to: &out)
      out += ", "
      writeString(type, to: &out)
      out += ")"
    case .ternary(let condition, let then, let else_):
      out += "TERNARY("
      write(condition, to: &out)
      out += ", "
      write(then, minimumLevel: .assignment, to: &out)
      out += ", "
      write(else_, minimumLevel: .assignment, to: &out)
      out += ")"
    case .subquery(let collection, let variable, let predicate):
      out += "SUBQUERY("
      write(collection, minimumLevel: .assignment, to: &out)
      out += ", $" + variable + ", "
      write(predicate, to: &out)
      out += ")"
    case .assignment(let variable, let value):
      out += "$" + variable + " := "
      write(value, minimumLevel: .assignment, to: &out)
    case .setOperation(let op, let lhs, let rhs):
      write(lhs, minimumLevel: .setOperation, to: &out)
      out += " " + op.rawValue + " "
      write(rhs, minimumLevel: .additive, to: &out)
    }
  }

  private static func writeList(_ list: [Expression], to out: inout String) {
    for (i, element) in list.enumerated() {
      if i > 0 { out += ", " }
      write(element, minimumLevel: .assignment, to: &out)
    }
  }

  static func writeConstant(_ constant: Expression.Constant, to out: inout String) {
    switch constant {
    case .null: out += "nil"
    // Foundation's `YES` is an NSNumber, which prints as 1 / 0 (`isMale == YES` prints
    // `isMale == 1`); the integer it reads back as compares and converts the same.
    case .bool(let value): out += value ? "1" : "0"
    case .integer(let value): out += String(value)
    case .double(let value): out += value.description
    case .decimal(let text): out += text
    case .string(let text): writeString(text, to: &out)
    }
  }

  /// A double-quoted string literal, as Foundation writes it: `"` and `\` are escaped,
  /// everything else (line feeds and other control characters included) is written as is.
  static func writeString(_ text: String, to out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }

  static func write(_ p: Predicate, to out: inout String) {
    switch p.kind {
    case .constant(let value):
      out += value ? "TRUEPREDICATE" : "FALSEPREDICATE"
    case .not(let operand):
      out += "NOT "
      writeOperand(operand, to: &out)
    case .and(let operands), .or(let operands):
      // Foundation's parser nests a chain to the left and prints `((p AND q) AND r) AND s`;
      // the parser reads that back as the one chain. Longer chains are written without the
      // parentheses, which would otherwise nest as deep as the chain is long.
      let separator = if case .and = p.kind { " AND " } else { " OR " }
      let nested = operands.count <= maximumNestedChain
      if nested { out += String(repeating: "(", count: max(0, operands.count - 2)) }
      for (i, operand) in operands.enumerated() {
        if i > 0 { out += separator }
        writeOperand(operand, to: &out)
        if nested, i > 0, i < operands.count - 1 { out += ")" }
      }
    case .comparison(let comparison):
      write(comparison, to: &out)
    }
  }

  /// The longest AND / OR chain printed with Foundation's parentheses.
  static let maximumNestedChain = 4

  /// An operand of AND, OR or NOT: parenthesized when it is itself one of them, as
  /// Foundation's `NSCompoundPredicate` prints its subpredicates.
  private static func writeOperand(_ p: Predicate, to out: inout String) {
    let compound: Bool
    switch p.kind {
    case .and, .or, .not: compound = true
    case .comparison(let c): compound = c.modifier == .none  // printed as NOT ANY
    case .constant: compound = false
    }
    if compound { out += "(" }
    write(p, to: &out)
    if compound { out += ")" }
  }

  static func write(_ c: Comparison, to out: inout String) {
    switch c.modifier {
    case .direct: break
    case .any, .all: out += c.modifier.rawValue + " "
    // Foundation has no NONE modifier: its parser reads `NONE p` as `NOT ANY p`.
    case .none: out += "NOT ANY "
    }
    write(c.lhs, minimumLevel: .assignment, to: &out)
    out += " " + c.op.rawValue
    if !c.options.isEmpty {
      out += "["
      if c.options.contains(.caseInsensitive) { out += "c" }
      if c.options.contains(.diacriticInsensitive) { out += "d" }
      if c.options.contains(.normalized) { out += "n" }
      out += "]"
    }
    out += " "
    write(c.rhs, minimumLevel: .assignment, to: &out)
  }
}
