import MapRuntime
import MapSyntax

/// `lint-source-entity-unread`: no entity mapping reads a source entity, so its data is
/// dropped.
struct SourceEntityUnread: LintCheck {
  static let person = DestinationEntityUnproduced.person
  static let personAndLog =
    person + """

      <entity name="Log" representedClassName="Log" syncable="YES">
          <attribute name="line" optional="YES" attributeType="String"/>
      </entity>
      """

  static let rule = LintRule(
    id: "lint-source-entity-unread", severity: .warning,
    title: "No entity mapping reads a source entity: its data is silently dropped",
    explanation: """
      A heavyweight migration copies only what its entity mappings read. A concrete source \
      entity that is not the source of any entity mapping (or a subentity of one), not fetched \
      by any FETCH, and not reached through a $source key path, is dropped without a word: the \
      migration succeeds and the users' data is gone. Map it, or say that dropping it is \
      intended with <entityMapping type="remove" source="…"/>, as Xcode's mapping editor does.
      """,
    suppression: "on the <sourceModel> element (better: a remove mapping)",
    bad: LintExample(
      source: personAndLog, destination: person,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person"/>
        """,
        models: "  ‸<sourceModel path=\"Source.xcdatamodel\"/>\n  <destinationModel path=\"Destination.xcdatamodel\"/>")
    ),
    good: LintExample(
      source: personAndLog, destination: person,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person"/>
          <entityMapping name="DropLogs" type="remove" source="Log"/>
        """)))

  func findings(in context: LintContext) -> [Diagnostic] {
    let model = context.source
    var read: Set<String> = []
    func addWithSubentities(_ name: String) {
      read.insert(name)
      for s in model.subentities(of: name) { read.insert(s.name) }
    }
    for m in context.mappings {
      if let s = m.element.source?.value { addWithSubentities(s) }
      for text in m.texts {
        guard case .success(let e) = ExpressionParsing.parseExpression(text.text) else { continue }
        for (name, _) in ExpressionWalk.managerCalls(
          in: e, selector: "fetchRequestForSourceEntityNamed:predicateString:")
        {
          addWithSubentities(name)
        }
        ExpressionWalk.each(e) { x in
          guard let path = ExpressionWalk.sourceKeyPath(x), var entity = m.sourceEntity else { return }
          for key in path {
            guard let r = model.allRelationships(of: entity).first(where: { $0.name == key }),
              let next = model.entity(named: r.destinationEntity)
            else { break }
            addWithSubentities(next.name)
            entity = next
          }
        }
      }
    }
    var result: [Diagnostic] = []
    for e in model.entities where !e.isAbstract && !read.contains(e.name) {
      result.append(
        Self.rule.finding(
          "no entity mapping reads source entity \(e.name): the migration silently drops its objects; map it, or add <entityMapping type=\"remove\" source=\"\(e.name)\"/> to drop them on purpose",
          at: context.document.sourceModel?.location ?? context.document.location))
    }
    return result
  }
}
