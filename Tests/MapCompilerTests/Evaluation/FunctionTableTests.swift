import Foundation
import MapCompiler
import MapRuntime
import MapTestSupport
import Testing

/// One table of built-in functions: the parser, the linker and `Specs/functions.md` agree with
/// `BuiltinFunction.all`, and every format of the evaluation suites survives parse → print → parse.
@Suite struct FunctionTableTests {
  @Test func parserAndRuntimeKnowExactlyTheTable() {
    let names = Set(BuiltinFunction.all.map(\.name))
    #expect(names.count == BuiltinFunction.all.count, "a name is listed twice")
    #expect(ExpressionSyntax.builtinFunctions == names)
    #expect(Set(KnownFunctions.builtins.keys) == names)
    for f in BuiltinFunction.all {
      #expect(f.arity == ExpressionSyntax.arity(ofSelector: f.name), "\(f.name)")
      #expect(KnownFunctions.builtins[f.name] == f.arity)
    }
    #expect(names.isSuperset(of: ["random:", "distanceToLocation:fromLocation:", "randomn:", "now"]))
  }

  @Test func specListsTheTable() throws {
    let url = SharedPaths.packageRoot.appendingPathComponent("Specs/functions.md")
    let spec = try String(contentsOf: url, encoding: .utf8)
    #expect(spec.contains(BuiltinFunction.specTable), "regenerate Specs/functions.md §3 from BuiltinFunction.specTable")
  }

  static var formats: [(String, Bool)] {
    PredicateGuideTests.all.map { ($0.format, true) } + PredicateGuideTests.errors.map { ($0.0, true) }
      + NSExpressionDocumentationTests.all.map { ($0.format, false) }
      + NSExpressionDocumentationTests.wrongKinds.map { ($0.0, false) }
      + BuiltinFunction.all.map { ($0.example, false) }
  }

  @Test func everyTestFormatRoundTrips() throws {
    for (format, isPredicate) in Self.formats {
      if isPredicate {
        let first = try ExpressionParser.parsePredicate(format)
        let again = try ExpressionParser.parsePredicate(first.description)
        #expect(again == first, "\(format) → \(first.description)")
        #expect(again.description == first.description)
      } else {
        let first = try ExpressionParser.parseExpression(format)
        let again = try ExpressionParser.parseExpression(first.description)
        #expect(again == first, "\(format) → \(first.description)")
        #expect(again.description == first.description)
      }
    }
  }
}

extension FunctionTableTests {
  /// With MAPC_WRITE_FUNCTION_SPEC=1, rewrites the generated table of `Specs/functions.md` §3.
  @Test func writeSpecWhenAsked() throws {
    guard ProcessInfo.processInfo.environment["MAPC_WRITE_FUNCTION_SPEC"] == "1" else { return }
    let url = SharedPaths.packageRoot.appendingPathComponent("Specs/functions.md")
    let spec = try String(contentsOf: url, encoding: .utf8)
    let open = "<!-- generated: BuiltinFunction.specTable -->\n"
    let close = "<!-- end generated -->"
    let start = try #require(spec.range(of: open))
    let end = try #require(spec.range(of: close))
    let updated = spec[..<start.upperBound] + BuiltinFunction.specTable + spec[end.lowerBound...]
    try String(updated).write(to: url, atomically: true, encoding: .utf8)
  }
}
