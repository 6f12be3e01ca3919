import MapRuntime
import MapSyntax
import MapTestSupport
import Testing

/// Hand-written trees and canonical texts (not derived from the code under test).
@Suite struct ExpressionExactTests {
  typealias B = ExprBuild

  /// Pairs of (input, expected tree, expected canonical print).
  static let expressionCases: [(String, Expression, String)] = [
    ("$source.a.b", B.path(B.v("source"), "a", "b"), "$source.a.b"),
    ("$source", B.v("source"), "$source"),
    ("SELF", B.selfObject, "SELF"),
    ("self.name", B.key("name"), "name"),
    ("name", B.key("name"), "name"),
    ("(a.b).c", B.key("a", "b", "c"), "a.b.c"),
    ("@count", B.key("@count"), "@count"),
    (
      "$source.countries.@distinctUnionOfSets.moods",
      B.path(B.v("source"), "countries", "@distinctUnionOfSets", "moods"),
      "$source.countries.@distinctUnionOfSets.moods"
    ),
    (
      "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\" , \"A\", $source)",
      B.sel(B.v("manager"), "destinationInstancesForEntityMappingNamed:sourceInstances:", B.str("A"), B.v("source")),
      "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\" , \"A\", $source)"
    ),
    (
      "FUNCTION($source,'valueForKey:','tags')",
      B.sel(B.v("source"), "valueForKey:", B.str("tags")),
      "FUNCTION($source, \"valueForKey:\" , \"tags\")"
    ),
    ("function($entityPolicy, \"uuid\")", B.sel(B.v("entityPolicy"), "uuid"), "FUNCTION($entityPolicy, \"uuid\")"),
    (
      "FUNCTION($x, \"y\").name",
      B.path(B.sel(B.v("x"), "y"), "name"),
      "FUNCTION($x, \"y\").name"
    ),
    (
      "($source.temperature - 32.0) / 1.8",
      B.fn("divide:by:", B.fn("from:subtract:", B.path(B.v("source"), "temperature"), B.dbl(32)), B.dbl(1.8)),
      "($source.temperature - 32.0) / 1.8"
    ),
    (
      "$source.timeBudget * 60", B.fn("multiply:by:", B.path(B.v("source"), "timeBudget"), B.int(60)),
      "$source.timeBudget * 60"
    ),
    ("1 + 2 * 3", B.fn("add:to:", B.int(1), B.fn("multiply:by:", B.int(2), B.int(3))), "1 + 2 * 3"),
    ("(1 + 2) * 3", B.fn("multiply:by:", B.fn("add:to:", B.int(1), B.int(2)), B.int(3)), "(1 + 2) * 3"),
    ("a - b - c", B.fn("from:subtract:", B.fn("from:subtract:", B.key("a"), B.key("b")), B.key("c")), "a - b - c"),
    ("(a - b) - c", B.fn("from:subtract:", B.fn("from:subtract:", B.key("a"), B.key("b")), B.key("c")), "a - b - c"),
    ("a - (b - c)", B.fn("from:subtract:", B.key("a"), B.fn("from:subtract:", B.key("b"), B.key("c"))), "a - (b - c)"),
    ("a / b * c", B.fn("multiply:by:", B.fn("divide:by:", B.key("a"), B.key("b")), B.key("c")), "a / b * c"),
    ("2 ** 3 ** 2", B.fn("raise:toPower:", B.fn("raise:toPower:", B.int(2), B.int(3)), B.int(2)), "2 ** 3 ** 2"),
    ("2 ** (3 ** 2)", B.fn("raise:toPower:", B.int(2), B.fn("raise:toPower:", B.int(3), B.int(2))), "2 ** (3 ** 2)"),
    ("2 * 3 ** 2", B.fn("multiply:by:", B.int(2), B.fn("raise:toPower:", B.int(3), B.int(2))), "2 * 3 ** 2"),
    ("-2 ** 2", B.fn("raise:toPower:", B.int(-2), B.int(2)), "-2 ** 2"),
    ("-x", B.fn("from:subtract:", B.int(0), B.key("x")), "0 - x"),
    ("-x ** 2", B.fn("raise:toPower:", B.fn("from:subtract:", B.int(0), B.key("x")), B.int(2)), "(0 - x) ** 2"),
    ("- -5", B.fn("from:subtract:", B.int(0), B.int(-5)), "0 - -5"),
    ("a - -5", B.fn("from:subtract:", B.key("a"), B.int(-5)), "a - -5"),
    ("-(5)", B.fn("from:subtract:", B.int(0), B.int(5)), "0 - 5"),
    ("-5.foo", B.path(B.int(-5), "foo"), "-5.foo"),
    (
      "CAST(-978307200, \"NSDate\")", Expression(.cast(value: B.int(-978_307_200), type: "NSDate")),
      "CAST(-978307200, \"NSDate\")"
    ),
    ("cast(0, 'NSDate')", Expression(.cast(value: B.int(0), type: "NSDate")), "CAST(0, \"NSDate\")"),
    (
      "$source.answers[$index]", B.index(B.path(B.v("source"), "answers"), .expression(B.v("index"))),
      "$source.answers[$index]"
    ),
    ("a[FIRST].b", B.path(B.index(B.key("a"), .first), "b"), "a[FIRST].b"),
    ("a[last]", B.index(B.key("a"), .last), "a[LAST]"),
    ("a[Size]", B.index(B.key("a"), .size), "a[SIZE]"),
    ("a[0][1]", B.index(B.index(B.key("a"), .expression(B.int(0))), .expression(B.int(1))), "a[0][1]"),
    ("SELF[0]", B.index(B.selfObject, .expression(B.int(0))), "SELF[0]"),
    ("uppercase:($source.name)", B.fn("uppercase:", B.path(B.v("source"), "name")), "uppercase:($source.name)"),
    ("now()", B.fn("now"), "now()"),
    ("add:to:(1, 2)", B.fn("add:to:", B.int(1), B.int(2)), "1 + 2"),
    ("modulus:by:(a,b)", B.fn("modulus:by:", B.key("a"), B.key("b")), "modulus:by:(a, b)"),
    (
      "count:({1, 2}).foo", B.path(B.fn("count:", Expression(.aggregate([B.int(1), B.int(2)]))), "foo"),
      "count:({1, 2}).foo"
    ),
    ("'it\\'s'", B.str("it's"), "\"it's\""),
    // Foundation escapes only `"` and `\` and writes control characters as they are.
    ("\"a\\\"b\\\\c\\n\\t\\r\\u00e9\"", B.str("a\"b\\c\n\t\r\u{e9}"), "\"a\\\"b\\\\c\n\t\r\u{e9}\""),
    ("\"\\uD83C\\uDFB8\"", B.str("\u{1F3B8}"), "\"\u{1F3B8}\""),
    ("'\u{1}'", B.str("\u{1}"), "\"\u{1}\""),
    ("0x1F", B.int(31), "31"),
    ("0o17", B.int(15), "15"),
    ("0B101", B.int(5), "5"),
    ("-0x8000000000000000", B.int(.min), "-9223372036854775808"),
    ("-9223372036854775808", B.int(.min), "-9223372036854775808"),
    ("9223372036854775808", B.dec("9223372036854775808"), "9223372036854775808"),
    ("12345678901234567890123", B.dec("12345678901234567890123"), "12345678901234567890123"),
    ("-3.14159265358979323846", B.dec("-3.14159265358979323846"), "-3.14159265358979323846"),
    ("1e3", B.dbl(1000), "1000.0"),
    ("32.0", B.dbl(32), "32.0"),
    ("32.50", B.dbl(32.5), "32.5"),
    ("1e100", B.dbl(1e100), "1e+100"),
    ("0.1", B.dbl(0.1), "0.1"),
    ("1E-5", B.dbl(0.00001), "1e-05"),
    ("1e400", B.dec("1e400"), "1e400"),
    ("007", B.int(7), "7"),
    // Foundation prints the NSNumber of YES / TRUE as 1 and of NO / FALSE as 0: asserted by
    // daydreamboy/HelloProjects, HelloNSPredicate/Tests/Tests_NSPredicate.m
    // (`isMale == yes` → "isMale == 1", `isMale == FALSE` → "isMale == 0").
    ("TRUE", B.bool(true), "1"),
    ("yes", B.bool(true), "1"),
    ("False", B.bool(false), "0"),
    ("no", B.bool(false), "0"),
    ("NULL", .null, "nil"),
    ("nil", .null, "nil"),
    ("#size", B.key("size"), "#size"),
    ("$source.#first.x", B.path(B.v("source"), "first", "x"), "$source.#first.x"),
    ("#plain", B.key("plain"), "plain"),
    ("$in", B.v("in"), "$in"),
    ("{}", Expression(.aggregate([])), "{}"),
    ("{1,'a' ,nil}", Expression(.aggregate([B.int(1), B.str("a"), .null])), "{1, \"a\", nil}"),
    ("$x := 5", Expression(.assignment(variable: "x", value: B.int(5))), "$x := 5"),
    (
      "$x := $y := 1 + 1",
      Expression(
        .assignment(
          variable: "x", value: Expression(.assignment(variable: "y", value: B.fn("add:to:", B.int(1), B.int(1)))))),
      "$x := $y := 1 + 1"
    ),
    (
      "($x := 1) + 2", B.fn("add:to:", Expression(.assignment(variable: "x", value: B.int(1))), B.int(2)),
      "($x := 1) + 2"
    ),
    (
      "a UNION b intersect c",
      Expression(.setOperation(.intersect, Expression(.setOperation(.union, B.key("a"), B.key("b"))), B.key("c"))),
      "a UNION b INTERSECT c"
    ),
    (
      "a MINUS (b UNION c)",
      Expression(.setOperation(.minus, B.key("a"), Expression(.setOperation(.union, B.key("b"), B.key("c"))))),
      "a MINUS (b UNION c)"
    ),
    (
      "a + b UNION c", Expression(.setOperation(.union, B.fn("add:to:", B.key("a"), B.key("b")), B.key("c"))),
      "a + b UNION c"
    ),
    (
      "(a UNION b).@count", B.path(Expression(.setOperation(.union, B.key("a"), B.key("b"))), "@count"),
      "(a UNION b).@count"
    ),
    (
      "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\" , \"Note\", \"image != nil\"), $manager.sourceContext, NO)",
      Expression(
        .fetch(
          request: B.sel(
            B.v("manager"), "fetchRequestForSourceEntityNamed:predicateString:", B.str("Note"), B.str("image != nil")),
          context: B.path(B.v("manager"), "sourceContext"), countOnly: false)),
      "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\" , \"Note\", \"image != nil\"), $manager.sourceContext, NO)"
    ),
    (
      "FETCH(a, b, true)", Expression(.fetch(request: B.key("a"), context: B.key("b"), countOnly: true)),
      "FETCH(a, b, YES)"
    ),
    (
      "TERNARY(a > 1, 'big', 'small')",
      Expression(
        .ternary(condition: B.cmp(B.key("a"), .greaterThan, B.int(1)), then: B.str("big"), else: B.str("small"))),
      "TERNARY(a > 1, \"big\", \"small\")"
    ),
    (
      "SUBQUERY(xs, $x, $x.age > 3 AND $x.name != nil).@count",
      B.path(
        Expression(
          .subquery(
            collection: B.key("xs"), variable: "x",
            predicate: Predicate(
              .and([
                B.cmp(B.path(B.v("x"), "age"), .greaterThan, B.int(3)),
                B.cmp(B.path(B.v("x"), "name"), .notEqual, .null),
              ])))), "@count"),
      "SUBQUERY(xs, $x, $x.age > 3 AND $x.name != nil).@count"
    ),
    ("  $source . name  ", B.path(B.v("source"), "name"), "$source.name"),
    ("naïve.größe", B.key("naïve", "größe"), "naïve.größe"),
  ]

  @Test(arguments: 0..<expressionCases.count)
  func expressionParsesToTreeAndPrintsCanonically(_ i: Int) {
    let (text, tree, canonical) = Self.expressionCases[i]
    guard let parsed = parsedExpression(text) else { return }
    #expect(parsed == tree, "\(text)")
    #expect(parsed.description == canonical, "\(text)")
    #expect(parsedExpression(canonical) == tree.numericBooleans, "\(canonical)")
  }

  static let predicateCases: [(String, Predicate, String)] = [
    ("image != nil", B.cmp(B.key("image"), .notEqual, .null), "image != nil"),
    ("a = b", B.cmp(B.key("a"), .equal, B.key("b")), "a == b"),
    ("a <> b", B.cmp(B.key("a"), .notEqual, B.key("b")), "a != b"),
    ("a =< b", B.cmp(B.key("a"), .lessThanOrEqual, B.key("b")), "a <= b"),
    ("a => b", B.cmp(B.key("a"), .greaterThanOrEqual, B.key("b")), "a >= b"),
    ("a<b", B.cmp(B.key("a"), .lessThan, B.key("b")), "a < b"),
    ("postType == 'page'", B.cmp(B.key("postType"), .equal, B.str("page")), "postType == \"page\""),
    (
      "name beginswith[cd] 'x'",
      B.cmp(B.key("name"), .beginsWith, B.str("x"), .direct, [.caseInsensitive, .diacriticInsensitive]),
      "name BEGINSWITH[cd] \"x\""
    ),
    (
      "name ==[DC] 'x'", B.cmp(B.key("name"), .equal, B.str("x"), .direct, [.caseInsensitive, .diacriticInsensitive]),
      "name ==[cd] \"x\""
    ),
    ("name LIKE [n] 'x*'", B.cmp(B.key("name"), .like, B.str("x*"), .direct, [.normalized]), "name LIKE[n] \"x*\""),
    (
      "topicList.title MATCHES '[a-hA-H].*'", B.cmp(B.key("topicList", "title"), .matches, B.str("[a-hA-H].*")),
      "topicList.title MATCHES \"[a-hA-H].*\""
    ),
    ("SOME xs.y > 3", B.cmp(B.key("xs", "y"), .greaterThan, B.int(3), .any), "ANY xs.y > 3"),
    (
      "all xs.y ENDSWITH[c] 'z'", B.cmp(B.key("xs", "y"), .endsWith, B.str("z"), .all, [.caseInsensitive]),
      "ALL xs.y ENDSWITH[c] \"z\""
    ),
    // Foundation has no NONE modifier: NONE is NOT ANY.
    (
      "NONE tags CONTAINS 'a'", Predicate(.not(B.cmp(B.key("tags"), .contains, B.str("a"), .any))),
      "NOT ANY tags CONTAINS \"a\""
    ),
    ("NOT a == b", Predicate(.not(B.cmp(B.key("a"), .equal, B.key("b")))), "NOT a == b"),
    ("!(a == b)", Predicate(.not(B.cmp(B.key("a"), .equal, B.key("b")))), "NOT a == b"),
    ("not not TRUEPREDICATE", Predicate(.not(Predicate(.not(.truePredicate)))), "NOT (NOT TRUEPREDICATE)"),
    (
      "NOT (a == 1 OR b == 2)",
      Predicate(.not(Predicate(.or([B.cmp(B.key("a"), .equal, B.int(1)), B.cmp(B.key("b"), .equal, B.int(2))])))),
      "NOT (a == 1 OR b == 2)"
    ),
    ("a & 3 == a", B.cmp(B.fn("bitwiseAnd:with:", B.key("a"), B.int(3)), .equal, B.key("a")), "a & 3 == a"),
    (
      "(a | 1) ^ 2 > 0",
      B.cmp(B.fn("bitwiseXor:with:", B.fn("bitwiseOr:with:", B.key("a"), B.int(1)), B.int(2)), .greaterThan, B.int(0)),
      "a | 1 ^ 2 > 0"
    ),
    (
      "1 << 2 + 1 == 8", B.cmp(B.fn("leftshift:by:", B.int(1), B.fn("add:to:", B.int(2), B.int(1))), .equal, B.int(8)),
      "1 << 2 + 1 == 8"
    ),
    (
      "~a >> 1 == -1", B.cmp(B.fn("rightshift:by:", B.fn("onesComplement:", B.key("a")), B.int(1)), .equal, B.int(-1)),
      "~a >> 1 == -1"
    ),
    (
      "~(a + 1).b == 0",
      B.cmp(B.fn("onesComplement:", B.path(B.fn("add:to:", B.key("a"), B.int(1)), "b")), .equal, B.int(0)),
      "~(a + 1).b == 0"
    ),
    ("(~a).b == 0", B.cmp(B.path(B.fn("onesComplement:", B.key("a")), "b"), .equal, B.int(0)), "(~a).b == 0"),
    (
      "a == 1 && (b == 2 || c == 3)",
      Predicate(
        .and([
          B.cmp(B.key("a"), .equal, B.int(1)),
          Predicate(.or([B.cmp(B.key("b"), .equal, B.int(2)), B.cmp(B.key("c"), .equal, B.int(3))])),
        ])),
      "a == 1 AND (b == 2 OR c == 3)"
    ),
    (
      "a == 1 OR b == 2 AND c == 3",
      Predicate(
        .or([
          B.cmp(B.key("a"), .equal, B.int(1)),
          Predicate(.and([B.cmp(B.key("b"), .equal, B.int(2)), B.cmp(B.key("c"), .equal, B.int(3))])),
        ])),
      "a == 1 OR (b == 2 AND c == 3)"
    ),
    // Foundation nests a chain to the left and prints it so; both texts are the one chain.
    (
      "(a == 1 AND b == 2) AND c == 3",
      Predicate(
        .and([
          B.cmp(B.key("a"), .equal, B.int(1)), B.cmp(B.key("b"), .equal, B.int(2)), B.cmp(B.key("c"), .equal, B.int(3)),
        ])),
      "(a == 1 AND b == 2) AND c == 3"
    ),
    (
      "a == 1 AND b == 2 AND c == 3",
      Predicate(
        .and([
          B.cmp(B.key("a"), .equal, B.int(1)), B.cmp(B.key("b"), .equal, B.int(2)), B.cmp(B.key("c"), .equal, B.int(3)),
        ])),
      "(a == 1 AND b == 2) AND c == 3"
    ),
    (
      "a == 1 || b == 2 || c == 3 || d == 4",
      Predicate(.or(["a", "b", "c", "d"].enumerated().map { B.cmp(B.key($1), .equal, B.int(Int64($0 + 1))) })),
      "((a == 1 OR b == 2) OR c == 3) OR d == 4"
    ),
    (
      "a == 1 AND (b == 2 AND c == 3)",
      Predicate(
        .and([
          B.cmp(B.key("a"), .equal, B.int(1)),
          Predicate(.and([B.cmp(B.key("b"), .equal, B.int(2)), B.cmp(B.key("c"), .equal, B.int(3))])),
        ])),
      "a == 1 AND (b == 2 AND c == 3)"
    ),
    (
      "a == 1 AND NOT b == 2",
      Predicate(.and([B.cmp(B.key("a"), .equal, B.int(1)), Predicate(.not(B.cmp(B.key("b"), .equal, B.int(2))))])),
      "a == 1 AND (NOT b == 2)"
    ),
    ("x IN {1,2}", B.cmp(B.key("x"), .in, Expression(.aggregate([B.int(1), B.int(2)]))), "x IN {1, 2}"),
    (
      "age BETWEEN {1, 10}", B.cmp(B.key("age"), .between, Expression(.aggregate([B.int(1), B.int(10)]))),
      "age BETWEEN {1, 10}"
    ),
    ("TRUEPREDICATE", .truePredicate, "TRUEPREDICATE"),
    ("falsepredicate", Predicate(.constant(false)), "FALSEPREDICATE"),
    ("((TRUEPREDICATE))", .truePredicate, "TRUEPREDICATE"),
    (
      "(a + b) * 2 > 3",
      B.cmp(B.fn("multiply:by:", B.fn("add:to:", B.key("a"), B.key("b")), B.int(2)), .greaterThan, B.int(3)),
      "(a + b) * 2 > 3"
    ),
    ("((a)) == 1", B.cmp(B.key("a"), .equal, B.int(1)), "a == 1"),
    ("(a).b[0] == 1", B.cmp(B.index(B.key("a", "b"), .expression(B.int(0))), .equal, B.int(1)), "a.b[0] == 1"),
    ("(a == 1)", B.cmp(B.key("a"), .equal, B.int(1)), "a == 1"),
    ("messageID < 10000", B.cmp(B.key("messageID"), .lessThan, B.int(10000)), "messageID < 10000"),
    ("$x := 1 == 2", B.cmp(Expression(.assignment(variable: "x", value: B.int(1))), .equal, B.int(2)), "$x := 1 == 2"),
    ("SELF IN $set", B.cmp(B.selfObject, .in, B.v("set")), "SELF IN $set"),
    (
      "SUBQUERY(xs, $x, $x.age > 3).@count > 0",
      B.cmp(
        B.path(
          Expression(
            .subquery(
              collection: B.key("xs"), variable: "x", predicate: B.cmp(B.path(B.v("x"), "age"), .greaterThan, B.int(3)))
          ), "@count"), .greaterThan, B.int(0)),
      "SUBQUERY(xs, $x, $x.age > 3).@count > 0"
    ),
  ]

  @Test(arguments: 0..<predicateCases.count)
  func predicateParsesToTreeAndPrintsCanonically(_ i: Int) {
    let (text, tree, canonical) = Self.predicateCases[i]
    guard let parsed = parsedPredicate(text) else { return }
    #expect(parsed == tree, "\(text)")
    #expect(parsed.description == canonical, "\(text)")
    #expect(parsedPredicate(canonical) == tree.numericBooleans, "\(canonical)")
  }

  @Test func spansAreUTF8ByteOffsets() throws {
    // "é" is two bytes: `"é"` covers 0..<4, `x.y` covers 7..<10.
    let e = try ExpressionParser.parseExpression("\"é\" + x.y")
    guard case .function(_, let arguments) = e.kind else {
      Issue.record("not a function: \(e)")
      return
    }
    #expect(e.span == SourceSpan(start: 0, end: 10))
    #expect(arguments[0].span == SourceSpan(start: 0, end: 4))
    #expect(arguments[1].span == SourceSpan(start: 7, end: 10))

    let p = try ExpressionParser.parsePredicate("ANY a.b == -5")
    #expect(p.span == SourceSpan(start: 0, end: 13))
    guard case .comparison(let c) = p.kind else {
      Issue.record("not a comparison: \(p)")
      return
    }
    #expect(c.lhs.span == SourceSpan(start: 4, end: 7))
    #expect(c.rhs.span == SourceSpan(start: 11, end: 13))
  }

  @Test func spansAreIgnoredByEquality() throws {
    let a = try ExpressionParser.parseExpression("$source.name")
    let b = try ExpressionParser.parseExpression("   $source .  name")
    #expect(a == b)
    #expect(a.span != b.span)
    #expect(a.hashValue == b.hashValue)
  }
}
