import MapRuntime
import MapSyntax

/// `lint-destination-entity-unproduced`: no entity mapping creates objects of a destination
/// entity.
struct DestinationEntityUnproduced: LintCheck {
  static let person = """
    <entity name="Person" representedClassName="Person" syncable="YES">
        <attribute name="name" optional="YES" attributeType="String"/>
    </entity>
    """
  static let personAndSettings =
    person + """

      <entity name="Settings" representedClassName="Settings" syncable="YES">
          <attribute name="theme" optional="YES" attributeType="String"/>
      </entity>
      """

  static let rule = LintRule(
    id: "lint-destination-entity-unproduced", severity: .warning,
    title: "No entity mapping creates objects of a destination entity",
    explanation: """
      A concrete destination entity that no entity mapping names as its destination is empty \
      after the migration. When the entity replaces or splits an old one, that is data loss \
      that shows only on upgraded devices (fresh installs look fine). Add the entity mapping \
      that creates its objects: a transform from the source entity whose data it takes, or an \
      add mapping with <forEach> for objects that have no source. When the entity is meant to \
      start empty, suppress the finding. Abstract entities, and entities one of whose \
      subentities is created, are not reported; nor is anything when a mapping names a custom \
      policy, whose hooks may create objects of any entity (as NSEntityMigrationPolicy \
      subclasses do in createDestinationInstances or endInstanceCreation).
      """,
    suppression: "on the <destinationModel> element",
    bad: LintExample(
      source: person, destination: personAndSettings,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person"/>
        """,
        models: "  <sourceModel path=\"Source.xcdatamodel\"/>\n  ‸<destinationModel path=\"Destination.xcdatamodel\"/>")
    ),
    good: LintExample(
      source: person, destination: personAndSettings,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person"/>
          <entityMapping name="AddSettings" type="add" destination="Settings">
            <forEach>{1}</forEach>
          </entityMapping>
        """)))

  func findings(in context: LintContext) -> [Diagnostic] {
    let model = context.destination
    let produced = Set(context.mappings.compactMap { $0.isDuplicate ? nil : $0.element.destination?.value })
    // A custom policy's hooks may insert objects of any entity: nothing can be said then.
    if context.mappings.contains(where: { !($0.element.policy?.value.isEmpty ?? true) }) { return [] }
    var result: [Diagnostic] = []
    for e in model.entities where !e.isAbstract && !produced.contains(e.name) {
      if model.subentities(of: e.name).contains(where: { produced.contains($0.name) }) { continue }
      result.append(
        Self.rule.finding(
          "no entity mapping creates \(e.name) objects, so the migrated store has none: map the data that becomes \(e.name), or create it with an add mapping; suppress this if \(e.name) starts empty on purpose",
          at: context.document.destinationModel?.location ?? context.document.location))
    }
    return result
  }
}
