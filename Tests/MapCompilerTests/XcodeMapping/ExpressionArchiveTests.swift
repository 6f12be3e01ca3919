import Foundation
import MapArchives
import MapCompiler
import MapRuntime
import MapSyntax
import MapTestSupport
import Testing

/// One archived blob of a corpus mapping model.
private struct CorpusBlob {
  /// The mapping file, relative to the corpus.
  var file: String
  /// `valueexpressiondata` or `userinfodata`.
  var kind: String
  var bytes: [UInt8]

  static func all() throws -> [CorpusBlob] {
    guard let corpus = SharedPaths.corpus else { return [] }
    let files = SharedPaths.corpusMappingModelFiles
    var result: [CorpusBlob] = []
    for url in files {
      let document = try XMLReader.parse(contentsOf: url.path)
      let relative = String(url.path.dropFirst(corpus.path.count + 1))
      for object in document.root.elements(named: "object") {
        for a in object.elements(named: "attribute") {
          guard let name = a[attribute: "name"], name == "valueexpressiondata" || name == "userinfodata" else {
            continue
          }
          let data = try #require(Data(base64Encoded: a.text, options: .ignoreUnknownCharacters), "\(relative) \(name)")
          result.append(CorpusBlob(file: relative, kind: name, bytes: Array(data)))
        }
      }
    }
    return result
  }
}

@Suite struct ExpressionArchiveTests {
  /// What each corpus archive holds, read off the archives with Python's plistlib (and, for the
  /// expressions also quoted there, ../shared/reference/core-data-formats.md §2.6): per mapping
  /// file, the sorted printed forms of its value expressions and its user info.
  static let expected: [String: [String]] = [
    "JohnEstropia/CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo/Advanced.EvolutionDemo.V1.FromV2.xcmappingmodel/xcmapping.xml":
      ["$source.numberOfFlippers"],
    "JohnEstropia/CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo/Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel/xcmapping.xml":
      // The archive holds the Boolean YES, which Foundation prints as 1 (Specs/expressions.md §6).
      ["$source.numberOfFlagella", "1"],
    // Decoded with plistlib, following the UIDs from $top.root: two NSFunctionExpressions on
    // $manager (selector destinationInstancesForEntityMappingNamed:sourceInstances:, arguments the
    // constant mapping name and the key path $source.fileMessage / .fileAttachment), printed as
    // the reference §2.6 quotes Apple's form; three NSConstantValueExpressions, 0, 1 and 0.
    // apptentive's other four mapping models hold no archives.
    "apptentive/apptentive-ios/Apptentive/Apptentive/Model/ATDataModel v4 to v5.xcmappingmodel/xcmapping.xml": [
      "0", "0", "1",
      #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "ATFileAttachmentToATFileAttachment", $source.fileAttachment)"#,
      #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "ATFileMessageToATMessage", $source.fileMessage)"#,
    ],
    "billmoss/CoreDataMigrations-DefaultMigration/CoreDataMigration/Model1ToModel2.xcmappingmodel/xcmapping.xml":
      ["$source.content.length * 0.2"],
    "billmoss/CoreDataMigrations-DefaultMigration/CoreDataMigration/Model3ToModel4.xcmappingmodel/xcmapping.xml":
      ["$source.timeBudget * 60"],
    "billmoss/CoreDataMigrations-HybridMigration/CoreDataMigration/Model1ToModel2.xcmappingmodel/xcmapping.xml":
      ["$source.content.length * 0.2"],
    "billmoss/CoreDataMigrations-HybridMigration/CoreDataMigration/Model3ToModel4.xcmappingmodel/xcmapping.xml":
      ["$source.timeBudget * 60"],
    "jdspoone/CoreDataMigrationExample/CoreDataMigration/v1.1-to-v1.2.xcmappingmodel/xcmapping.xml":
      ["userInfo sourceVersion=v1.1"],
    "jdspoone/CoreDataMigrationExample/CoreDataMigration/v1.2-to-v1.3.xcmappingmodel/xcmapping.xml":
      ["userInfo sourceVersion=v1.2", "userInfo sourceVersion=v1.2"],
    "objcio/core-data/Migrations/Migrations/Moody 4-Moody 5.xcmappingmodel/xcmapping.xml":
      ["$source.continent.numericISO3166Code"],
    "wibosco/CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Migration/Mappings/Migration1to2.xcmappingmodel/xcmapping.xml":
      ["$source.color"],
  ]

  private static func printed(_ blob: CorpusBlob) throws -> String {
    if blob.kind == "userinfodata" {
      let info = try ExpressionArchiveReader.userInfo(blob.bytes)
      return "userInfo " + info.entries.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }
    return try ExpressionArchiveReader.expression(blob.bytes).description
  }

  /// Every archive in the corpus decodes. Each mapping model recorded in
  /// `XcodeCorpusTests.expectedFindings` holds exactly the archives listed here (none when it is
  /// not listed); a mapping model added to the corpus later only has to decode until recorded.
  @Test(.enabled(if: SharedPaths.corpus != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func everyCorpusArchiveDecodesToItsKnownText() throws {
    var found: [String: [String]] = [:]
    for blob in try CorpusBlob.all() { found[blob.file, default: []].append(try Self.printed(blob)) }
    let recorded = Set(XcodeCorpusTests.expectedFindings.keys.map { $0 + "/xcmapping.xml" })
    #expect(Set(Self.expected.keys).subtracting(recorded).isEmpty, "listed here, not recorded")
    for file in recorded.sorted() {
      #expect((found[file] ?? []).sorted() == Self.expected[file] ?? [], "\(file)")
    }
  }

  @Test(.enabled(if: SharedPaths.corpus != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func corpusExpressionsAreTheTreesTheParserGives() throws {
    for blob in try CorpusBlob.all() where blob.kind == "valueexpressiondata" {
      let tree = try ExpressionArchiveReader.expression(blob.bytes)
      #expect(try ExpressionParser.parseExpression(tree.description) == tree.numericBooleans, "\(blob.file)")
    }
  }

  /// Re-archiving gives the same objects, classes, keys (in order) and values.
  @Test(.enabled(if: SharedPaths.corpus != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func reArchivingACorpusArchiveGivesTheSameArchive() throws {
    for blob in try CorpusBlob.all() {
      let rewritten: [UInt8] =
        blob.kind == "userinfodata"
        ? ExpressionArchiveWriter.archive(try ExpressionArchiveReader.userInfo(blob.bytes))
        : ExpressionArchiveWriter.archive(try ExpressionArchiveReader.expression(blob.bytes))
      let original = try BinaryPropertyListReader.read(blob.bytes)
      let again = try BinaryPropertyListReader.read(rewritten)
      #expect(again["$objects"] == original["$objects"], "\(blob.file) \(blob.kind)")
      #expect(again["$top"] == original["$top"], "\(blob.file) \(blob.kind)")
      #expect(again["$archiver"] == original["$archiver"])
      #expect(again["$version"] == original["$version"])
    }
  }

  static let expressionTexts = [
    "$source.color", "name", "SELF", "$source", "nil", "YES", "NO", "42", "-7", "3.25", "-0.5",
    "\"text with \\\"quotes\\\"\"", "12345678901234567890", "0.1000000000000000055511151231257827",
    "$source.timeBudget * 60", "($source.a + 2) / 3 - 1", "2 ** 8", "-$source.x", "now()",
    "uppercase:($source.name)", "modulus:by:(10, 3)", "count:($source.items)",
    "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"NoteToNote\", $source)",
    "FUNCTION($entityPolicy, \"typeForIsSaved:\", $source.big)", "FUNCTION($source, \"description\")",
    "FUNCTION($source, \"valueForKey:\", \"tags\")",
    "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\", \"Note\", \"TRUEPREDICATE\"), $manager.sourceContext, NO)",
    "FETCH($request, $context, YES)",
    "CAST($source.date, \"NSDate\")", "CAST(\"NSDate\", \"Class\")", "FUNCTION(CAST(\"NSDate\", \"Class\"), \"date\")",
    "{1, 2, 3}", "{}", "{$source.a, \"b\", {nil}}",
    "$source.items[0]", "$source.items[FIRST]", "$source.items[LAST]", "$source.items[SIZE]",
    "$source.items[FIRST].name", "SELF[$i + 1]",
    "SUBQUERY($source.items, $x, $x.price > 10)", "TERNARY($source.flag == YES, 1, 0)",
    "$x := $source.a + 1", "$source.a UNION $source.b", "$source.a INTERSECT $source.b MINUS $source.c",
    "$source.countries.@distinctUnionOfSets.moods", "$source.items.@count", "$source.#size",
  ]

  static let predicateTexts = [
    "TRUEPREDICATE", "FALSEPREDICATE", "a == 1", "a != nil", "a < 1", "a <= 1", "a > 1", "a >= 1",
    "name MATCHES[c] \"x.*\"", "name LIKE[cd] \"a*\"", "name BEGINSWITH[n] \"a\"", "name ENDSWITH \"z\"",
    "a IN {1, 2}", "name CONTAINS[c] \"x\"", "a BETWEEN {1, 5}", "ANY items.price > 3",
    "ALL items.price > 3", "NOT (a == 1)", "a == 1 AND b == 2 AND c == 3",
    "a == 1 OR (b == 2 AND c == 3)", "(a == 1 OR b == 2) AND c == 3", "name ==[cd] \"x\"",
    "SUBQUERY(items, $i, $i.a == 1).@count > 0", "$source.a + 1 == TERNARY(b == 2, 3, 4)",
  ]

  @Test func expressionsSurviveArchivingAndReading() throws {
    for text in Self.expressionTexts {
      let tree = try ExpressionParser.parseExpression(text)
      let back = try ExpressionArchiveReader.expression(ExpressionArchiveWriter.archive(tree))
      #expect(back == tree, "\(text) came back as \(back)")
    }
  }

  @Test func predicatesSurviveArchivingAndReading() throws {
    for text in Self.predicateTexts {
      let tree = try ExpressionParser.parsePredicate(text)
      let back = try ExpressionArchiveReader.predicate(ExpressionArchiveWriter.archive(tree))
      #expect(back == tree, "\(text) came back as \(back)")
    }
  }

  /// Foundation has no NONE: it is archived, and read back, as NOT (ANY …).
  @Test func noneIsArchivedAsNotAny() throws {
    let tree = try ExpressionParser.parsePredicate("NONE items.price > 3")
    let back = try ExpressionArchiveReader.predicate(ExpressionArchiveWriter.archive(tree))
    #expect(back == (try ExpressionParser.parsePredicate("NOT (ANY items.price > 3)")))
  }

  @Test func userInfoSurvivesArchivingAndReading() throws {
    let info = UserInfo([.init(key: "sourceVersion", value: "v1.1"), .init(key: "note", value: "")])
    #expect(try ExpressionArchiveReader.userInfo(ExpressionArchiveWriter.archive(info)) == info)
  }

  @Test func userInfoValuesThatAreNotStringsAreDescribed() throws {
    var b = KeyedArchiveBuilder()
    let slot = b.reserve()
    let keys = ["n", "d", "t", "list"].map { b.string($0) }
    let list = b.array([b.string("a b"), b.object(.integer(2))])
    let values = [b.object(.integer(42)), b.object(.real(0.5)), b.object(.bool(true)), list]
    b.fill(
      slot, "NSMutableDictionary", classes: ["NSMutableDictionary", "NSDictionary", "NSObject"],
      fields: [.init("NS.keys", .array(keys)), .init("NS.objects", .array(values))])
    let info = try ExpressionArchiveReader.userInfo(b.archive(root: slot))
    #expect(info["n"] == "42")
    #expect(info["d"] == "0.5")
    #expect(info["t"] == "1")
    #expect(info["list"] == "(\n    \"a b\",\n    2\n)")
  }

  // MARK: Hostile archives

  private static let functionChain = ["NSFunctionExpression", "NSExpression", "NSObject"]

  private static func readFails(_ bytes: [UInt8], mentioning words: [String]) {
    let start = ContinuousClock.now
    do {
      let e = try ExpressionArchiveReader.expression(bytes)
      Issue.record("read \(e) from a hostile archive")
    } catch {
      for word in words { #expect(error.message.contains(word), "\(error.message)") }
    }
    #expect(ContinuousClock.now - start < .seconds(2))
  }

  /// An `NSFunctionExpression` sending `selector` to `operand`, with these fields replaced.
  private static func function(
    _ b: inout KeyedArchiveBuilder, _ slot: PropertyListValue, operand: PropertyListValue,
    arguments: PropertyListValue? = nil
  ) {
    let args = arguments ?? b.array([])
    b.fill(
      slot, "NSFunctionExpression", classes: functionChain,
      fields: [
        .init("NSExpressionType", .integer(4)), .init("NSSelectorName", b.string("description")),
        .init("NSOperand", operand), .init("NSArguments", args),
      ])
  }

  @Test func anUnknownClassIsNamed() {
    var b = KeyedArchiveBuilder()
    let root = b.add(
      "NSMysteryExpression", classes: ["NSMysteryExpression", "NSExpression", "NSObject"],
      fields: [.init("NSExpressionType", .integer(99))])
    Self.readFails(b.archive(root: root), mentioning: ["NSMysteryExpression", "object 1"])
  }

  @Test func aCycleOfOperandsIsFound() {
    var b = KeyedArchiveBuilder()
    let first = b.reserve()
    let second = b.reserve()
    Self.function(&b, first, operand: second)
    Self.function(&b, second, operand: first)
    Self.readFails(b.archive(root: first), mentioning: ["cycle", "NSFunctionExpression"])
  }

  @Test func aTenThousandDeepChainIsRefusedQuickly() {
    var b = KeyedArchiveBuilder()
    let slots = (0..<10_000).map { _ in b.reserve() }
    let end = b.add(
      "NSSelfExpression", classes: ["NSSelfExpression", "NSExpression", "NSObject"],
      fields: [.init("NSExpressionType", .integer(1))])
    for (i, slot) in slots.enumerated() {
      Self.function(&b, slot, operand: i + 1 < slots.count ? slots[i + 1] : end)
    }
    Self.readFails(b.archive(root: slots[0]), mentioning: ["\(KeyedArchive.maximumDepth)"])
  }

  @Test func argumentsThatAreNotAnArrayAreRefused() {
    var b = KeyedArchiveBuilder()
    let root = b.reserve()
    let operand = b.add(
      "NSSelfExpression", classes: ["NSSelfExpression", "NSExpression", "NSObject"],
      fields: [.init("NSExpressionType", .integer(1))])
    Self.function(&b, root, operand: operand, arguments: b.string("not a list"))
    Self.readFails(b.archive(root: root), mentioning: ["NSArguments", "NSFunctionExpression"])
  }

  @Test func aDanglingReferenceIsRefused() {
    var b = KeyedArchiveBuilder()
    let root = b.reserve()
    Self.function(&b, root, operand: .uid(999))
    Self.readFails(b.archive(root: root), mentioning: ["999", "NSOperand"])
  }

  @Test func aSharedObjectIsDecodedOnceAndTheSizeIsBounded() {
    // Each level uses the next one twice: 2^60 nodes when expanded.
    var b = KeyedArchiveBuilder()
    var below = b.add(
      "NSSelfExpression", classes: ["NSSelfExpression", "NSExpression", "NSObject"],
      fields: [.init("NSExpressionType", .integer(1))])
    for _ in 0..<60 {
      let slot = b.reserve()
      let selector = b.string("add:to:")
      let operand = b.add(
        "NSConstantValueExpression", classes: ["NSConstantValueExpression", "NSExpression", "NSObject"],
        fields: [
          .init("NSExpressionType", .integer(0)), .init("NSConstantValueClassName", b.string("_NSPredicateUtilities")),
        ])
      let args = b.array([below, below])
      b.fill(
        slot, "NSFunctionExpression", classes: Self.functionChain,
        fields: [
          .init("NSExpressionType", .integer(4)), .init("NSSelectorName", selector),
          .init("NSOperand", operand), .init("NSArguments", args),
        ])
      below = slot
    }
    Self.readFails(b.archive(root: below), mentioning: ["\(ExpressionArchiveReader.maximumNodes) nodes"])
  }
}
