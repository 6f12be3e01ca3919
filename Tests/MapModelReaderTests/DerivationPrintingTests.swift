import MapModelReader
import Testing

/// Derivation expressions are hashed in NSExpression's printed form: parsed, key-path collection
/// operators rewritten as functions (reference notes §3.6), printed canonically.
@Suite struct DerivationPrintingTests {
  @Test(arguments: [
    ("items.@max.date", "max:(items.date)"),
    ("items.@min.date", "min:(items.date)"),
    ("count:(a) + b.@sum.c", "count:(a) + sum:(b.c)"),
    ("  name  ", "name"),
    ("lowercase:( a.@count )", "lowercase:(count:(a))"),
    ("items.@distinctUnionOfObjects.name", "items.@distinctUnionOfObjects.name"),
    ("'single quoted'", "\"single quoted\""),
  ])
  func printedForm(_ text: String, _ printed: String) {
    #expect(VersionHasher.printedDerivationExpression(text) == printed)
  }

  @Test func textThatDoesNotParseIsHashedAsWrittenTrimmed() {
    #expect(VersionHasher.printedDerivationExpression("  a + ") == "a +")
    #expect(VersionHasher.printedDerivationExpression("") == "")
  }
}
