import MapRuntime
import MapSyntax

/// `lint-optional-into-mandatory`: a value that may be nil flows into a mandatory attribute.
struct OptionalIntoMandatory: LintCheck {
  /// A Person whose name is mandatory (the examples here and of the suppression rules).
  static let mandatoryName = """
    <entity name="Person" representedClassName="Person" syncable="YES">
        <attribute name="name" attributeType="String"/>
    </entity>
    """

  static let rule = LintRule(
    id: "lint-optional-into-mandatory", severity: .warning,
    title: "A value that may be nil goes into a mandatory attribute",
    explanation: """
      The expression of a mandatory destination attribute can give nil: it reads an optional \
      source attribute or to-one relationship, or calls a function that gives nil for input it \
      cannot convert (dateFromString:format:, numberFromString:), and nothing supplies a \
      fallback. A nil set by a mapping replaces the model's default value. Every source object \
      where the value is missing makes the validation at the end of the migration fail with \
      Core Data error 1570, and the migration is rolled back; test stores rarely have such \
      objects, users' stores do. Give a fallback with Core Data's own TERNARY(VALUE != nil, \
      VALUE, FALLBACK) (mapc's FUNCTION($entityPolicy, "defaultValue:for:", FALLBACK, VALUE) \
      does the same, but a device has it only from a policy class), or make the destination \
      attribute optional. Implicit $source.<name> mappings are checked too. Values of unknown type \
      (Transformable, custom policy functions) are not reported.
      """,
    suppression: "on the <attribute> element (implicit mappings: on the <entityMapping> element)",
    bad: LintExample(
      source: DestinationEntityUnproduced.person, destination: mandatoryName,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
            <attribute name="name">‸$source.name</attribute>
          </entityMapping>
        """)),
    good: LintExample(
      source: DestinationEntityUnproduced.person, destination: mandatoryName,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
            <attribute name="name">TERNARY($source.name != nil, $source.name, "Unnamed")</attribute>
          </entityMapping>
        """)))

  func findings(in context: LintContext) -> [Diagnostic] {
    var result: [Diagnostic] = []
    for m in context.mappings {
      guard let d = m.destinationEntity, m.type != .remove else { continue }
      for (a, element, compiled) in context.attributeMappings(of: m)
      where !a.isOptional && !a.isTransient && !a.isDerived {
        if let element {
          guard let text = element.expression, let (expr, t) = context.typed(text, in: m) else { continue }
          if t.type == .null {
            result.append(
              Self.rule.finding(
                "\(d.name).\(a.name) is mandatory, but this expression is always nil: every \(d.name) that mapping \(m.name) creates fails validation (Core Data error 1570)",
                at: context.start(of: text)))
          } else if t.mayBeNil && t.type != .unknown {
            let reasons = NilReasons.find(in: expr, context: context, mapping: m)
            let why = reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))"
            result.append(
              Self.rule.finding(
                "\(d.name).\(a.name) is mandatory, but this value may be nil\(why): objects where it is nil fail validation (Core Data error 1570) and stop the migration; give a fallback with TERNARY(VALUE != nil, VALUE, FALLBACK)",
                at: context.start(of: text)))
          }
        } else if let expr = compiled?.expression, let path = ExpressionWalk.sourceKeyPath(expr), path.count == 1,
          let s = m.sourceEntity, let sa = context.source.allAttributes(of: s).first(where: { $0.name == path[0] }),
          sa.isOptional
        {
          result.append(
            Self.rule.finding(
              "\(d.name).\(a.name) is mandatory, but mapping \(m.name) fills it implicitly from \(s.name).\(sa.name), which is optional: objects without it fail validation (Core Data error 1570); add <attribute name=\"\(a.name)\"> with a fallback",
              at: m.element.location))
        }
      }
    }
    return result
  }
}

/// Why an expression may be nil, in words: optional properties on its `$source` key paths and
/// conversion functions that give nil.
enum NilReasons {
  static func find(in e: Expression, context: LintContext, mapping m: DraftMapping) -> [String] {
    var reasons: [String] = []
    func add(_ r: String) { if !reasons.contains(r) { reasons.append(r) } }
    ExpressionWalk.each(e) { x in
      if let path = ExpressionWalk.sourceKeyPath(x), var entity = m.sourceEntity {
        for key in path {
          let model = context.source
          if let a = model.allAttributes(of: entity).first(where: { $0.name == key }) {
            if a.isOptional { add("\(entity.name).\(a.name) is optional") }
            break
          }
          guard let r = model.allRelationships(of: entity).first(where: { $0.name == key }), !r.isToMany,
            let next = model.entity(named: r.destinationEntity)
          else { break }
          if r.isOptional { add("\(entity.name).\(r.name) is optional") }
          entity = next
        }
      }
      if case .selector(let target, let selector, _) = x.kind, case .variable("entityPolicy") = target.kind {
        switch selector {
        case "dateFromString:format:", "dateFromString:format:timeZone:":
          add("\(selector) gives nil for text that does not match the format")
        case "numberFromString:":
          add("numberFromString: gives nil for text that is not a number")
        default: break
        }
      }
    }
    return reasons
  }
}
