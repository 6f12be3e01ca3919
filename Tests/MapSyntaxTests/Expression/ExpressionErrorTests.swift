import MapRuntime
import MapSyntax
import Testing

/// Invalid texts: each gives its rule id at the byte offset of the fault.
@Suite struct ExpressionErrorTests {
  typealias Rule = ExpressionSyntaxError.Rule

  struct Case: Sendable, CustomStringConvertible {
    var text: String
    var predicate: Bool
    var rule: Rule
    var offset: Int
    var description: String { "\(predicate ? "predicate" : "expression") \(text.prefix(60))" }
  }

  static func e(_ text: String, _ rule: Rule, _ offset: Int) -> Case {
    Case(text: text, predicate: false, rule: rule, offset: offset)
  }
  static func p(_ text: String, _ rule: Rule, _ offset: Int) -> Case {
    Case(text: text, predicate: true, rule: rule, offset: offset)
  }

  static let cases: [Case] = [
    e("", .empty, 0),
    e("   \n\t", .empty, 0),
    p("", .empty, 0),
    e("'abc", .unterminatedString, 0),
    e("$source.name + \"abc", .unterminatedString, 15),
    e("\"abc\\", .unterminatedString, 4),
    e("\"a\\qb\"", .badEscape, 2),
    e("\"\\u12\"", .badEscape, 1),
    e("\"\\u00\"", .badEscape, 1),
    e("\"\\uD800\"", .badEscape, 1),
    e("\"\\uD800\\u0041\"", .badEscape, 1),
    e("\"\\uDC00\"", .badEscape, 1),
    e("FUNCTION($manager, \"sel:\", $source", .syntax, 34),
    e("FUNCTION($x, \"a:\", 1", .syntax, 20),
    e("(a + b", .syntax, 6),
    e("{1, 2", .syntax, 5),
    e("{1,}", .syntax, 3),
    e("a[1", .syntax, 3),
    e("a[]", .syntax, 2),
    e("a +", .syntax, 3),
    e("a.", .syntax, 2),
    e("$x := ", .syntax, 6),
    e("a ; b", .unexpectedCharacter, 2),
    e("a & ", .syntax, 4),
    e("a | | b", .syntax, 4),
    e("~", .syntax, 1),
    e("a << ", .syntax, 5),
    e("x \u{2208} y", .unexpectedCharacter, 2),
    p("a === b", .syntax, 4),
    p("a == 1 AND AND b == 2", .syntax, 11),
    p("name == %@", .formatArgument, 8),
    p("%K == 1", .formatArgument, 0),
    e("FUNCTION($source, \"valueForKey:\", %d)", .formatArgument, 34),
    e("a b", .trailingInput, 2),
    e("1 2", .trailingInput, 2),
    e("a[1]]", .trailingInput, 4),
    e("a := 1", .trailingInput, 2),
    e("a == b", .trailingInput, 2),
    p("a == b c", .trailingInput, 7),
    p("a == b)", .trailingInput, 6),
    p("a == b == c", .trailingInput, 7),
    e("FUNCTION($source, valueForKey, \"x\")", .functionSelector, 18),
    e("FUNCTION($source, 42)", .functionSelector, 18),
    e("FUNCTION($source, \"not a selector\", 1)", .functionSelector, 18),
    e("FUNCTION($source, \"valueForKey:\")", .arity, 18),
    e("FUNCTION($source, \"uuid\", 1)", .arity, 18),
    e("FUNCTION", .syntax, 8),
    e("FUNCTION($source)", .syntax, 16),
    e("CAST(1, NSDate)", .castType, 8),
    e("CAST(x, \"\")", .castType, 8),
    e("FETCH(a, b, 1)", .syntax, 12),
    e("FETCH(a, b)", .syntax, 10),
    e("foo:(1)", .unknownFunction, 0),
    e("nothing(1)", .unknownFunction, 0),
    e("uppercase(x, y)", .unknownFunction, 0),
    e("uppercase:(1, 2)", .arity, 0),
    e("now(1)", .arity, 0),
    e("uppercase:", .syntax, 10),
    e("a:b", .syntax, 2),
    e("$source.@foo", .unknownKeyword, 8),
    e("@Count", .unknownKeyword, 0),
    p("name ==[x] \"a\"", .unknownKeyword, 8),
    p("name ==[cc] \"a\"", .unknownKeyword, 8),
    p("a <[c] b", .syntax, 3),
    p("name ==[c]", .syntax, 10),
    e("$source.size", .reservedWord, 8),
    e("$source.first.name", .reservedWord, 8),
    e("a[FIRST + 1]", .reservedWord, 2),
    p("size > 3", .reservedWord, 0),
    e("0x", .badNumber, 0),
    e("12abc", .badNumber, 0),
    e("1e", .badNumber, 0),
    e("1e+", .badNumber, 0),
    e("1 + 0b102", .badNumber, 4),
    e("0x8000000000000000", .badNumber, 0),
    e("-0x8000000000000001", .badNumber, 0),
    e("0xFFFFFFFFFFFFFFFFFF", .badNumber, 0),
    p("a", .syntax, 1),
    p("a == 1 AND b", .syntax, 12),
    p("(a) AND b == 1", .syntax, 4),
    p("NOT", .syntax, 3),
    p("NOT a", .syntax, 5),
    p("ANY a", .syntax, 5),
    p("a ==", .syntax, 4),
    p("(a == 1", .syntax, 7),
    e("SUBQUERY(xs, x, x > 1)", .syntax, 13),
    e("SUBQUERY(xs, $x, $x)", .syntax, 19),
    e("TERNARY(a, 1, 2)", .syntax, 9),
    e("$", .syntax, 0),
    e("$ x", .syntax, 0),
    e("#", .syntax, 0),
    e("#1", .syntax, 0),
    e("@", .syntax, 0),
    e("a ANY b", .trailingInput, 2),
    // The examples of Specs/expressions.md §8.
    e("$a + \"abc", .unterminatedString, 5),
    e("FUNCTION($s, \"valueForKey:\")", .arity, 13),
    e("FUNCTION($s, valueForKey, 1)", .functionSelector, 13),
    p("a ==[x] b", .unknownKeyword, 5),
    e(String(repeating: "x", count: ExpressionParser.maxInputBytes + 1), .tooLong, 0),
    // Nesting: the whole text is one level and each "(" one more; the 209th level fails at the
    // token after its "(". In a predicate, the whole text does not count.
    e(String(repeating: "(", count: 10_000) + "a", .tooDeep, 208),
    p(String(repeating: "(", count: 10_000) + "a == 1", .tooDeep, 209),
    // Height: `1` is one level and each `+ 1` one more; the 100th `+` makes the tree too high.
    e("1" + String(repeating: " + 1", count: 150), .tooDeep, 0),
  ]

  @Test(arguments: cases)
  func invalidTextGivesRuleAndOffset(_ c: Case) {
    guard let error = expressionError(c.text, predicate: c.predicate) else { return }
    #expect(error.rule == c.rule, "\(c): \(error)")
    #expect(error.span.start == c.offset, "\(c): \(error)")
    #expect(error.span.start <= error.span.end)
    #expect(error.span.end <= c.text.utf8.count)
    #expect(!error.message.isEmpty)
  }

  @Test func unclosedCallNamesItsOpener() throws {
    guard let error = expressionError("FUNCTION($manager, \"sel:\", $source") else { return }
    #expect(error.message == "expected ')' to close 'FUNCTION(' but found the end of the text")
    #expect(error.notes == [.init("'FUNCTION(' opened here", span: SourceSpan(start: 8, end: 9))])
  }

  @Test func messagesSayWhatToDo() throws {
    #expect(
      expressionError("$source.size")?.message
        == "'size' is a reserved word; write '#size' to use it as a key")
    #expect(expressionError("'abc")?.message == "unterminated string: no closing '")
    #expect(
      expressionError("name == %@", predicate: true)?.message.hasPrefix(
        "format argument '%@' cannot be used here") == true)
    #expect(
      expressionError("FUNCTION($source, \"valueForKey:\")")?.message
        == "selector 'valueForKey:' takes 1 argument but 0 were given")
    #expect(expressionError("uppercase(x, y)")?.message == "unknown function 'uppercase'; did you mean 'uppercase:'?")
    #expect(
      expressionError("a", predicate: true)?.message.hasPrefix(
        "expected a comparison operator (==, !=, <, <=, >, >=") == true)
  }

  @Test func errorBecomesDiagnosticAtFileLocation() throws {
    // The expression starts at line 7, column 20 of a mapping file; it has no newlines.
    guard let error = expressionError("FUNCTION($x, \"a:\", 1") else { return }
    let diagnostic = error.diagnostic { offset in
      MapRuntime.SourceLocation(file: "m.xml", line: 7, column: 20 + offset)
    }
    #expect(diagnostic.id == "expr-syntax")
    #expect(diagnostic.severity == .error)
    #expect(
      diagnostic.description == """
        m.xml:7:40: error: expected ')' to close 'FUNCTION(' but found the end of the text [expr-syntax]
        m.xml:7:28: note: 'FUNCTION(' opened here
        """)
  }

  @Test func everyRuleIdIsStableKebabCase() {
    for rule in Rule.allCases {
      #expect(rule.rawValue.hasPrefix("expr-"))
      #expect(rule.rawValue.allSatisfy { $0.isLowercase || $0 == "-" })
    }
  }
}
