import Foundation
import Testing

@testable import MapRuntime

/// A manager over an empty source store, for calling functions directly.
func emptyManager(planName: String = "P", mappings: [String] = ["M1", "M2"]) throws -> MigrationManager {
  let thing = EntityDescription(
    name: "Thing", attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)])
  let model = ObjectModel(entities: [thing])
  let plan = MigrationPlan(
    name: planName, mappingPath: "m.xml", sourceModel: model, destinationModel: model,
    sourceEntityHashes: [], destinationEntityHashes: [],
    entityMappings: mappings.map { EntityMapping(name: $0, type: .add, sourceEntity: nil, destinationEntity: "Thing") })
  let graph = ObjectGraph(layout: StoreLayout(model: model), input: nil, isSource: true)
  return try MigrationManager(plan: plan, source: graph)
}

/// Calls a built-in `$entityPolicy` function.
func policyCall(_ m: MigrationManager, _ selector: String, _ args: [Value], frame: Frame = Frame(mapping: 0))
  throws(MigrationError)
  -> Value
{
  guard let v = try BuiltinPolicyFunctions.call(selector, args, frame: frame, manager: m.context) else {
    throw MigrationError("test", "\(selector) is not built in")
  }
  return v
}

/// A readable form of a value for comparisons: strings quoted, dates in ISO 8601.
func show(_ m: MigrationManager, _ v: Value) -> String {
  switch v {
  case .null: return "nil"
  case .string(let t): return "\"\(m.string(t))\""
  case .int(let i): return "int \(i)"
  case .double(let d): return "double \(d)"
  case .bool(let b): return b ? "YES" : "NO"
  case .date(let t): return "date \(ISO8601.format(t))"
  case .array(let a): return "[" + a.map { show(m, $0) }.joined(separator: ", ") + "]"
  default: return m.describe(v)
  }
}

func error(_ body: () throws(MigrationError) -> Value) -> MigrationError? {
  do {
    _ = try body()
    return nil
  } catch { return error }
}

@Suite struct BuiltinPolicyFunctionTests {
  let m: MigrationManager
  init() throws { m = try emptyManager() }

  func call(_ selector: String, _ args: Value...) throws(MigrationError) -> String {
    show(m, try policyCall(m, selector, args))
  }

  @Test func everySelectorIsAnsweredWithItsArity() throws {
    for (selector, arity) in BuiltinPolicyFunctions.arity {
      #expect(selector.filter { $0 == ":" }.count == arity, "\(selector)")
      let args = Array(repeating: Value.null, count: arity)
      #expect(
        (try? BuiltinPolicyFunctions.call(selector, args, frame: Frame(mapping: 0), manager: m.context)) != nil,
        "\(selector)")
    }
    #expect(
      try BuiltinPolicyFunctions.call("noSuchThing:", [.null], frame: Frame(mapping: 0), manager: m.context) == nil)
  }

  @Test func dateFromStringFormats() throws {
    let cases: [(String, String, String)] = [
      ("2017-12-30", "yyyy-MM-dd", "date 2017-12-30T00:00:00Z"),
      ("30.12.2017 23:59:58", "dd.MM.yyyy HH:mm:ss", "date 2017-12-30T23:59:58Z"),
      ("2018-01-02T03:04:05Z", "yyyy-MM-dd'T'HH:mm:ssXXX", "date 2018-01-02T03:04:05Z"),
      ("2018-01-02T03:04:05+02:00", "yyyy-MM-dd'T'HH:mm:ssXXX", "date 2018-01-02T01:04:05Z"),
      ("2018-01-02 03:04:05 -0530", "yyyy-MM-dd HH:mm:ss Z", "date 2018-01-02T08:34:05Z"),
      ("2018-01-02 03:04:05.250", "yyyy-MM-dd HH:mm:ss.SSS", "date 2018-01-02T03:04:05.25Z"),
      ("Jan 5, 2016", "MMM d, yyyy", "date 2016-01-05T00:00:00Z"),
      ("5 september 2016", "d MMMM yyyy", "date 2016-09-05T00:00:00Z"),
      ("Tuesday 05/01/16", "EEEE dd/MM/yy", "date 2016-01-05T00:00:00Z"),
      ("01/02/69 12:30 AM", "MM/dd/yy hh:mm a", "date 1969-01-02T00:30:00Z"),
      ("01/02/49 12:30 PM", "MM/dd/yy hh:mm a", "date 2049-01-02T12:30:00Z"),
      ("1969-07-20", "yyyy-MM-dd", "date 1969-07-20T00:00:00Z"),
      ("It's 2020", "'It''s' yyyy", "date 2020-01-01T00:00:00Z"),
      // Strict: invalid dates and trailing text give nil.
      ("2017-02-29", "yyyy-MM-dd", "nil"),
      ("2016-02-29", "yyyy-MM-dd", "date 2016-02-29T00:00:00Z"),
      ("2017-13-01", "yyyy-MM-dd", "nil"),
      ("2017-12-30x", "yyyy-MM-dd", "nil"),
      ("", "yyyy-MM-dd", "nil"),
      ("13:00 PM", "hh:mm a", "nil"),
    ]
    for (text, format, want) in cases {
      #expect(try call("dateFromString:format:", Value(text), Value(format)) == want, "\(text) with \(format)")
    }
    // nil in, nil out.
    #expect(try call("dateFromString:format:", .null, "yyyy") == "nil")
    #expect(try call("dateFromString:format:", "2017", .null) == "nil")
  }

  @Test func dateFromStringTimeZones() throws {
    let cases: [(String, String)] = [
      ("UTC", "date 2018-01-02T03:04:00Z"), ("GMT", "date 2018-01-02T03:04:00Z"), ("Z", "date 2018-01-02T03:04:00Z"),
      ("+02:00", "date 2018-01-02T01:04:00Z"), ("-0530", "date 2018-01-02T08:34:00Z"),
      ("GMT+2", "date 2018-01-02T01:04:00Z"), ("UTC-03:30", "date 2018-01-02T06:34:00Z"),
      ("", "date 2018-01-02T03:04:00Z"),
    ]
    for (zone, want) in cases {
      #expect(
        try call("dateFromString:format:timeZone:", "2018-01-02 03:04", "yyyy-MM-dd HH:mm", Value(zone)) == want,
        "\(zone)")
    }
    #expect(
      try call("dateFromString:format:timeZone:", "2018-01-02 03:04", "yyyy-MM-dd HH:mm", .null)
        == "date 2018-01-02T03:04:00Z")
    // An offset in the text wins over the zone argument.
    #expect(
      try call("dateFromString:format:timeZone:", "2018-01-02 03:04 Z", "yyyy-MM-dd HH:mm X", "+05:00")
        == "date 2018-01-02T03:04:00Z")
    for bad in ["Europe/Berlin", "+", "+25:00", "+02:75", "+123456", "PST"] {
      let e = error { () throws(MigrationError) in
        try policyCall(m, "dateFromString:format:timeZone:", ["2018", "yyyy", Value(bad)])
      }
      #expect(e?.code == "run-time-zone", "\(bad)")
    }
  }

  @Test func stringFromDate() throws {
    let t = Value.date(536_555_045.5)  // 2018-01-02T03:04:05.5Z, a Tuesday
    #expect(try call("stringFromDate:format:", t, "yyyy-MM-dd") == "\"2018-01-02\"")
    #expect(try call("stringFromDate:format:", t, "EEE, d MMM yyyy HH:mm:ss.SSS") == "\"Tue, 2 Jan 2018 03:04:05.500\"")
    #expect(try call("stringFromDate:format:", t, "EEEE MMMM yy h a") == "\"Tuesday January 18 3 AM\"")
    #expect(try call("stringFromDate:format:", t, "yyyy-MM-dd'T'HH:mm:ssXXX") == "\"2018-01-02T03:04:05Z\"")
    #expect(
      try call("stringFromDate:format:timeZone:", t, "yyyy-MM-dd HH:mm xxx", "+05:30") == "\"2018-01-02 08:34 +05:30\"")
    #expect(try call("stringFromDate:format:timeZone:", t, "HH:mm Z", "-08:00") == "\"19:04 -0800\"")
    #expect(try call("stringFromDate:format:timeZone:", t, "HH:mm ZZZZZ", "-08:00") == "\"19:04 -08:00\"")
    #expect(try call("stringFromDate:format:", t, "HH:mm Z") == "\"03:04 +0000\"")
    #expect(try call("stringFromDate:format:", t, "HH:mm ZZZZZ") == "\"03:04 Z\"")
    #expect(try call("stringFromDate:format:", t, "HH:mm XX") == "\"03:04 Z\"")
    #expect(try call("stringFromDate:format:", t, "HH:mm xx") == "\"03:04 +0000\"")
    let z = error { () throws(MigrationError) in
      try policyCall(m, "stringFromDate:format:timeZone:", [t, "yyyy", "+19:00"])
    }
    #expect(z?.code == "run-time-zone")
    #expect(try call("stringFromDate:format:", .null, "yyyy") == "nil")
    #expect(try call("stringFromDate:format:", t, .null) == "nil")
    let e = error { () throws(MigrationError) in try policyCall(m, "stringFromDate:format:", ["2018", "yyyy"]) }
    #expect(e?.code == "run-type-mismatch")
    let p = error { () throws(MigrationError) in try policyCall(m, "stringFromDate:format:", [t, "yyyy-QQ"]) }
    #expect(p?.code == "run-date-pattern")
    // Round trip through text.
    let back = try policyCall(
      m, "dateFromString:format:",
      [try policyCall(m, "stringFromDate:format:", [t, "yyyy-MM-dd HH:mm:ss.SSS"]), "yyyy-MM-dd HH:mm:ss.SSS"])
    #expect(show(m, back) == show(m, t))
  }

  @Test func numbersAndText() throws {
    #expect(try call("numberFromString:", "42") == "int 42")
    #expect(try call("numberFromString:", " -7 ") == "int -7")
    #expect(try call("numberFromString:", "+5") == "int 5")
    #expect(try call("numberFromString:", "2.5") == "double 2.5")
    #expect(try call("numberFromString:", "1e3") == "double 1000.0")
    #expect(try call("numberFromString:", "12abc") == "nil")
    #expect(try call("numberFromString:", "0x10") == "nil")
    #expect(try call("numberFromString:", "") == "nil")
    #expect(try call("numberFromString:", "inf") == "nil")
    #expect(try call("numberFromString:", .null) == "nil")
    #expect(try call("stringFromNumber:", 42) == "\"42\"")
    #expect(try call("stringFromNumber:", -0.25) == "\"-0.25\"")
    #expect(try call("stringFromNumber:", 17.0) == "\"17\"")
    #expect(try call("stringFromNumber:", 1e20) == "\"100000000000000000000\"")
    #expect(try call("stringFromNumber:", 1.5e-7) == "\"0.00000015\"")
    #expect(try call("stringFromNumber:", true) == "\"1\"")
    #expect(try call("stringFromNumber:", .decimal("12.50")) == "\"12.50\"")
    #expect(try call("stringFromNumber:", .null) == "nil")
    let e = error { () throws(MigrationError) in try policyCall(m, "stringFromNumber:", ["12"]) }
    #expect(e?.code == "run-type-mismatch")
  }

  @Test func splitJoinTrimReplace() throws {
    #expect(try call("split:by:", "a,,b", ",") == "[\"a\", \"\", \"b\"]")
    #expect(try call("split:by:", "a, b", ", ") == "[\"a\", \"b\"]")
    #expect(try call("split:by:", "abc", "") == "[\"abc\"]")
    #expect(try call("split:by:", "", ",") == "[\"\"]")
    #expect(try call("split:by:", .null, ",") == "nil")
    #expect(try call("join:with:", ["a", .null, 2, 2.5], "-") == "\"a-2-2.5\"")
    #expect(try call("join:with:", [], "-") == "\"\"")
    #expect(try call("join:with:", "solo", "-") == "\"solo\"")
    #expect(try call("join:with:", .null, "-") == "nil")
    let e = error { () throws(MigrationError) in try policyCall(m, "join:with:", [[true], "-"]) }
    #expect(e?.code == "run-type-mismatch")
    #expect(try call("trim:", " \t x y \n") == "\"x y\"")
    #expect(try call("trim:", "   ") == "\"\"")
    #expect(try call("trim:", .null) == "nil")
    #expect(try call("replace:with:in:", "a", "b", "banana") == "\"bbnbnb\"")
    #expect(try call("replace:with:in:", "", "x", "abc") == "\"abc\"")
    #expect(try call("replace:with:in:", "é", "e", "café") == "\"cafe\"")
    #expect(try call("replace:with:in:", "a", .null, "abc") == "nil")
    let t = error { () throws(MigrationError) in try policyCall(m, "trim:", [3]) }
    #expect(t?.code == "run-type-mismatch")
  }

  @Test func defaultValueForTakesFallbackThenValue() throws {
    #expect(try call("defaultValue:for:", "fallback", "value") == "\"value\"")
    #expect(try call("defaultValue:for:", "fallback", .null) == "\"fallback\"")
    #expect(try call("defaultValue:for:", 0, "") == "\"\"")  // empty is not nil
    #expect(try call("defaultValue:for:", .null, .null) == "nil")
  }

  @Test func uuidIsDeterministicAndDependsOnObjectAndProperty() throws {
    var frame = Frame(mapping: 0)
    frame.propertyIndex = 0
    let a = try policyCall(m, "uuid", [], frame: frame)
    let again = try policyCall(try emptyManager(), "uuid", [], frame: frame)
    #expect(show(m, a) == show(m, again))
    let text = m.string(a) ?? ""
    #expect(
      text.wholeMatch(of: /[0-9A-F]{8}-[0-9A-F]{4}-5[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}/) != nil, "\(text)")
    var other = frame
    other.propertyIndex = 1
    var indexed = frame
    indexed.index = .int(1)
    var inMapping2 = frame
    inMapping2.mapping = 1
    let variants = [
      try policyCall(m, "uuid", [], frame: other), try policyCall(m, "uuid", [], frame: indexed),
      try policyCall(m, "uuid", [], frame: inMapping2),
      try policyCall(try emptyManager(planName: "Q"), "uuid", [], frame: frame),
    ]
    let texts = Set(([a] + variants).map { show(m, $0) })
    #expect(texts.count == 5)
  }
}

/// Runs the table's implementation of the built-in function `name`, as a linked call does.
func callBuiltin(_ name: String, _ args: [Value], _ m: MigrationContext) throws(MigrationError) -> Value {
  guard let f = BuiltinFunction.named(name) else {
    throw MigrationError("run-unknown-function", "unknown function \(name)")
  }
  return try f.implementation(args, m)
}

@Suite struct ExpressionBuiltinTests {
  let m: MigrationManager
  init() throws { m = try emptyManager() }

  func call(_ name: String, _ args: Value...) throws(MigrationError) -> String {
    show(m, try callBuiltin(name, args, m.context))
  }

  @Test func arithmeticKeepsIntegersAndHandlesEdges() throws {
    #expect(try call("add:to:", 2, 3) == "int 5")
    #expect(try call("add:to:", .int(Int64.max), 1) == "double 9.223372036854776e+18")
    #expect(try call("from:subtract:", 2, 3.5) == "double -1.5")
    // Apple divides two integers as integers (NSExpression "7 / 2" is 3).
    #expect(try call("divide:by:", 7, 2) == "int 3")
    #expect(try call("divide:by:", 7.0, 2) == "double 3.5")
    #expect(
      error { () throws(MigrationError) in try callBuiltin("divide:by:", [7, 0], m.context) }?.code
        == "run-arithmetic")
    #expect(try call("modulus:by:", 7, 3) == "int 1")
    #expect(try call("modulus:by:", .int(Int64.min), -1) == "int 0")  // no overflow trap
    #expect(
      error { () throws(MigrationError) in try callBuiltin("modulus:by:", [7, 0], m.context) }?.code
        == "run-arithmetic")
    #expect(try call("add:to:", .date(0), 86_400) == "date 2001-01-02T00:00:00Z")
    #expect(try call("from:subtract:", .date(100), .date(40)) == "double 60.0")
    #expect(try call("add:to:", .null, 1) == "nil")
  }

  @Test func aggregatesAndStrings() throws {
    #expect(try call("sum:", [1, 2, .null, 3]) == "int 6")
    #expect(try call("average:", [1, 2]) == "double 1.5")
    #expect(try call("count:", [1, .null]) == "int 2")
    #expect(try call("max:", ["b", "a"]) == "\"b\"")
    #expect(try call("median:", [3, 1, 2, 10]) == "double 2.5")
    #expect(try call("uppercase:", "straße") == "\"STRASSE\"")
    #expect(try call("lowercase:", .null) == "nil")
    #expect(try call("length:", "🎸a") == "int 3")  // UTF-16 units
    #expect(try call("now") == "date 2001-01-01T00:00:00Z")
    #expect(try call("abs:", -4) == "int 4")
    #expect(try call("bitwiseAnd:with:", 6, 3) == "int 2")
  }
}
