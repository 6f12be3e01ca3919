import MapRuntime

/// Hand-built plans for plan-format tests. `full` sets every field of every type to a
/// non-default value somewhere and holds every case of every enum, with distinct spans, odd
/// strings (empty, NFC and NFD spellings of "é", emoji, control characters) and extreme numbers.
public enum SamplePlans {
  // MARK: Expressions

  /// Spans numbered so that no two nodes share one, and start ≠ end.
  private static func sp(_ n: Int) -> SourceSpan { SourceSpan(start: 10 * n, end: 10 * n + 7) }

  private static func x(_ kind: Expression.Kind, _ n: Int) -> Expression { Expression(kind, span: sp(n)) }
  private static func p(_ kind: Predicate.Kind, _ n: Int) -> Predicate { Predicate(kind, span: sp(n)) }

  /// One expression holding every `Expression.Kind`, `Constant`, `Subscript` and `SetOperator`
  /// case, and (through `allComparisons`) every predicate case.
  public static let everyExpressionCase: Expression = {
    let constants: [Expression] = [
      x(.constant(.null), 1), x(.constant(.bool(true)), 2), x(.constant(.bool(false)), 3),
      x(.constant(.integer(Int64.min)), 4), x(.constant(.integer(Int64.max)), 5),
      x(.constant(.integer(0)), 6), x(.constant(.integer(-1)), 7),
      x(.constant(.double(-0.0)), 8), x(.constant(.double(.nan)), 9),
      x(.constant(.double(.infinity)), 10), x(.constant(.double(0.1)), 11),
      x(.constant(.double(Double(bitPattern: 0x7ff8_0000_dead_beef))), 12),
      x(.constant(.decimal("123456789012345678901234567890.5")), 13),
      x(.constant(.string("")), 14), x(.constant(.string("caf\u{e9}")), 15),
      x(.constant(.string("cafe\u{301}")), 16), x(.constant(.string("🧭 \"q\" \\ \n\t\u{0}")), 17),
    ]
    let source = x(.variable("source"), 20)
    let keyPath = x(.keyPath(base: source, components: ["questions", "@count"]), 21)
    let selfPath = x(.keyPath(base: x(.evaluatedObject, 22), components: ["name"]), 23)
    let indexExpr = x(.index(base: keyPath, .expression(x(.constant(.integer(2)), 24))), 25)
    let first = x(.index(base: selfPath, .first), 26)
    let last = x(.index(base: selfPath, .last), 27)
    let size = x(.index(base: selfPath, .size), 28)
    let function = x(.function(name: "uppercase:", arguments: [selfPath]), 29)
    let now = x(.function(name: "now", arguments: []), 30)
    let selector = x(
      .selector(
        target: x(.variable("entityPolicy"), 31), selector: "dateFromString:format:",
        arguments: [keyPath, x(.constant(.string("yyyy-MM-dd")), 32)]), 33)
    let aggregate = x(.aggregate(constants), 34)
    let fetch = x(
      .fetch(
        request: x(
          .selector(
            target: x(.variable("manager"), 35),
            selector: "fetchRequestForSourceEntityNamed:predicateString:",
            arguments: [x(.constant(.string("Records")), 36), x(.constant(.string("date != nil")), 37)]),
          38),
        context: x(.keyPath(base: x(.variable("manager"), 39), components: ["sourceContext"]), 40),
        countOnly: true), 41)
    let cast = x(.cast(value: x(.constant(.integer(86400)), 42), type: "NSDate"), 43)
    let ternary = x(.ternary(condition: allComparisons, then: function, else: now), 44)
    let subquery = x(
      .subquery(
        collection: keyPath, variable: "q",
        predicate: p(
          .comparison(Comparison(lhs: x(.variable("q"), 45), op: .equal, rhs: x(.constant(.null), 46))),
          47)), 48)
    let assignment = x(.assignment(variable: "tmp", value: cast), 49)
    let union = x(.setOperation(.union, aggregate, subquery), 50)
    let intersect = x(.setOperation(.intersect, union, fetch), 51)
    let minus = x(.setOperation(.minus, intersect, x(.aggregate([]), 52)), 53)
    return x(
      .aggregate([
        indexExpr, first, last, size, selector, ternary, assignment, minus,
      ]), 54)
  }()

  /// Every comparison operator with every modifier and a variety of options, under NOT, AND
  /// and OR and both predicate constants.
  public static let allComparisons: Predicate = {
    var comparisons: [Predicate] = []
    var n = 100
    let options: [ComparisonOptions] = [
      [], .caseInsensitive, .diacriticInsensitive, .normalized, [.caseInsensitive, .diacriticInsensitive, .normalized],
    ]
    for (i, op) in ComparisonOperator.allCases.enumerated() {
      let modifier = ComparisonModifier.allCases[i % ComparisonModifier.allCases.count]
      let c = Comparison(
        lhs: x(.keyPath(base: x(.evaluatedObject, n), components: ["k\(i)"]), n + 1), op: op,
        rhs: x(.constant(.integer(Int64(i))), n + 2), modifier: modifier,
        options: options[i % options.count])
      comparisons.append(p(.comparison(c), n + 3))
      n += 4
    }
    for modifier in ComparisonModifier.allCases {
      let c = Comparison(
        lhs: x(.variable("m"), n), op: .in, rhs: x(.variable("set"), n + 1), modifier: modifier,
        options: .caseInsensitive)
      comparisons.append(p(.comparison(c), n + 2))
      n += 3
    }
    let half = comparisons.count / 2
    return p(
      .or([
        p(.and(Array(comparisons[..<half])), n),
        p(.not(p(.and(Array(comparisons[half...])), n + 1)), n + 2),
        p(.constant(true), n + 3),
        p(.constant(false), n + 4),
      ]), n + 5)
  }()

  // MARK: Models

  private static func loc(_ file: String, _ line: Int, _ column: Int) -> SourceLocation {
    SourceLocation(file: file, line: line, column: column)
  }

  /// An attribute of each type; `full` sets every optional and flag.
  public static let everyAttributeType: [AttributeDescription] = AttributeType.allCases.enumerated().map {
    i, type in
    AttributeDescription(name: "a\(i)", type: type, isOptional: i % 2 == 0)
  }

  public static let fullAttribute = AttributeDescription(
    name: "date", type: .date, isOptional: true, isTransient: true, isDerived: true,
    derivationExpression: "now()", defaultValueString: "2018-01-02",
    defaultValue: .date(536_544_000), minValueString: "0", maxValueString: "1e9",
    minValue: .date(-1.5), maxValue: .date(1e9), regularExpression: "^[0-9]+$",
    allowsExternalBinaryDataStorage: true, preservesValueInHistoryOnDeletion: true,
    allowsCloudEncryption: true, valueTransformerName: "NSSecureUnarchiveFromData",
    customClassName: "NSDate", isIndexed: true, isIndexedBySpotlight: true,
    isStoredInExternalRecord: true, renamingIdentifier: "oldDate", versionHashModifier: "v2",
    userInfo: UserInfo([.init(key: "k", value: "v"), .init(key: "k", value: "override")]),
    location: loc("Model.xcdatamodel/contents", 12, 9))

  /// Attributes carrying each `ModelConstant` case as default and bounds.
  public static let constantAttributes: [AttributeDescription] = [
    AttributeDescription(
      name: "i", type: .integer64, defaultValue: .integer(Int64.min), minValue: .integer(-1),
      maxValue: .integer(Int64.max)),
    AttributeDescription(
      name: "d", type: .double, defaultValue: .double(-0.0), minValue: .double(.nan),
      maxValue: .double(-.infinity)),
    AttributeDescription(name: "m", type: .decimal, defaultValue: .decimal("0.10000000000000000001")),
    AttributeDescription(name: "b", type: .boolean, defaultValue: .boolean(true), maxValue: .boolean(false)),
    AttributeDescription(
      name: "s", type: .string, defaultValue: .string(""), minValue: .integer(1), maxValue: .integer(40)),
    AttributeDescription(name: "bin", type: .binary, defaultValue: .binary([0, 255, 0x80, 7]), maxValue: .binary([])),
  ]

  public static let fullRelationship = RelationshipDescription(
    name: "sections", destinationEntity: "SectionRecord", inverseName: "dayRecord",
    inverseEntity: "SectionRecord", isOptional: true, isTransient: true, isToMany: true,
    isOrdered: true, minCount: 2, maxCount: 0, deleteRule: .cascade,
    renamingIdentifier: "oldSections", versionHashModifier: "rel2",
    userInfo: UserInfo([.init(key: "r", value: "1")]), location: loc("M/contents", 20, 5))

  public static let fullFetchRequest = FetchRequestTemplate(
    name: "recent", entity: "DayRecord", predicateString: "date > $SINCE", resultType: .dictionaries,
    fetchLimit: 10, fetchBatchSize: -3, includesSubentities: true, includesPropertyValues: true,
    includesPendingChanges: true, returnsObjectsAsFaults: true, returnsDistinctResults: true,
    location: loc("M/contents", 40, 3))

  public static let fullEntity = EntityDescription(
    name: "DayRecord", className: "App.DayRecord", parentName: "Record", isAbstract: true,
    renamingIdentifier: "Records", versionHashModifier: "e1",
    userInfo: UserInfo([.init(key: "entity", value: "info")]),
    attributes: [fullAttribute] + constantAttributes + everyAttributeType,
    relationships: [
      fullRelationship,
      RelationshipDescription(name: "owner", destinationEntity: "Person", deleteRule: .noAction),
      RelationshipDescription(name: "a", destinationEntity: "Person", deleteRule: .nullify),
      RelationshipDescription(name: "b", destinationEntity: "Person", deleteRule: .deny),
    ],
    fetchedProperties: [
      FetchedPropertyDescription(
        name: "recentFriends", isOptional: false, fetchRequest: fullFetchRequest,
        userInfo: UserInfo([.init(key: "fp", value: "x")]), location: loc("M/contents", 30, 7)),
      FetchedPropertyDescription(
        name: "plain", fetchRequest: FetchRequestTemplate(name: "", entity: "Person", resultType: .objectIDs)),
    ],
    uniquenessConstraints: [["date"], ["date", "owner"], []],
    compoundIndexes: [["date", "owner"]],
    fetchIndexes: [
      FetchIndexDescription(
        name: "byDate",
        elements: [
          .init(property: "date", type: "Binary", ascending: true),
          .init(property: "owner", type: "R-Tree", ascending: false),
        ], partialIndexPredicate: "date != nil"),
      FetchIndexDescription(name: "empty", elements: []),
    ],
    location: loc("M/contents", 8, 5))

  public static let sourceModel = ObjectModel(
    entities: [
      EntityDescription(name: "Records", attributes: [AttributeDescription(name: "date", type: .string)]),
      EntityDescription(name: "Record", isAbstract: true),
    ],
    versionIdentifiers: ["1"], versionName: "Diary", path: "Diary.xcdatamodeld/Diary.xcdatamodel")

  public static let destinationModel = ObjectModel(
    entities: [
      fullEntity,
      EntityDescription(name: "Person"),
      EntityDescription(name: "SectionRecord"),
      EntityDescription(name: "Record"),
    ],
    versionIdentifiers: ["2", "", "beta"],
    fetchRequestTemplates: [
      fullFetchRequest, FetchRequestTemplate(name: "all", entity: "Person"),
    ],
    configurations: [
      ModelConfiguration(name: "Default", memberEntities: ["DayRecord", "Person"]),
      ModelConfiguration(name: "Empty", memberEntities: []),
    ],
    versionName: "Diary 2", path: "Diary.xcdatamodeld/Diary 2.xcdatamodel")

  private static func hash(_ seed: UInt8) -> [UInt8] {
    (0..<32).map { UInt8(truncatingIfNeeded: Int($0) * 37 + Int(seed)) }
  }

  // MARK: Plans

  public static let full: MigrationPlan = {
    let file = "Mappings/diary/diary-mapping.xml"
    let mappings: [EntityMapping] = EntityMappingType.allCases.enumerated().map { i, type in
      EntityMapping(name: "Mapping\(i)", type: type, sourceEntity: "Records", destinationEntity: "DayRecord")
    }
    let main = EntityMapping(
      name: "RecordsToDayRecord", type: .transform, sourceEntity: "Records",
      destinationEntity: "DayRecord", policyName: "App.DiaryPolicy",
      userInfo: UserInfo([.init(key: "modelVersion", value: "2")]),
      sourceExpression: CompiledExpression(
        everyExpressionCase, source: ExpressionSource(text: "FETCH(…)", location: loc(file, 14, 23))),
      forEach: CompiledExpression(
        Expression(.keyPath(base: .variable("source", span: sp(900)), components: ["questions"]), span: sp(901)),
        source: ExpressionSource(text: "$source.questions", location: loc(file, 15, 14))),
      attributeMappings: [
        PropertyMapping(
          name: "date",
          valueExpression: CompiledExpression(
            Expression(.keyPath(base: .variable("source"), components: ["date"])),
            source: ExpressionSource(text: "$source.date", location: loc(file, 16, 28))),
          userInfo: UserInfo([.init(key: "p", value: "q")]), location: loc(file, 16, 5)),
        PropertyMapping(
          name: "implicit",
          valueExpression: CompiledExpression(
            Expression(.keyPath(base: .variable("source"), components: ["implicit"])))),
        PropertyMapping(name: "none", valueExpression: nil),
      ],
      relationshipMappings: [
        PropertyMapping(
          name: "sections",
          valueExpression: CompiledExpression(
            Expression(
              .selector(
                target: .variable("manager", span: sp(910)),
                selector: "destinationInstancesForEntityMappingNamed:sourceInstances:",
                arguments: [.string("RecordsToSectionRecord", span: sp(911)), .variable("source", span: sp(912))]),
              span: sp(913)),
            source: ExpressionSource(text: "FUNCTION($manager, …)", location: loc(file, 17, 30))),
          location: loc(file, 17, 5))
      ],
      location: loc(file, 10, 3))
    let add = EntityMapping(
      name: "AddLibrary", type: .add, sourceEntity: nil, destinationEntity: "Person",
      forEach: CompiledExpression(Expression(.aggregate([.constant(.integer(1))]))))
    let remove = EntityMapping(name: "RemoveOld", type: .remove, sourceEntity: "Record", destinationEntity: nil)
    return MigrationPlan(
      name: "SQADMappingModel1_2", mappingPath: file,
      userInfo: UserInfo([.init(key: "modelVersion", value: "2"), .init(key: "", value: "")]),
      sourceModel: sourceModel, destinationModel: destinationModel,
      sourceEntityHashes: [EntityHash(entity: "Record", hash: hash(1)), EntityHash(entity: "Records", hash: hash(2))],
      destinationEntityHashes: destinationModel.entities.enumerated().map {
        EntityHash(entity: $1.name, hash: hash(UInt8(10 + $0)))
      }.sorted { $0.entity < $1.entity },
      entityMappings: [main, add, remove] + mappings)
  }()

  /// A small plan, for tests that mutate every byte.
  public static let small: MigrationPlan = MigrationPlan(
    name: "Small", mappingPath: "small.xml",
    sourceModel: ObjectModel(
      entities: [EntityDescription(name: "A", attributes: [AttributeDescription(name: "x", type: .string)])],
      versionIdentifiers: ["1"]),
    destinationModel: ObjectModel(
      entities: [
        EntityDescription(name: "B", attributes: [AttributeDescription(name: "y", type: .string, isOptional: true)])
      ],
      versionIdentifiers: ["2"]),
    sourceEntityHashes: [EntityHash(entity: "A", hash: hash(3))],
    destinationEntityHashes: [EntityHash(entity: "B", hash: hash(4))],
    entityMappings: [
      EntityMapping(
        name: "AToB", type: .transform, sourceEntity: "A", destinationEntity: "B",
        sourceExpression: CompiledExpression(
          Expression(
            .fetch(
              request: .variable("request", span: SourceSpan(start: 6, end: 14)),
              context: .variable("context", span: SourceSpan(start: 16, end: 24)), countOnly: false),
            span: SourceSpan(start: 0, end: 30)),
          source: ExpressionSource(
            text: "FETCH($request, $context, NO)", location: SourceLocation(file: "small.xml", line: 3, column: 20))),
        attributeMappings: [
          PropertyMapping(
            name: "y",
            valueExpression: CompiledExpression(
              Expression(
                .function(
                  name: "uppercase:", arguments: [Expression(.keyPath(base: .variable("source"), components: ["x"]))]),
                span: SourceSpan(start: 0, end: 22)),
              source: ExpressionSource(
                text: "uppercase:($source.x)", location: SourceLocation(file: "small.xml", line: 4, column: 25))),
            location: SourceLocation(file: "small.xml", line: 4, column: 5))
        ])
    ])
}
