import Foundation
import MapRuntime
import MapSyntax
import MapTestSupport
import Testing

/// One table of built-in functions: the parser, the linker and `Specs/functions.md` agree with
/// `BuiltinFunction.all`, and every format of the evaluation suites survives parse → print → parse.
@Suite struct FunctionTableTests {
  /// The functions of `NSExpression`'s documentation (`expressionForFunction:arguments:`, its
  /// table of supported functions, written out here by hand), plus two that Foundation has but
  /// does not document: `objectFrom:withIndex:` (what `predicateFormat` prints for `a[i]`) and
  /// `canonical:` (private, case and diacritic folding). The table holds exactly these, each once,
  /// and the parser and linker take each with its arity.
  static let documented: Set<String> = [
    "average:", "sum:", "count:", "min:", "max:", "median:", "mode:", "stddev:", "add:to:", "from:subtract:",
    "multiply:by:", "divide:by:", "modulus:by:", "sqrt:", "log:", "ln:", "raise:toPower:", "exp:", "ceiling:", "abs:",
    "trunc:", "random", "random:", "randomn:", "now", "floor:", "uppercase:", "lowercase:", "bitwiseAnd:with:",
    "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:", "onesComplement:", "noindex:",
    "distanceToLocation:fromLocation:", "length:", "castObject:toType:",
  ]

  @Test func theTableIsTheDocumentedOne() {
    let names = BuiltinFunction.all.map(\.name)
    #expect(Set(names).count == names.count, "a name is listed twice")
    #expect(Set(names) == Self.documented.union(["objectFrom:withIndex:", "canonical:"]))
    for f in BuiltinFunction.all {
      // Arity as the selector says: one argument per colon, none for `random` and `now`.
      #expect(f.arity == f.name.filter { $0 == ":" }.count, "\(f.name)")
      #expect(ExpressionSyntax.arity(ofSelector: f.name) == f.arity, "\(f.name)")
    }
    // What the compiler is told the runtime can call is the documented list, by colons.
    #expect(Set(KnownFunctions.builtins.keys) == Self.documented.union(["objectFrom:withIndex:", "canonical:"]))
    for (name, arity) in KnownFunctions.builtins { #expect(arity == name.filter { $0 == ":" }.count, "\(name)") }
  }

  /// `Specs/functions.md` §3 is the table (`MAPC_WRITE_SPECS=1` rewrites it).
  @Test func specListsTheTable() throws {
    let stale = try GeneratedSections.stale(
      "Specs/functions.md", [("BuiltinFunction.specTable", BuiltinFunction.specTable)])
    #expect(stale.isEmpty, "\(GeneratedSections.advice("Specs/functions.md", stale))")
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
        #expect(again == first.numericBooleans, "\(format) → \(first.description)")
        #expect(again.description == first.description)
      } else {
        let first = try ExpressionParser.parseExpression(format)
        let again = try ExpressionParser.parseExpression(first.description)
        #expect(again == first.numericBooleans, "\(format) → \(first.description)")
        #expect(again.description == first.description)
      }
    }
  }
}
