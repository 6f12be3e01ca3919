import Foundation
import MapJSON
import MapRuntime
import MapSyntax
import Testing

/// Results that other projects' test suites assert on Apple's Foundation (issue 30). Each row
/// names the project and file whose assertion gives the expected value; Foundation computed it,
/// not mapc. Where the test builds the value with `%@`, the row writes the constant in the text.
@Suite struct FoundationAssertedTests {
  /// daydreamboy/HelloProjects, HelloNSPredicate/Tests/Tests_NSPredicate.m
  static let helloPredicate = "daydreamboy/HelloProjects HelloNSPredicate/Tests/Tests_NSPredicate.m"
  /// daydreamboy/HelloProjects, HelloNSExpression/Tests/Test_NSExpression.m
  static let helloExpression = "daydreamboy/HelloProjects HelloNSExpression/Tests/Test_NSExpression.m"
  /// mapbox/mapbox-gl-native, platform/darwin/test/MGLExpressionTests.mm
  static let mapbox = "mapbox/mapbox-gl-native platform/darwin/test/MGLExpressionTests.mm"
  /// ABridoux/SafeFetching, Tests (CompoundPredicateTests, BooleanPredicateTests)
  static let safeFetching = "ABridoux/SafeFetching CompoundPredicateTests / BooleanPredicateTests"
  /// yusuga/TestNSPredicate, TestNSPredicateTests/TestNSPredicateTests.m
  static let testNSPredicate = "yusuga/TestNSPredicate TestNSPredicateTests/TestNSPredicateTests.m"
  /// pixelglow/PredicatePal, PredicatePalTests/ExpressionTests.swift
  static let predicatePal = "pixelglow/PredicatePal PredicatePalTests/ExpressionTests.swift"

  // MARK: Canonical printing

  /// `predicateFormat` as asserted: Boolean constants print as the NSNumber 1 / 0.
  static let printed: [(format: String, predicateFormat: String, source: String)] = [
    ("isMale == YES", "isMale == 1", helloPredicate),
    ("isMale == NO", "isMale == 0", helloPredicate),
    ("isMale == yes", "isMale == 1", helloPredicate),
    ("isMale == no", "isMale == 0", helloPredicate),
    ("isMale == true", "isMale == 1", helloPredicate),
    ("isMale == FALSE", "isMale == 0", helloPredicate),
    ("SELF like[c] 'prefix*suffix'", #"SELF LIKE[c] "prefix*suffix""#, helloPredicate),
    ("'%K' like '%@'", #""%K" LIKE "%@""#, helloPredicate),
    (#"isDownloaded == YES OR name == "Toto""#, #"isDownloaded == 1 OR name == "Toto""#, safeFetching),
    (#"name == "Toto" AND isDownloaded == NO"#, #"name == "Toto" AND isDownloaded == 0"#, safeFetching),
    (#"NOT property IN {"Riri", "Fifi"}"#, #"NOT property IN {"Riri", "Fifi"}"#, safeFetching),
    ("stubForcedOption & 3 == 3", "stubForcedOption & 3 == 3", safeFetching),
  ]

  @Test(arguments: 0..<printed.count)
  func predicateFormatIsFoundations(_ i: Int) throws {
    let row = Self.printed[i]
    let parsed = try ExpressionParser.parsePredicate(row.format)
    #expect(parsed.description == row.predicateFormat, "\(row.source)")
    // The printed text reads back to a predicate that prints the same and evaluates the same.
    let again = try ExpressionParser.parsePredicate(parsed.description)
    #expect(again.description == row.predicateFormat)
  }

  /// A Boolean printed as 1 still matches a BOOL property (the test evaluates both forms).
  @Test func printedBooleansEvaluateLikeTheOriginal() throws {
    for (format, value, expected) in [
      ("isMale == YES", true, true), ("isMale == 1", true, true), ("isMale == NO", false, true),
      ("isMale == 0", true, false),
    ] {
      #expect(
        try Eval.holds(format, object: #"{"isMale": \#(value)}"#) == expected, "\(format) (\(Self.helloPredicate))")
    }
  }

  // MARK: Built-ins without their colon

  /// mapbox's MGLExpressionTests evaluate these with `expressionValueWithObject:nil context:nil`.
  static let colonless: [(format: String, value: String)] = [
    ("average({1, 2, 2, 3, 4, 7, 9})", "4"),
    ("sum({1, 2, 2, 3, 4, 7, 9})", "28"),
    ("count({1, 2, 2, 3, 4, 7, 9})", "7"),
    ("min({1, 2, 2, 3, 4, 7, 9})", "1"),
    ("max({1, 2, 2, 3, 4, 7, 9})", "9"),
    ("noindex(513)", "513"),
  ]

  @Test(arguments: 0..<colonless.count)
  func builtinsWithoutTheirColon(_ i: Int) throws {
    let row = Self.colonless[i]
    #expect(try Eval.value(row.format) == row.value, "\(row.format) (\(Self.mapbox))")
  }

  /// PredicatePal finds `NSExpression(format: "sqrt(age)")` equal to the function expression
  /// for `sqrt:`: the colonless call is the same tree.
  @Test func colonlessCallsAreTheColonFunctions() throws {
    for name in [
      "sqrt", "log", "ln", "exp", "floor", "ceiling", "abs", "trunc", "sum", "count", "min", "max", "average",
      "median", "mode", "stddev", "uppercase", "lowercase", "length", "randomn",
    ] {
      let colonless = try ExpressionParser.parseExpression("\(name)(age)")
      #expect(colonless == (try ExpressionParser.parseExpression("\(name):(age)")), "\(name) (\(Self.predicatePal))")
      #expect(colonless.description == "\(name):(age)")
    }
  }

  // MARK: nil raises

  /// Test_NSExpression.m `test_expressionWithFormat_exception`: XCTAssertThrows for a missing
  /// operand, 14.845 when both are there.
  @Test func arithmeticOnNilRaises() throws {
    #expect(try Eval.error("12.845 * x + (y)")?.code == "run-nil-arithmetic", "\(Self.helloExpression)")
    #expect(try Eval.error("12.845 * x + (y)", object: #"{"x": 1}"#)?.code == "run-nil-arithmetic")
    #expect(try Eval.value("12.845 * x + (y)", object: #"{"x": 1, "y": 2}"#) == "14.845")
    #expect(try Eval.value("12.845 * x.a + (y.b)", object: #"{"x": {"a": 1}, "y": {"b": 2}}"#) == "14.845")
    #expect(try Eval.value("12.845 * x[0] + x[1]", object: #"{"x": [1, 2]}"#) == "14.845")
    for format in ["missing - 1", "2 / missing", "missing ** 2", "modulus:by:(missing, 2)"] {
      #expect(try Eval.error(format, object: "{}")?.code == "run-nil-arithmetic", "\(format)")
    }
  }

  /// Test_NSExpression.m: `12.845 * x[a] + (y.b)` with no `a` throws (indexing with nil), and
  /// indexing a missing collection raises too.
  @Test func indexingWithNilOrIntoNilRaises() throws {
    #expect(
      try Eval.error("12.845 * x[a] + (y.b)", object: #"{"x": {"a": 1}, "y": {"b": 2}}"#)?.code == "run-nil-index",
      "\(Self.helloExpression)")
    #expect(try Eval.error("missing[0]", object: "{}")?.code == "run-nil-index")
    #expect(try Eval.error("missing[LAST]", object: "{}")?.code == "run-nil-index")
  }

  // MARK: Variables as keys

  /// Tests_NSPredicate.m `test_evaluateWithObject_substitutionVariables` and `test_exception`.
  @Test func variablesAsKeys() throws {
    let variables = #"{"a": {"a": "ABC"}, "b": "a"}"#
    #expect(try Eval.holds("$a.$b == 'ABC'", variables: variables), "\(Self.helloPredicate)")
    #expect(try Eval.holds("$a[$b] == 'ABC'", variables: variables))
    #expect(try ExpressionParser.parseExpression("$a.$b").description == "$a.$b")
    // `// Exception`: a number is no key.
    #expect(
      try Eval.error("$a.$b > 1", predicate: true, variables: #"{"a": [2], "b": 0}"#)?.code == "run-type-mismatch")
  }

  // MARK: Collections

  static let authors = #"""
    [{"name": "Herbert", "books": {"$set": [{"year": 1990}, {"year": 2000}, {"year": 2010}]}},
     {"name": "Anne", "books": {"$set": [{"year": 1991}]}},
     {"name": "Juanito", "books": {"$set": [{"year": 2001}]}}]
    """#

  /// How many elements of `array` (JSON) the predicate keeps, as `filteredArrayUsingPredicate:`.
  static func kept(_ format: String, _ array: String) throws -> Int {
    let evaluator = ExpressionEvaluator(now: Eval.now)
    return try evaluator.filter(ValueJSON.parseTagged(array), by: ExpressionParser.parsePredicate(format)).count
  }

  /// TestNSPredicateTests.m: authors whose `books` are NSSets.
  @Test func setsInAnyInAndSubquery() throws {
    let source = Self.testNSPredicate
    #expect(try Self.kept("ANY books.year IN {2000, 2001}", Self.authors) == 2, "testIN2 (\(source))")
    #expect(
      try Self.kept("SUBQUERY(books, $s, $s.year > 2000 AND $s.year < 2010).@count > 0", Self.authors) == 1,
      "testSUBQUERY")
    #expect(try Self.kept("name IN {'Anne', 'Juanito'}", Self.authors) == 2, "testIN1")
    // testANY / testALL / testNONE check the result against loops over the same data.
    #expect(try Self.kept("ANY books.year > 1999", Self.authors) == 2)
    #expect(try Self.kept("ALL books.year > 1999", Self.authors) == 1)
    #expect(try Self.kept("NONE books.year > 1999", Self.authors) == 1)
  }

  /// Apple's Predicate Programming Guide, "Aggregate Operations": `IN` holds when the left side
  /// is an element of the collection on the right (an array of strings here).
  @Test func inOverAnArrayOfStrings() throws {
    #expect(try Eval.holds(#""bc" IN self.patterns"#, object: #"{"patterns": ["ab", "bc"]}"#))
    #expect(try !Eval.holds(#""b" IN self.patterns"#, object: #"{"patterns": ["ab", "bc"]}"#))
    #expect(try Eval.holds(#""bc" IN patterns"#, object: #"{"patterns": {"$set": ["ab", "bc"]}}"#))
  }

  // MARK: Methods on values

  /// Test_NSExpression.m and MGLExpressionTests.mm: Foundation's own methods.
  @Test func methodsFoundationHas() throws {
    #expect(try Eval.value("FUNCTION('a', 'uppercaseString')") == #""A""#, "\(Self.helloExpression)")
    #expect(try Eval.value("FUNCTION(a, 'uppercase')", object: "{}") == "null")
    #expect(try Eval.value("FUNCTION(a, 'name')", object: #"{"a": {"name": "Lily"}}"#) == #""Lily""#)
    #expect(
      try Eval.value("FUNCTION('Old', 'stringByAppendingString:', 'MacDonald')") == #""OldMacDonald""#,
      "\(Self.mapbox)")
  }

  /// `FUNCTION(3, 'factorial')` needs the test's NSNumber category: the error says so and how
  /// a policy provides the method.
  @Test func categoryMethodsAreAnErrorThatSaysWhatToDo() throws {
    let error = try #require(try Eval.error("FUNCTION(3, 'factorial')"))
    #expect(error.code == "run-unknown-selector")
    #expect(error.message.contains("has no method factorial"))
    #expect(error.message.contains(#"FUNCTION($entityPolicy, "factorial:", value)"#))
  }
}
