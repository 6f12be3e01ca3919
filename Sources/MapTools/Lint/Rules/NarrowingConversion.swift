import MapRuntime
import MapSyntax

/// `lint-narrowing-conversion`: a source attribute's value goes into a destination attribute
/// of a type that cannot hold every value.
struct NarrowingConversion: LintCheck {
  static let counter16 = """
    <entity name="Counter" representedClassName="Counter" syncable="YES">
        <attribute name="hits" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
    </entity>
    """

  static let rule = LintRule(
    id: "lint-narrowing-conversion", severity: .warning,
    title: "An attribute type narrowing that can lose data",
    explanation: """
      Core Data converts numbers between attribute types without complaint: an Integer 64 \
      value that does not fit in Integer 16 is truncated or rejected on some devices only, a \
      Double loses its fraction in an Integer attribute, a Decimal or Double loses digits in a \
      Float, any non-zero number becomes YES in a Boolean, and a String read as a number \
      (numberFromString:, intValue, CAST to NSNumber) gives nil or 0 for text that is not one. \
      The check looks at values taken straight from a source attribute, through an explicit \
      $source key path or Xcode's implicit same-name mapping. Integer narrowing is not \
      reported when the source attribute's minimum and maximum values fit the destination \
      type. Widen the destination attribute, bound the source attribute, or convert \
      explicitly and suppress the finding with the reason.
      """,
    suppression: "on the <attribute> element (implicit mappings: on the <entityMapping> element)",
    bad: LintExample(
      source: """
        <entity name="Counter" representedClassName="Counter" syncable="YES">
            <attribute name="hits" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
        </entity>
        """,
      destination: counter16,
      mapping: exampleMapping(
        """
          <entityMapping name="CounterToCounter" type="transform" source="Counter" destination="Counter">
            <attribute name="hits">‸$source.hits</attribute>
          </entityMapping>
        """)),
    good: LintExample(
      source: """
        <entity name="Counter" representedClassName="Counter" syncable="YES">
            <attribute name="hits" attributeType="Integer 64" minValueString="0" maxValueString="32767" defaultValueString="0" usesScalarValueType="YES"/>
        </entity>
        """,
      destination: counter16,
      mapping: exampleMapping(
        """
          <entityMapping name="CounterToCounter" type="transform" source="Counter" destination="Counter">
            <attribute name="hits">$source.hits</attribute>
          </entityMapping>
        """)))

  /// Where a value comes from.
  private enum Origin {
    case attribute(EntityDescription, AttributeDescription)
    /// A String attribute read as a number.
    case stringAsNumber(EntityDescription, AttributeDescription, how: String)
  }

  func findings(in context: LintContext) -> [Diagnostic] {
    var result: [Diagnostic] = []
    for m in context.mappings {
      guard let d = m.destinationEntity, m.type != .remove else { continue }
      for (a, element, compiled) in context.attributeMappings(of: m) where !a.isTransient && !a.isDerived {
        let expr: Expression
        let at: SourceLocation
        if let element {
          guard let text = element.expression, case .success(let e) = ExpressionParsing.parseExpression(text.text)
          else { continue }
          expr = e
          at = context.start(of: text)
        } else if let e = compiled?.expression {
          expr = e
          at = m.element.location
        } else {
          continue
        }
        guard let origin = origin(of: expr, context: context, mapping: m) else { continue }
        let implicit = element == nil ? " (implicit same-name mapping)" : ""
        switch origin {
        case .attribute(let se, let sa):
          guard let loss = Self.loss(from: sa, to: a.type) else { continue }
          result.append(
            Self.rule.finding(
              "\(se.name).\(sa.name) (\(sa.type.rawValue)) goes into \(d.name).\(a.name) (\(a.type.rawValue))\(implicit), which can lose data: \(loss); widen the destination attribute, bound the source attribute, or convert explicitly",
              at: at))
        case .stringAsNumber(let se, let sa, let how):
          guard a.type.isNumeric || a.type == .boolean else { continue }
          result.append(
            Self.rule.finding(
              "\(se.name).\(sa.name) is a String read as a number (\(how)) for \(d.name).\(a.name) (\(a.type.rawValue)), which can lose data: text that is not a number gives nil or 0",
              at: at))
        }
      }
    }
    return result
  }

  private func origin(of e: Expression, context: LintContext, mapping m: DraftMapping) -> Origin? {
    switch e.kind {
    case .keyPath:
      guard let path = ExpressionWalk.sourceKeyPath(e), let start = m.sourceEntity else { return nil }
      var entity = start
      for (i, key) in path.enumerated() {
        let model = context.source
        if let a = model.allAttributes(of: entity).first(where: { $0.name == key }) {
          let rest = path.dropFirst(i + 1)
          if rest.isEmpty { return .attribute(entity, a) }
          let conversions: Set<String> = [
            "intValue", "integerValue", "longLongValue", "doubleValue", "floatValue", "boolValue",
          ]
          if a.type == .string, rest.count == 1, let c = rest.first, conversions.contains(c) {
            return .stringAsNumber(entity, a, how: c)
          }
          return nil
        }
        guard let r = model.allRelationships(of: entity).first(where: { $0.name == key }), !r.isToMany,
          let next = model.entity(named: r.destinationEntity)
        else { return nil }
        entity = next
      }
      return nil
    case .selector(let target, "numberFromString:", let args):
      guard case .variable("entityPolicy") = target.kind, let arg = args.first,
        case .attribute(let se, let sa)? = origin(of: arg, context: context, mapping: m), sa.type == .string
      else { return nil }
      return .stringAsNumber(se, sa, how: "numberFromString:")
    case .cast(let value, let type) where type == "NSNumber" || type == "NSDecimalNumber":
      guard case .attribute(let se, let sa)? = origin(of: value, context: context, mapping: m), sa.type == .string
      else { return nil }
      return .stringAsNumber(se, sa, how: "CAST to \(type)")
    default:
      return nil
    }
  }

  /// How a value of the source attribute can be lost in the destination type; nil when it
  /// cannot.
  static func loss(from source: AttributeDescription, to d: AttributeType) -> String? {
    let s = source.type
    func width(_ t: AttributeType) -> Int {
      switch t {
      case .integer16: 16
      case .integer32: 32
      default: 64
      }
    }
    switch (s, d) {
    case _ where s.isInteger && d.isInteger:
      guard width(d) < width(s), let range = d.integerRange else { return nil }
      if case .integer(let lo)? = source.minValue, case .integer(let hi)? = source.maxValue, range.contains(lo),
        range.contains(hi)
      {
        return nil
      }
      return "values outside \(range.lowerBound)…\(range.upperBound) do not fit in \(d.rawValue)"
    case (.double, _) where d.isInteger, (.float, _) where d.isInteger, (.decimal, _) where d.isInteger:
      return "the fraction is dropped and large values do not fit"
    case (.double, .float):
      return "Float keeps about 7 significant digits of Double's 15 to 17"
    case (.decimal, .double), (.decimal, .float):
      return "\(d.rawValue) keeps fewer digits than Decimal's 38"
    case (.integer64, .double):
      return "integers beyond ±2^53 lose precision in a Double"
    case (.integer64, .float), (.integer32, .float):
      return "integers beyond ±2^24 lose precision in a Float"
    case (_, .boolean) where s.isNumeric:
      return "every non-zero value becomes YES"
    default:
      return nil
    }
  }
}
