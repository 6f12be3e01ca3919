import MapRuntime
import Testing

/// `mapc compile` type-checks the constructs added with the whole NSExpression grammar
/// (`castObject:toType:`, BETWEEN, IN, CONTAINS, set operations, bitwise operators) and reports
/// each error at its position (marked 1️⃣), before any run.
@Suite struct TypeCheckerConstructTests {
  typealias Case = InvalidMappingTests.Case
  static let person = InvalidMappingTests.person

  static func filter(_ name: String, _ text: String, _ expected: ExpectedDiagnostic...) -> Case {
    Case(
      name: name, text: TestModels.mapping(person + "<filter>" + text + "</filter></entityMapping>"),
      expected: expected)
  }

  static let cases: [Case] = [
    InvalidMappingTests.body(
      "castObject:toType: of a string to NSDate is checked as CAST",
      person + #"<attribute name="birthday">1️⃣castObject:toType:($source.born, "NSDate")</attribute></entityMapping>"#,
      error("map-cast", at: 1)),
    InvalidMappingTests.body(
      "castObject:toType: to NSString gives a string",
      person + #"<attribute name="name">castObject:toType:($source.age, "NSString")</attribute></entityMapping>"#),
    InvalidMappingTests.body(
      "castObject:toType: with a number as the class name",
      person + #"<attribute name="name">castObject:toType:($source.age, 1️⃣7)</attribute></entityMapping>"#,
      error("map-type-mismatch", at: 1)),
    filter("BETWEEN with a bound of another type", "age BETWEEN {1, 1️⃣'x'}", error("map-type-mismatch", at: 1)),
    filter("BETWEEN with three bounds", "age BETWEEN 1️⃣{1, 2, 3}", error("map-type-mismatch", at: 1)),
    filter("BETWEEN with a number", "age BETWEEN 1️⃣3", error("map-type-mismatch", at: 1)),
    filter("BETWEEN of numbers", "age BETWEEN {1, 2.5}"),
    filter("IN a number", "3 IN 1️⃣age", error("map-type-mismatch", at: 1)),
    filter("IN a string or a collection", "'a' IN name AND 'b' IN {'a', 'b'} AND ANY pets.name IN {'x'}"),
    filter("CONTAINS on a number", "1️⃣age CONTAINS 1", error("map-type-mismatch", at: 1)),
    filter("UNION of a string", "(pets UNION 1️⃣name).@count > 0", error("map-type-mismatch", at: 1)),
    filter("bitwise AND of a string", "1️⃣age &amp; name == 0", error("map-type-mismatch", at: 1)),
    filter("ones' complement of a string", "1️⃣~name == 0", error("map-type-mismatch", at: 1)),
    filter("bitwise operators on integers", "(age &amp; 3 | 4 ^ 1) &lt;&lt; 2 &gt;&gt; 1 == ~age"),
    filter("NONE is NOT ANY, checked as ANY", "1️⃣NONE age == 1", error("map-type-mismatch", at: 1)),
  ]

  @Test(arguments: cases)
  func constructIsChecked(_ c: Case) throws {
    try expectDiagnostics(c.text, c.expected)
  }
}
