import MapRuntime
import Testing

/// Invalid mappings, each with the exact diagnostics it must give: rule id, line and column
/// (marked in the text with 1️⃣, 2️⃣, …), and nothing else.
@Suite struct InvalidMappingTests {
  struct Case: Sendable, CustomStringConvertible {
    var name: String
    var text: String
    var expected: [ExpectedDiagnostic]
    var description: String { name }
  }

  /// A case whose body sits inside the standard mapping (models Old and New, lines 1–3).
  static func body(_ name: String, _ body: String, _ expected: ExpectedDiagnostic...) -> Case {
    Case(name: name, text: TestModels.mapping(body), expected: expected)
  }

  /// A case given as the whole file.
  static func file(_ name: String, _ text: String, _ expected: ExpectedDiagnostic...) -> Case {
    Case(name: name, text: text, expected: expected)
  }

  static let person = #"<entityMapping name="A" source="Person" destination="Person">"#
  static let instancesOf = #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "#
  static let fetchSource = #"FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "#

  // MARK: - Structure (the reader)

  static let structure: [Case] = [
    body(
      "unknown element in an entity mapping",
      person + #"1️⃣<atribute name="age">1</atribute></entityMapping>"#,
      error("map-unknown-element", at: 1)),
    body(
      "unknown element in the root",
      #"  1️⃣<entityMaping name="A" source="Person" destination="Person"/>"#,
      error("map-unknown-element", at: 1)),
    body(
      "unknown XML attribute",
      #"  <entityMapping name="A" 1️⃣sorce="Person" destination="Person"/>"#,
      error("map-unknown-xml-attribute", at: 1)),
    body(
      "attribute without a name",
      person + #"1️⃣<attribute>1</attribute></entityMapping>"#,
      error("map-missing-attribute", at: 1)),
    body(
      "userInfo entry without a value",
      "  <userInfo>1️⃣<entry key=\"a\"/></userInfo>",
      error("map-missing-attribute", at: 1)),
    file(
      "model reference without a path",
      """
      1️⃣<mappingModel name="M" formatVersion="1">
        2️⃣<sourceModel/>
        <destinationModel path="New.xcdatamodel"/>
      </mappingModel>
      """,
      error("map-missing-attribute", at: 2), error("map-missing-model", at: 1)),
    body(
      "forEach twice",
      #"  <entityMapping name="A" type="add" destination="Animal"><forEach>{1}</forEach>1️⃣<forEach>{2}</forEach></entityMapping>"#,
      error("map-duplicate-element", at: 1)),
    file(
      "sourceModel twice",
      """
      <mappingModel name="M" formatVersion="1">
        <sourceModel path="Old.xcdatamodel"/>
        1️⃣<sourceModel path="New.xcdatamodel"/>
        <destinationModel path="New.xcdatamodel"/>
      </mappingModel>
      """,
      error("map-duplicate-element", at: 1)),
    body(
      "text where only elements are allowed",
      person + #"1️⃣hello<attribute name="age">1</attribute></entityMapping>"#,
      error("map-unexpected-text", at: 1)),
    body(
      "element inside an expression",
      person + #"<attribute name="age">1 + 1️⃣<b/>2</attribute></entityMapping>"#,
      error("map-unexpected-element", at: 1)),
    file(
      "unsupported format version",
      """
      <mappingModel name="M" formatVersion="1️⃣2">
        <sourceModel path="Old.xcdatamodel"/>
        <destinationModel path="New.xcdatamodel"/>
      </mappingModel>
      """,
      error("map-format-version", at: 1)),
    file(
      "missing format version and destination model, unknown source model path",
      """
      1️⃣<mappingModel name="M">
        <sourceModel path="2️⃣Nope.xcdatamodel"/>
      </mappingModel>
      """,
      error("map-format-version", at: 1), error("map-missing-model", at: 1), error("model-path", at: 2)),
    file(
      "wrong root element",
      """
      <?xml version="1.0"?>
      1️⃣<mapping formatVersion="1"/>
      """,
      error("map-root", at: 1)),
  ]

  // MARK: - Entity mappings

  static let entityMappings: [Case] = [
    body(
      "unknown source and destination entities",
      #"  <entityMapping name="A" source="1️⃣Persn" destination="2️⃣Persson"/>"#,
      error("map-unknown-entity", at: 1), error("map-unknown-entity", at: 2)),
    body(
      "unknown mapping type",
      #"  <entityMapping name="A" type="1️⃣shift" source="Person" destination="Person"/>"#,
      error("map-unknown-type", at: 1)),
    body(
      "add mapping with a source",
      #"  <entityMapping name="A" type="add" source="1️⃣Person" destination="Person"/>"#,
      error("map-type-entities", at: 1)),
    body(
      "remove mapping with a destination",
      #"  <entityMapping name="A" type="remove" source="Pet" destination="1️⃣Animal"/>"#,
      error("map-type-entities", at: 1)),
    body(
      "copy mapping without a destination",
      #"  <entityMapping name="A" type="1️⃣copy" source="Note"/>"#,
      error("map-type-entities", at: 1)),
    body(
      "abstract destination",
      #"  <entityMapping name="A" source="Person" destination="1️⃣Being"/>"#,
      error("map-abstract-destination", at: 1)),
    body(
      "copy between entities whose hashes differ",
      #"  <entityMapping name="A" type="1️⃣copy" source="Tag" destination="Tag"/>"#,
      error("map-copy-hash-mismatch", at: 1)),
    body(
      "duplicate mapping names",
      """
        <entityMapping name="A" source="Note" destination="Note"/>
        <entityMapping name="1️⃣A" source="Pet" destination="Animal"/>
      """,
      error("map-duplicate-mapping", at: 1)),
    body(
      "duplicate default mapping names",
      """
        <entityMapping source="Note" destination="Note"/>
        1️⃣<entityMapping source="Note" destination="Note"/>
      """,
      error("map-duplicate-mapping", at: 1)),
    body(
      "filter and sourceExpression together",
      person
        + "<sourceExpression>FETCH(" + fetchSource
        + #""Person", "age > 1"), $manager.sourceContext, NO)</sourceExpression>"#
        + "<filter>1️⃣age > 2</filter></entityMapping>",
      error("map-source-and-filter", at: 1)),
    body(
      "source expression yielding another entity",
      person + "<sourceExpression>1️⃣FETCH(" + fetchSource
        + #""Pet", "legs > 2"), $manager.sourceContext, NO)</sourceExpression></entityMapping>"#,
      error("map-source-expression", at: 1)),
    body(
      "filter in an add mapping",
      #"  <entityMapping name="A" type="add" destination="Animal"><forEach>{1}</forEach><filter>1️⃣age > 2</filter></entityMapping>"#,
      error("map-source-expression", at: 1)),
    body(
      "forEach and properties in a remove mapping",
      #"  <entityMapping name="A" type="remove" source="Pet"><forEach>1️⃣{1}</forEach>2️⃣<attribute name="name">"x"</attribute></entityMapping>"#,
      error("map-foreach-without-destination", at: 1), error("map-property-without-destination", at: 2)),
  ]

  // MARK: - Properties

  static let properties: [Case] = [
    body(
      "unknown attribute and relationship",
      person + #"<attribute name="1️⃣agee">1</attribute><relationship name="2️⃣homes">nil</relationship></entityMapping>"#,
      error("map-unknown-attribute", at: 1), error("map-unknown-relationship", at: 2)),
    body(
      "attribute and relationship confused",
      person + #"<attribute name="1️⃣home">1</attribute><relationship name="2️⃣age">1</relationship></entityMapping>"#,
      error("map-unknown-attribute", at: 1), error("map-unknown-relationship", at: 2)),
    body(
      "derived attribute mapped",
      person + #"<attribute name="1️⃣petCount">3</attribute></entityMapping>"#,
      error("map-derived-attribute", at: 1)),
    body(
      "property mapped twice",
      person + #"<attribute name="age">1</attribute><attribute name="1️⃣age">2</attribute></entityMapping>"#,
      error("map-duplicate-property", at: 1)),
    body(
      "empty expressions",
      person
        + "1️⃣<attribute name=\"age\">  </attribute>\n    2️⃣<relationship name=\"home\"></relationship></entityMapping>",
      error("map-empty-expression", at: 1), error("map-empty-expression", at: 2)),
    body(
      "string into an integer attribute",
      person + #"<attribute name="age">1️⃣$source.name</attribute></entityMapping>"#,
      error("map-type-mismatch", at: 1)),
    body(
      "number into a date attribute",
      person + #"<attribute name="birthday">1️⃣$source.score + 1</attribute></entityMapping>"#,
      error("map-type-mismatch", at: 1)),
    body(
      "to-many key path into an attribute",
      person + #"<attribute name="name">1️⃣$source.pets.name</attribute></entityMapping>"#,
      error("map-type-mismatch", at: 1)),
    body(
      "unknown key through a to-one relationship",
      person + #"<attribute name="name">$source.address.1️⃣zip</attribute></entityMapping>"#,
      error("map-unknown-key", at: 1)),
    body(
      "unknown key after a collection operator",
      person + #"<attribute name="age">$source.pets.@sum.1️⃣legz</attribute></entityMapping>"#,
      error("map-unknown-key", at: 1)),
    body(
      "unknown key over a to-many path, across lines",
      person + "<attribute name=\"name\">\n      $source\n        .pets\n        .1️⃣nme</attribute></entityMapping>",
      error("map-unknown-key", at: 1)),
    body(
      "source objects in a relationship",
      person + #"<relationship name="home">1️⃣$source.address</relationship></entityMapping>"#,
      error("map-relationship-source-objects", at: 1)),
    body(
      "destination objects of the wrong entity",
      person
        + #"<relationship name="animals">1️⃣FETCH(FUNCTION($manager, "fetchRequestForDestinationEntityNamed:predicateString:", "Place", "TRUEPREDICATE"), $manager.destinationContext, NO)</relationship></entityMapping>"#,
      error("map-relationship-entity", at: 1)),
    body(
      "to-many value into a to-one relationship",
      person + #"<relationship name="home">1️⃣"# + instancesOf + #""B", $source.pets)</relationship></entityMapping>"#
        + #"<entityMapping name="B" source="Pet" destination="Place"/>"#,
      error("map-to-many-into-to-one", at: 1)),
    body(
      "fan-out mapping into a to-one relationship",
      person + #"<relationship name="home">1️⃣"# + instancesOf + #""B", $source.address)</relationship></entityMapping>"#
        + #"<entityMapping name="B" source="Address" destination="Place"><forEach>{1, 2}</forEach></entityMapping>"#,
      error("map-to-many-into-to-one", at: 1)),
    body(
      "unknown mapping name",
      person + #"<relationship name="home">"# + instancesOf
        + #"1️⃣"AddressToPlce", $source.address)</relationship></entityMapping>"#
        + #"<entityMapping name="AddressToPlace" source="Address" destination="Place"/>"#,
      error("map-unknown-mapping", at: 1)),
    body(
      "mapping whose destination differs from the relationship's",
      person + #"<relationship name="home">"# + instancesOf + #"1️⃣"B", $source.address)</relationship></entityMapping>"#
        + #"<entityMapping name="B" source="Address" destination="Animal"/>"#,
      error("map-mapping-destination-mismatch", at: 1)),
    body(
      "source instances of another entity",
      person + #"<relationship name="home">"# + instancesOf
        + #""B", 1️⃣$source.pets[FIRST])</relationship></entityMapping>"#
        + #"<entityMapping name="B" source="Address" destination="Place"/>"#,
      warning("map-source-instances-entity", at: 1)),
  ]

  // MARK: - Expressions

  static let expressions: [Case] = [
    body(
      "$item outside forEach",
      person + #"<attribute name="name">1️⃣$item</attribute></entityMapping>"#,
      error("map-item-outside-foreach", at: 1)),
    body(
      "$index outside forEach",
      person + #"<attribute name="age">2 * 1️⃣$index</attribute></entityMapping>"#,
      error("map-item-outside-foreach", at: 1)),
    body(
      "unknown variable",
      person + #"<attribute name="age">1️⃣$sorce.age</attribute></entityMapping>"#,
      error("map-unknown-variable", at: 1)),
    body(
      "syntax error at the end of an expression",
      person + #"<attribute name="age">1 +1️⃣</attribute></entityMapping>"#,
      error("expr-syntax", at: 1)),
    body(
      "syntax error after an XML character reference",
      person + #"<attribute name="name">"a&#233;&lt;b" 1️⃣"c"</attribute></entityMapping>"#,
      error("expr-trailing-input", at: 1)),
    body(
      "selector arity: fewer arguments than colons",
      person + #"<attribute name="name">FUNCTION($source, 1️⃣"valueForKey:")</attribute></entityMapping>"#,
      error("expr-arity", at: 1)),
    body(
      "unknown built-in function",
      person + #"<attribute name="name">1️⃣upcase:($source.name)</attribute></entityMapping>"#,
      error("expr-unknown-function", at: 1)),
    body(
      "unknown policy function without a policy",
      person + #"<attribute name="age">1️⃣FUNCTION($entityPolicy, "frobnicate:", 1)</attribute></entityMapping>"#,
      error("map-unknown-selector", at: 1)),
    body(
      "unknown manager selector",
      person
        + #"<relationship name="home">1️⃣FUNCTION($manager, "destinationInstancesForMapping:", $source)</relationship></entityMapping>"#,
      error("map-unknown-selector", at: 1)),
    body(
      "bad date format literal",
      person
        + #"<attribute name="birthday">FUNCTION($entityPolicy, "dateFromString:format:", $source.born, 1️⃣"yyyy-QQQ")</attribute></entityMapping>"#,
      error("map-date-format", at: 1)),
    body(
      "FETCH with a predicate that is not a literal",
      person + "<sourceExpression>FETCH(" + fetchSource
        + #""Person", 1️⃣$source.name), $manager.sourceContext, NO)</sourceExpression></entityMapping>"#,
      error("map-fetch-literal", at: 1)),
    body(
      "FETCH of an unknown entity",
      person + "<sourceExpression>FETCH(" + fetchSource
        + #"1️⃣"Persons", "TRUEPREDICATE"), $manager.sourceContext, NO)</sourceExpression></entityMapping>"#,
      error("map-unknown-entity", at: 1)),
    body(
      "FETCH of a source entity in the destination context",
      person + "<sourceExpression>FETCH(" + fetchSource
        + #""Person", "TRUEPREDICATE"), 1️⃣$manager.destinationContext, NO)</sourceExpression></entityMapping>"#,
      error("map-fetch-context", at: 1)),
    body(
      "syntax error inside a predicate string, after escapes and references",
      person + "<sourceExpression>FETCH(" + fetchSource
        + #""Person", "name == \"a\" AND age &gt; 1️⃣&gt; 3"), $manager.sourceContext, NO)</sourceExpression></entityMapping>"#,
      error("expr-syntax", at: 1)),
    body(
      "unknown key inside a predicate string",
      person + "<sourceExpression>FETCH(" + fetchSource
        + #""Person", "name == \"\u00e9\" AND 1️⃣agee &lt; 3"), $manager.sourceContext, NO)</sourceExpression></entityMapping>"#,
      error("map-unknown-key", at: 1)),
    body(
      "syntax error in a filter on its own line",
      person + "<filter>\n      age &gt; 3 AND 1️⃣AND name == 'x'\n    </filter></entityMapping>",
      error("expr-syntax", at: 1)),
    body(
      "unknown key in a filter after leading white space",
      person + "<filter>\n      age &gt; 3 AND pets.@count &gt; 0 AND 1️⃣nme == 'x'</filter></entityMapping>",
      error("map-unknown-key", at: 1)),
    body(
      "invalid regular expression in MATCHES",
      person + "<filter>name MATCHES 1️⃣'[a-'</filter></entityMapping>",
      error("map-regex", at: 1)),
    body(
      "reserved word as a key",
      person + #"<attribute name="name">$source.1️⃣IN</attribute></entityMapping>"#,
      error("expr-reserved-word", at: 1)),
    body(
      "CAST of a string to NSDate",
      person + #"<attribute name="birthday">1️⃣CAST($source.born, "NSDate")</attribute></entityMapping>"#,
      error("map-cast", at: 1)),
    body(
      "$source in an add mapping is nil",
      #"  <entityMapping name="A" type="add" destination="Animal"><forEach>{1}</forEach><attribute name="name">1️⃣$source.name</attribute></entityMapping>"#,
      warning("map-source-without-source", at: 1)),
  ]

  // MARK: - Pinned hashes

  static let pins: [Case] = [
    file(
      "entity pin and model pin that no longer match",
      """
      <mappingModel name="M" formatVersion="1">
        <sourceModel path="Old.xcdatamodel">
          1️⃣<entityVersionHash entity="Person" hash="qRK2+RkbGWSiVne/VexxMIU9M6G1YcQ0zVPVerqbMYB="/>
        </sourceModel>
        <destinationModel path="New.xcdatamodel" versionHash="2️⃣AAAA"/>
      </mappingModel>
      """,
      error("map-pinned-hash-mismatch", at: 1), error("map-pinned-hash-mismatch", at: 2)),
    file(
      "pin of an entity the model does not have",
      """
      <mappingModel name="M" formatVersion="1">
        <sourceModel path="Old.xcdatamodel"><entityVersionHash entity="Person" hash="qRK2+RkbGWSiVne/VexxMIU9M6G1YcQ0zVPVerqbMYA="/>1️⃣<entityVersionHash entity="Dog" hash="AAAA"/></sourceModel>
        <destinationModel path="New.xcdatamodel"/>
      </mappingModel>
      """,
      error("map-pinned-hash-mismatch", at: 1)),
  ]

  static let allCases = structure + entityMappings + properties + expressions + pins

  @Test func thereAreEnoughCases() {
    #expect(Self.allCases.count >= 40)
    #expect(Set(Self.allCases.map(\.name)).count == Self.allCases.count)
  }

  @Test(arguments: allCases)
  func invalidMapping(_ c: Case) throws {
    try expectDiagnostics(c.text, c.expected)
  }
}
