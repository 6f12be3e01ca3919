import MapRuntime
import MapSyntax

/// `lint-mandatory-attribute-unmapped`: a mandatory destination attribute that an entity
/// mapping leaves without a value.
struct MandatoryAttributeUnmapped: LintCheck {
  static let personWithCreatedAt = """
    <entity name="Person" representedClassName="Person" syncable="YES">
        <attribute name="createdAt" attributeType="Date" usesScalarValueType="NO"/>
        <attribute name="name" optional="YES" attributeType="String"/>
    </entity>
    """

  static let rule = LintRule(
    id: "lint-mandatory-attribute-unmapped", severity: .error,
    title: "A mandatory destination attribute gets no value",
    explanation: """
      A destination attribute that is not optional, has no default value in the model, and is \
      set neither by an <attribute> element nor by Xcode's implicit $source.<name> mapping (a \
      source attribute of the same name or renaming ID and a compatible type) is nil in every \
      object the entity mapping creates. Core Data only notices when it validates the new store \
      at the end of the migration: the save fails with error 1570 \
      (NSValidationMissingMandatoryPropertyError) and the whole migration is rolled back, on the \
      user's device. Give the attribute an expression or a default value in the destination \
      model. Mappings that name a policy are not checked: the policy may set the value in code.
      """,
    suppression: "on the <entityMapping> element",
    bad: LintExample(
      source: DestinationEntityUnproduced.person, destination: personWithCreatedAt,
      mapping: exampleMapping(
        """
          ‸<entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person"/>
        """)),
    good: LintExample(
      source: DestinationEntityUnproduced.person, destination: personWithCreatedAt,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
            <attribute name="createdAt">CAST(0, "NSDate")</attribute>
          </entityMapping>
        """)))

  func findings(in context: LintContext) -> [Diagnostic] {
    var result: [Diagnostic] = []
    for m in context.mappings {
      guard let compiled = m.compiled, let d = m.destinationEntity, !d.isAbstract, !m.hasPolicy,
        compiled.type != .remove, createsInstances(m)
      else { continue }
      for a in context.destination.allAttributes(of: d)
      where !a.isOptional && !a.isTransient && !a.isDerived && a.defaultValue == nil && a.defaultValueString == nil {
        let mapped = m.attributeElement(a.name) != nil || compiled.attributeMappings.contains { $0.name == a.name }
        guard !mapped else { continue }
        result.append(
          Self.rule.finding(
            "\(d.name).\(a.name) is mandatory and has no default value, but mapping \(m.name) gives it no value: every \(d.name) it creates fails validation (Core Data error 1570); add <attribute name=\"\(a.name)\">…</attribute> or a default value in the destination model",
            at: m.element.location))
      }
    }
    return result
  }

  /// An add mapping without `forEach` creates nothing (`lint-unused-entity-mapping` says so).
  private func createsInstances(_ m: DraftMapping) -> Bool {
    !(m.type == .add && m.element.forEach == nil && m.element.sourceExpression == nil)
  }
}
