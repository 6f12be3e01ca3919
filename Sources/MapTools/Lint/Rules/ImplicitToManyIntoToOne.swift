import MapRuntime
import MapSyntax

/// `lint-implicit-to-many-into-to-one`: Xcode's implicit relationship mapping would put a
/// to-many source relationship into a to-one destination relationship.
struct ImplicitToManyIntoToOne: LintCheck {
  static let authorAndBooks = """
    <entity name="Author" representedClassName="Author" syncable="YES">
        <attribute name="name" optional="YES" attributeType="String"/>
        <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
    </entity>
    <entity name="Book" representedClassName="Book" syncable="YES">
        <attribute name="title" optional="YES" attributeType="String"/>
        <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
    </entity>
    """
  static let authorAndOneBook = """
    <entity name="Author" representedClassName="Author" syncable="YES">
        <attribute name="name" optional="YES" attributeType="String"/>
        <relationship name="books" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
    </entity>
    <entity name="Book" representedClassName="Book" syncable="YES">
        <attribute name="title" optional="YES" attributeType="String"/>
        <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
    </entity>
    """

  static let rule = LintRule(
    id: "lint-implicit-to-many-into-to-one", severity: .error,
    title: "A to-many relationship mapped into a to-one by Xcode's implicit mapping",
    explanation: """
      For a destination relationship that the entity mapping does not mention, Xcode generates \
      FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", \
      "name", $source.name) from the source relationship of the same name. When the source \
      relationship is to-many and the destination one became to-one, that expression gives a \
      collection for a to-one relationship, and the migration stops with "Unacceptable type \
      of value for to-one relationship" for the first source object with related objects. \
      Map the relationship explicitly, choosing the one object to keep (for example \
      $source.books[FIRST] through the entity mapping of the related objects). Explicit \
      expressions that do this are the compiler's map-to-many-into-to-one.
      """,
    suppression: "on the <entityMapping> element",
    bad: LintExample(
      source: authorAndBooks, destination: authorAndOneBook,
      mapping: exampleMapping(
        """
          ‸<entityMapping name="AuthorToAuthor" type="transform" source="Author" destination="Author"/>
          <entityMapping name="BookToBook" type="transform" source="Book" destination="Book"/>
        """)),
    good: LintExample(
      source: authorAndBooks, destination: authorAndOneBook,
      mapping: exampleMapping(
        """
          <entityMapping name="AuthorToAuthor" type="transform" source="Author" destination="Author">
            <relationship name="books">FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToBook", $source.books[FIRST])</relationship>
          </entityMapping>
          <entityMapping name="BookToBook" type="transform" source="Book" destination="Book"/>
        """)))

  func findings(in context: LintContext) -> [Diagnostic] {
    var result: [Diagnostic] = []
    for m in context.mappings {
      guard let compiled = m.compiled, let d = m.destinationEntity, let s = m.sourceEntity else { continue }
      for p in compiled.relationshipMappings where m.relationshipElement(p.name) == nil {
        guard let expr = p.valueExpression?.expression,
          case .selector(_, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", let args) = expr.kind,
          case .constant(.string(let sourceName))? = args.first?.kind,
          let sr = context.source.allRelationships(of: s).first(where: { $0.name == sourceName }),
          let dr = context.destination.allRelationships(of: d).first(where: { $0.name == p.name }),
          sr.isToMany, !dr.isToMany
        else { continue }
        result.append(
          Self.rule.finding(
            "\(d.name).\(dr.name) is to-one, but mapping \(m.name) fills it implicitly from \(s.name).\(sr.name), which is to-many: the migration stops with \"Unacceptable type of value for to-one relationship\"; add <relationship name=\"\(dr.name)\"> choosing one object",
            at: m.element.location))
      }
    }
    return result
  }
}
