import Foundation
import MapRuntime
import Testing

/// Apple's Predicate Programming Guide, "Predicate Format String Syntax", section by section.
/// Expected results are the ones the guide states (or follow from its definitions).
@Suite struct PredicateGuideTests {
  static let person = #"{"name": "Ben", "age": 34, "children": [{"age": 3}, {"age": 12}], "nick": null}"#

  /// "Basic Comparisons": =, ==, >=, =>, <=, =<, >, <, !=, <>, BETWEEN.
  static let basicComparisons: [Row] = [
    Row(format: "age = 34", expected: "true", object: person),
    Row(format: "age == 34.0", expected: "true", object: person),
    Row(format: "age >= 34", expected: "true", object: person),
    Row(format: "age => 35", expected: "false", object: person),
    Row(format: "age <= 34", expected: "true", object: person),
    Row(format: "age =< 33", expected: "false", object: person),
    Row(format: "age > 30", expected: "true", object: person),
    Row(format: "age < 30", expected: "false", object: person),
    Row(format: "age != 34", expected: "false", object: person),
    Row(format: "age <> 35", expected: "true", object: person),
    // The guide's example: "1 BETWEEN { 0 , 33 }".
    Row(format: "1 BETWEEN { 0 , 33 }", expected: "true"),
    Row(format: "34 BETWEEN {0, 33}", expected: "false"),
    Row(format: "33 BETWEEN {0, 33}", expected: "true"),
    // "A comparison with nil matches only nil": firstName = nil.
    Row(format: "nick = nil", expected: "true", object: person),
    Row(format: "name = nil", expected: "false", object: person),
    Row(format: "nick < 3", expected: "false", object: person),
  ]

  /// "Boolean Value Predicates" and "Basic Compound Predicates".
  static let booleanAndCompound: [Row] = [
    Row(format: "TRUEPREDICATE", expected: "true"),
    Row(format: "FALSEPREDICATE", expected: "false"),
    Row(format: "age > 30 AND name == 'Ben'", expected: "true", object: person),
    Row(format: "age > 40 && name == 'Ben'", expected: "false", object: person),
    Row(format: "age > 40 OR name == 'Ben'", expected: "true", object: person),
    Row(format: "age > 40 || name == 'Bob'", expected: "false", object: person),
    Row(format: "NOT age > 40", expected: "true", object: person),
    Row(format: "!(age < 40)", expected: "false", object: person),
  ]

  /// "String Comparisons": BEGINSWITH, CONTAINS, ENDSWITH, LIKE, MATCHES, with [c], [d], [cd].
  /// "String comparisons are, by default, case and diacritic sensitive."
  static let strings: [Row] = [
    Row(format: "SELF BEGINSWITH 'Ca'", expected: "true", object: #""Café""#),
    Row(format: "SELF BEGINSWITH 'ca'", expected: "false", object: #""Café""#),
    Row(format: "SELF BEGINSWITH[c] 'ca'", expected: "true", object: #""Café""#),
    Row(format: "SELF ENDSWITH 'fe'", expected: "false", object: #""Café""#),
    Row(format: "SELF ENDSWITH[d] 'fe'", expected: "true", object: #""Café""#),
    Row(format: "SELF CONTAINS[cd] 'AFE'", expected: "true", object: #""Café""#),
    Row(format: "SELF CONTAINS 'x'", expected: "false", object: #""Café""#),
    // LIKE: "? matches 1 character and * matches 0 or more characters".
    Row(format: "SELF LIKE 'C?f*'", expected: "true", object: #""Café au lait""#),
    Row(format: "SELF LIKE 'C?f'", expected: "false", object: #""Café""#),
    Row(format: "SELF LIKE[c] 'c*'", expected: "true", object: #""Café""#),
    Row(format: #"SELF LIKE 'a\\*b'"#, expected: "true", object: #""a*b""#),
    Row(format: #"SELF LIKE 'a\\*b'"#, expected: "false", object: #""axxb""#),
    // MATCHES: ICU regular expression, the whole string.
    Row(format: "SELF MATCHES '[a-c]+'", expected: "true", object: #""abcab""#),
    Row(format: "SELF MATCHES '[a-c]+'", expected: "false", object: #""abcd""#),
    Row(format: "SELF MATCHES[c] 'ABC'", expected: "true", object: #""abc""#),
    Row(format: "nick BEGINSWITH 'a'", expected: "false", object: person),
  ]

  /// "Aggregate Operations": ANY, SOME, ALL, NONE, IN, array[index], [FIRST], [LAST], [SIZE].
  static let aggregates: [Row] = [
    Row(format: "ANY children.age < 18", expected: "true", object: person),
    Row(format: "SOME children.age > 12", expected: "false", object: person),
    Row(format: "ALL children.age < 18", expected: "true", object: person),
    Row(format: "ALL children.age < 10", expected: "false", object: person),
    Row(format: "NONE children.age > 12", expected: "true", object: person),
    // The guide's example: name IN { 'Ben', 'Melissa', 'Nick' }.
    Row(format: "name IN { 'Ben', 'Melissa', 'Nick' }", expected: "true", object: person),
    Row(format: "name IN[c] { 'ben' }", expected: "true", object: person),
    Row(format: "'en' IN name", expected: "true", object: person),
    Row(format: "children[0].age == 3", expected: "true", object: person),
    Row(format: "children[FIRST].age == 3", expected: "true", object: person),
    Row(format: "children[LAST].age == 12", expected: "true", object: person),
    Row(format: "children[SIZE] == 2", expected: "true", object: person),
    Row(format: "children[5] == nil", expected: "true", object: person),
    Row(format: "children.@count == 2", expected: "true", object: person),
    Row(format: "children.@sum.age == 15", expected: "true", object: person),
    Row(format: "children.@avg.age == 7.5", expected: "true", object: person),
    Row(format: "children.@max.age == 12", expected: "true", object: person),
    Row(format: "SUBQUERY(children, $c, $c.age > 10).@count == 1", expected: "true", object: person),
    Row(format: "{1, 2} CONTAINS 2", expected: "true"),
  ]

  /// "Identifiers", "Literals", "Reserved Words".
  static let literals: [Row] = [
    Row(format: "TRUE == YES", expected: "true"),
    Row(format: "FALSE == NO", expected: "true"),
    Row(format: "NULL == NIL", expected: "true"),
    Row(format: "SELF == 'text'", expected: "true", object: #""text""#),
    Row(format: #"SELF == "text""#, expected: "true", object: #""text""#),
    Row(format: "{ 'comma', 'separated' } == SELF", expected: "true", object: #"["comma", "separated"]"#),
    Row(format: "27 == 27.0 AND 2.71828 > 2.7 AND 19.75 < 20", expected: "true"),
    Row(format: "9.2e-5 == 0.000092", expected: "true"),
    Row(format: "0x1F == 31 AND 0o17 == 15 AND 0b101 == 5", expected: "true"),
    Row(format: "#size == 3", expected: "true", object: #"{"size": 3}"#),
    Row(format: "$x == 3", expected: "true"),
  ]

  static let all = basicComparisons + booleanAndCompound + strings + aggregates + literals

  @Test(arguments: basicComparisons) func basicComparison(_ row: Row) throws { try check(row) }
  @Test(arguments: booleanAndCompound) func booleanAndCompoundPredicate(_ row: Row) throws { try check(row) }
  @Test(arguments: strings) func stringComparison(_ row: Row) throws { try check(row) }
  @Test(arguments: aggregates) func aggregateOperation(_ row: Row) throws { try check(row) }
  @Test(arguments: literals) func literal(_ row: Row) throws { try check(row) }

  private func check(_ row: Row) throws {
    let holds = try Eval.holds(row.format, object: row.object, variables: #"{"x": 3}"#)
    #expect(String(holds) == row.expected, "\(row.format)")
  }

  /// Foundation raises where these do; mapc reports `run-type-mismatch` and friends.
  static let errors: [(String, String, String)] = [
    ("SELF BEGINSWITH 'a'", "5", "run-type-mismatch"),
    ("SELF LIKE 1", #""a""#, "run-type-mismatch"),
    ("SELF MATCHES 'a'", "5", "run-type-mismatch"),
    ("SELF CONTAINS 1", #""a1""#, "run-type-mismatch"),
    ("5 IN 'abc'", "null", "run-type-mismatch"),
    ("SELF < 'a'", "5", "run-type-mismatch"),
    ("1 BETWEEN {0}", "null", "run-type-mismatch"),
    ("SELF MATCHES '('", #""a""#, "run-regex"),
    ("$missing == 1", "null", "run-unknown-variable"),
    ("ANY SELF.age > 'x'", #"[{"age": 1}]"#, "run-type-mismatch"),
  ]

  @Test func operatorsRaiseOnWrongTypes() throws {
    for (format, object, id) in Self.errors {
      #expect(try Eval.error(format, predicate: true, object: object)?.code == id, "\(format)")
    }
  }

  @Test func catastrophicMatchesStopsWithinASecond() throws {
    let start = Date()
    let error = try Eval.error(
      "SELF MATCHES '(a+)+b'", predicate: true, object: "\"" + String(repeating: "a", count: 10_000) + "\"")
    #expect(error?.code == "run-regex-timeout")
    #expect(Date().timeIntervalSince(start) < 1)
  }

  @Test func errorsCarryTheColumnOfTheComparison() throws {
    let error = try Eval.error("age > 1 AND name BEGINSWITH 1", predicate: true, object: Self.person)
    #expect(error?.location?.column == 13)
  }
}
