import MapRuntime
import MapSyntax

/// `lint-inverse-unmapped`: a relationship is set from one side only, and the other side is
/// mandatory.
struct InverseUnmapped: LintCheck {
  static let folderAndNote = """
    <entity name="Folder" representedClassName="Folder" syncable="YES">
        <attribute name="name" optional="YES" attributeType="String"/>
        <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
    </entity>
    <entity name="Note" representedClassName="Note" syncable="YES">
        <attribute name="text" optional="YES" attributeType="String"/>
        <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
    </entity>
    """
  static let folderAndParent = """
    <entity name="Folder" representedClassName="Folder" syncable="YES">
        <attribute name="name" optional="YES" attributeType="String"/>
        <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="parent" inverseEntity="Note"/>
    </entity>
    <entity name="Note" representedClassName="Note" syncable="YES">
        <attribute name="text" optional="YES" attributeType="String"/>
        <relationship name="parent" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
    </entity>
    """

  static let rule = LintRule(
    id: "lint-inverse-unmapped", severity: .warning,
    title: "A relationship is set on one side only, and its mandatory inverse is not mapped",
    explanation: """
      Setting a relationship also sets its inverse, so mapping one side is usually enough. But \
      when the inverse is mandatory (a to-one that is not optional, or a to-many with a minimum \
      count: an empty to-many passes validation otherwise) and the entity \
      mapping that creates the objects on the other side does not set it, those objects get it \
      only if some object reaches them through the mapped side. Any object that is not reached \
      (a filtered fetch, a source object whose relationship was empty, a different \
      sourceInstances argument) keeps a nil inverse and fails validation at the end of the \
      migration (Core Data error 1570). Map the inverse in the other entity mapping as well, \
      or make it optional. Mappings with a policy are assumed to set it in code.
      """,
    suppression:
      "on the <relationship> element that sets the mapped side (or on its <entityMapping> when that side is implicit)",
    bad: LintExample(
      source: folderAndNote, destination: folderAndParent,
      mapping: exampleMapping(
        """
          <entityMapping name="FolderToFolder" type="transform" source="Folder" destination="Folder">
            ‸<relationship name="notes">FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "NoteToNote", $source.notes)</relationship>
          </entityMapping>
          <entityMapping name="NoteToNote" type="transform" source="Note" destination="Note"/>
        """)),
    good: LintExample(
      source: folderAndNote, destination: folderAndParent,
      mapping: exampleMapping(
        """
          <entityMapping name="FolderToFolder" type="transform" source="Folder" destination="Folder">
            <relationship name="notes">FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "NoteToNote", $source.notes)</relationship>
          </entityMapping>
          <entityMapping name="NoteToNote" type="transform" source="Note" destination="Note">
            <relationship name="parent">FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "FolderToFolder", $source.folder)</relationship>
          </entityMapping>
        """)))

  func findings(in context: LintContext) -> [Diagnostic] {
    var result: [Diagnostic] = []
    let model = context.destination
    for m in context.mappings {
      guard let a = m.destinationEntity, m.compiled != nil else { continue }
      for r in model.allRelationships(of: a) where m.setsRelationship(r.name) && !r.isTransient {
        guard let inverseName = r.inverseName, let b = model.entity(named: r.destinationEntity),
          let inverse = model.allRelationships(of: b).first(where: { $0.name == inverseName }),
          // An empty to-many passes validation unless it has a minimum count (as in Core Data).
          inverse.isToMany ? inverse.minCount > 0 : !inverse.isOptional
        else { continue }
        for p in context.producers(of: b.name) where !p.hasPolicy && !p.setsRelationship(inverse.name) {
          let at = m.relationshipElement(r.name)?.location ?? m.element.location
          let created = p.destinationEntity?.name ?? b.name
          result.append(
            Self.rule.finding(
              "\(a.name).\(r.name) is set here, but its inverse \(b.name).\(inverse.name) is mandatory and mapping \(p.name) does not set it: every \(created) that no \(a.name) reaches through \(r.name) fails validation (Core Data error 1570); map \(inverse.name) in \(p.name) too",
              at: at))
        }
      }
    }
    return result
  }
}
