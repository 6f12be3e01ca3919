import Foundation
import Testing

/// A regular expression that cannot be decided (past `RegexCache.timeLimit`, or invalid) is an
/// error naming the object and the pattern in every place a regex runs, and the run fails:
/// never a silent "no match" that drops an object or stores a wrong value.
@Suite struct RegexErrorTests {
  /// `(a+)+$` against thirty `a`s and a `b` backtracks for far longer than 0.25 s.
  static let slowName = String(repeating: "a", count: 30) + "b"
  static let slowPattern = "(a+)+$"

  static func store(name: String) -> String {
    #"{"objects": {"Person": [{"id": "p1", "name": "\#(name)", "pets": ["x1"]}], "Pet": [{"id": "x1", "name": "Rex"}]}}"#
  }

  /// The Person mapping with a `<filter>`.
  static func filtered(_ filter: String) -> String {
    Hardening.mapping().replacingOccurrences(
      of: #"source="Person" destination="Person">"#,
      with: #"source="Person" destination="Person"><filter>\#(filter)</filter>"#)
  }

  /// The run's one error, or a recorded issue when it succeeded.
  func failure(
    mapping: String, store: String, destinationModel: String = Hardening.destinationModel, _ label: String
  ) throws -> (code: String, message: String)? {
    let outcome = try runInline(
      sourceModel: Hardening.sourceModel, destinationModel: destinationModel, mapping: mapping, store: store,
      label: label)
    guard case .failure(let failure) = outcome else {
      Issue.record("the run succeeded: \(try outcome.get().text.prefix(300))")
      return nil
    }
    #expect(failure.errors.count == 1, "\(failure.errors)")
    return failure.errors.first.map { ($0.code, $0.message) }
  }

  @Test func attributeExpressionTimeout() throws {
    let e = try #require(
      try failure(
        mapping: Hardening.mapping(label: #"TERNARY($source.name MATCHES "\#(Self.slowPattern)", "y", "n")"#),
        store: Self.store(name: Self.slowName), "regex-attribute"))
    #expect(e.code == "run-regex-timeout")
    #expect(e.message.hasPrefix("Person/1 (created by PersonToPerson from p1): Person.label: "), "\(e.message)")
    #expect(e.message.contains(#""\#(Self.slowPattern)""#), "\(e.message)")
  }

  @Test func attributeExpressionInvalidPatternFromTheStore() throws {
    let e = try #require(
      try failure(
        mapping: Hardening.mapping(label: #"TERNARY("abc" MATCHES $source.name, "y", "n")"#),
        store: Self.store(name: "(ab"), "regex-attribute-invalid"))
    #expect(e.code == "run-regex")
    #expect(e.message.hasPrefix("Person/1 (created by PersonToPerson from p1): Person.label: "), "\(e.message)")
    #expect(e.message.contains(#""(ab""#), "\(e.message)")
  }

  /// The arguments of a policy function (here `$entityPolicy`'s `trim:`) are evaluated for the
  /// object being made, so the error names it too.
  @Test func policyFunctionArgumentTimeout() throws {
    let label = #"FUNCTION($entityPolicy, "trim:", TERNARY($source.name MATCHES "\#(Self.slowPattern)", " y ", " n "))"#
    let e = try #require(
      try failure(
        mapping: Hardening.mapping(label: label), store: Self.store(name: Self.slowName), "regex-policy"))
    #expect(e.code == "run-regex-timeout")
    #expect(e.message.hasPrefix("Person/1 (created by PersonToPerson from p1): Person.label: "), "\(e.message)")
    #expect(e.message.contains(#""\#(Self.slowPattern)""#), "\(e.message)")
  }

  /// A source filter runs before any destination object exists: it names the source object.
  @Test func sourceFilterTimeout() throws {
    let e = try #require(
      try failure(
        mapping: Self.filtered(#"name MATCHES "\#(Self.slowPattern)""#), store: Self.store(name: Self.slowName),
        "regex-filter"))
    #expect(e.code == "run-regex-timeout")
    #expect(e.message.hasPrefix("source object p1: "), "\(e.message)")
    #expect(e.message.contains(#""\#(Self.slowPattern)""#), "\(e.message)")
  }

  @Test func sourceFilterInvalidPatternFromTheStore() throws {
    let e = try #require(
      try failure(
        mapping: Self.filtered(#""abc" MATCHES name"#), store: Self.store(name: "[z"), "regex-filter-invalid"))
    #expect(e.code == "run-regex")
    #expect(e.message.hasPrefix("source object p1: "), "\(e.message)")
    #expect(e.message.contains(#""[z""#), "\(e.message)")
  }

  /// A filter that decides keeps working: the slow pattern on a short string, and a mismatch.
  @Test func decidableFiltersStillFilter() throws {
    let kept = try migrateInline(
      sourceModel: Hardening.sourceModel, destinationModel: Hardening.destinationModel,
      mapping: Self.filtered(#"name MATCHES "\#(Self.slowPattern)""#), store: Self.store(name: "aaa"),
      label: "regex-filter-kept")
    #expect(kept["Person"]?.count == 1)
    let dropped = try migrateInline(
      sourceModel: Hardening.sourceModel, destinationModel: Hardening.destinationModel,
      mapping: Self.filtered(#"name MATCHES "b+""#), store: Self.store(name: "aaa"), label: "regex-filter-dropped")
    #expect(dropped["Person"]?.count ?? 0 == 0)
  }

  /// A model's validation pattern (`regularExpressionString`) that runs out of time is its own
  /// error naming the object and the pattern, not "does not match".
  @Test func validationPatternTimeout() throws {
    let model = Hardening.destinationModel.replacingOccurrences(
      of: #"<attribute name="label" optional="YES" attributeType="String"/>"#,
      with:
        #"<attribute name="label" optional="YES" attributeType="String" regularExpressionString="\#(Self.slowPattern)"/>"#
    )
    #expect(model != Hardening.destinationModel)
    let e = try #require(
      try failure(
        mapping: Hardening.mapping(), store: Self.store(name: Self.slowName), destinationModel: model,
        "regex-validation"))
    #expect(e.code == "run-regex-timeout")
    #expect(e.message.contains("Person/1"), "\(e.message)")
    #expect(e.message.contains(#""\#(Self.slowPattern)""#), "\(e.message)")
  }
}
