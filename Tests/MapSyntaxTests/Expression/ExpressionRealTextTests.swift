import Foundation
import MapRuntime
import MapSyntax
import MapTestSupport
import Testing

/// Every expression and predicate written in the reference notes, the fixtures' mapping files
/// and the corpus' Xcode mapping models parses, and printing then parsing gives the same tree.
@Suite struct ExpressionRealTextTests {
  /// Expressions quoted in ../shared/reference/core-data-formats.md (§2.3, §2.6, §2.7, §4,
  /// §5.3) and the contract (§3), with `<placeholders>` filled in.
  static let referenceExpressions = [
    // §2.6 archived value expressions
    "$source.color",
    "$source.continent.numericISO3166Code",
    "YES",
    "$source.timeBudget * 60",
    // §2.7 compile rules and the worked example
    "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\" , \"Src\", \"TRUEPREDICATE\"), $manager.sourceContext, NO)",
    "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\" , \"ContinentToContinent\", $source.country.continent)",
    "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\" , \"Note\", \"image != nil\"), $manager.sourceContext, NO)",
    "$source.image",
    "$source.dateCreated",
    "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\" , \"NoteToNote\", $source)",
    "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\" , \"Note\", \"TRUEPREDICATE\"), $manager.sourceContext, NO)",
    // §2.3 relationship key paths
    "$source",
    "$source.country",
    "$source.countries.@distinctUnionOfSets.moods",
    // §4 canonical strings and constructs
    "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\" , \"Recipe\", \"TRUEPREDICATE\"), $manager.sourceContext, NO)",
    "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\" , \"tags\", FUNCTION($source, \"valueForKey:\" , \"tags\"))",
    "FUNCTION($entityPolicy, \"typeForIsSaved:\", $source.big)",
    "$source.amount",
    "($source.temperature - 32.0) / 1.8",
    "modulus:by:(a, b)",
    "SUBQUERY(collection, $x, $x.name == nil)",
    "CAST(value, 'NSDate')",
    "CAST(value, 'NSNumber')",
    "CAST(value, 'NSString')",
    "CAST(value, 'Class')",
    "TERNARY(a > 1, trueExpr, falseExpr)",
    "$var := $source.name",
    "{1, 2}",
    "$source.x.@count",
    "$source.x.@sum.y",
    "$source.x.@avg.y",
    "$source.x.@min.y",
    "$source.x.@max.y",
    "$source.x.@distinctUnionOfObjects.y",
    "$source.x.@unionOfObjects.y",
    "now()",
    "uppercase:($source.name)",
    // §5.3 inferred mappings
    "FUNCTION($source, \"valueForKey:\", \"name\")",
    // contract §3
    "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\", \"Records\", \"date != nil\"), $manager.sourceContext, NO)",
    "$source.questions",
    "FUNCTION($entityPolicy, \"dateFromString:format:\", $source.date, \"yyyy-MM-dd\")",
    "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"RecordsToSectionRecord\", $source)",
    "{1}",
    "CAST(0, \"NSDate\")",
    "FUNCTION($entityPolicy, \"defaultValue:for:\", \"Untitled\", $source.name)",
    "FUNCTION($entityPolicy, \"uuid\")",
  ]

  /// Predicates quoted in the reference notes (§2.3 filter predicates, §2.2 Mioke, §4).
  static let referencePredicates = [
    "image != nil",
    "postType == 'page'",
    "topicList.title MATCHES '[a-hA-H].*'",
    "messageID < 10000",
    "TRUEPREDICATE",
    "FALSEPREDICATE",
    "x IN {1,2}",
    "ANY children.age > 3",
    "age BETWEEN {lo, hi}",
    "a == b AND NOT (c != d) OR e <> f",
    "a = 1 && b => 2 || !(c =< 3)",
    "name BEGINSWITH[c] 'a' AND name ENDSWITH[d] 'z' AND name CONTAINS[cd] 'm' AND name LIKE 'a*z'",
    "ALL xs.y > 0 AND NONE xs.y < 0 AND SOME xs.y == 1",
    "date != nil",
  ]

  @Test func referenceExpressionsRoundTrip() {
    for text in Self.referenceExpressions { checkExpressionRoundTrip(text) }
  }

  @Test func referencePredicatesRoundTrip() {
    for text in Self.referencePredicates { checkPredicateRoundTrip(text) }
  }

  /// The predicate strings inside `fetchRequestForSourceEntityNamed:predicateString:` calls.
  static func embeddedPredicates(_ expression: MapRuntime.Expression) -> [String] {
    var found: [String] = []
    func walk(_ e: MapRuntime.Expression) {
      switch e.kind {
      case .selector(let target, let selector, let arguments):
        if selector == "fetchRequestForSourceEntityNamed:predicateString:", arguments.count == 2,
          case .constant(.string(let predicate)) = arguments[1].kind
        {
          found.append(predicate)
        }
        walk(target)
        arguments.forEach(walk)
      case .fetch(let request, let context, _):
        walk(request)
        walk(context)
      case .function(_, let arguments): arguments.forEach(walk)
      case .keyPath(let base, _): walk(base)
      default: break
      }
    }
    walk(expression)
    return found
  }

  @Test func referenceEmbeddedPredicatesParse() {
    var count = 0
    for text in Self.referenceExpressions {
      guard let e = parsedExpression(text) else { continue }
      for predicate in Self.embeddedPredicates(e) {
        checkPredicateRoundTrip(predicate)
        count += 1
      }
    }
    #expect(count == 5)
  }

  // MARK: - Fixture mapping files

  static func decodeXMLText(_ text: String) -> String {
    text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
      .replacingOccurrences(of: "&amp;", with: "&")
  }

  /// The text of every `<tag …>text</tag>` element of an XML file.
  static func elementTexts(_ tag: String, in xml: String) -> [String] {
    let pattern = "<\(tag)(\\s[^>]*)?>([^<]*)</\(tag)>"
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
    let range = NSRange(xml.startIndex..., in: xml)
    return regex.matches(in: xml, range: range).compactMap { match in
      Range(match.range(at: 2), in: xml).map { decodeXMLText(String(xml[$0])) }
    }
  }

  static func fixtureMappings() -> [URL] {
    guard let fixtures = SharedPaths.fixtures,
      let folders = try? FileManager.default.contentsOfDirectory(
        at: fixtures, includingPropertiesForKeys: nil)
    else { return [] }
    return folders.flatMap { folder in
      ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil))
        ?? []).filter { $0.pathExtension == "xml" }
    }.sorted { $0.path < $1.path }
  }

  @Test(.enabled(if: SharedPaths.fixtures != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func fixtureMappingExpressionsRoundTrip() throws {
    let files = Self.fixtureMappings()
    #expect(files.count >= 2)
    var expressions = 0
    var predicates = 0
    for file in files {
      let xml = try String(contentsOf: file, encoding: .utf8)
      for tag in ["attribute", "relationship", "sourceExpression", "forEach"] {
        for text in Self.elementTexts(tag, in: xml) {
          checkExpressionRoundTrip(text)
          expressions += 1
          if let e = parsedExpression(text) {
            for predicate in Self.embeddedPredicates(e) {
              checkPredicateRoundTrip(predicate)
              predicates += 1
            }
          }
        }
      }
      for text in Self.elementTexts("filter", in: xml) {
        checkPredicateRoundTrip(text)
        predicates += 1
      }
    }
    // diary and songbook alone hold 19 + 17 expressions and one embedded predicate.
    #expect(expressions >= 36)
    #expect(predicates >= 1)
  }

  @Test(.enabled(if: SharedPaths.fixtures != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func fixtureExpressionsHaveExpectedShapes() throws {
    let diary = Self.fixtureMappings().first { $0.lastPathComponent == "SQADMappingModel1_2.xml" }
    guard let diary else {
      Issue.record("diary mapping missing")
      return
    }
    let xml = try String(contentsOf: diary, encoding: .utf8)
    let texts = Self.elementTexts("attribute", in: xml)
    #expect(texts.contains("$source.answers[$index]"))
    let answer = try ExpressionParser.parseExpression("$source.answers[$index]")
    #expect(
      answer
        == ExprBuild.index(ExprBuild.path(ExprBuild.v("source"), "answers"), .expression(ExprBuild.v("index"))))
  }

  // MARK: - Corpus (Xcode mapping models)

  @Test(.enabled(if: SharedPaths.corpus != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func corpusKeyPathsAndFilterPredicatesParse() throws {
    guard let corpus = SharedPaths.corpus,
      let walker = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil)
    else { return }
    var keyPaths = 0
    var filters = 0
    for case let url as URL in walker where url.lastPathComponent == "xcmapping.xml" {
      guard let xml = try? String(contentsOf: url, encoding: .utf8) else { continue }
      for text in Self.stringAttributes("sourcekeypath", in: xml) {
        checkExpressionRoundTrip(text)
        keyPaths += 1
      }
      for text in Self.stringAttributes("sourcefilterpredicatestring", in: xml) {
        checkPredicateRoundTrip(text)
        filters += 1
      }
    }
    #expect(keyPaths >= 5)
    #expect(filters >= 7)
  }

  /// Values of `<attribute name="NAME" type="string">value</attribute>` in Core Data's XML store.
  static func stringAttributes(_ name: String, in xml: String) -> [String] {
    let pattern = "<attribute name=\"\(name)\" type=\"string\">([^<]*)</attribute>"
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
    let range = NSRange(xml.startIndex..., in: xml)
    return regex.matches(in: xml, range: range).compactMap { match in
      Range(match.range(at: 1), in: xml).map { decodeXMLText(String(xml[$0])) }
    }
  }
}
