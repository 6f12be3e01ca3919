import MapRuntime

/// Encoding of the plan's own types, one function per type (`Specs/plan-format.md` §7).
/// Keep in step with `PlanReader+Mapping.swift` in MapRuntime.
extension PlanEncoder {
  mutating func entityHash(_ x: EntityHash) {
    string(x.entity)
    out.writeBytes(x.hash)
  }

  mutating func entityMapping(_ x: EntityMapping) {
    string(x.name)
    out.writeU8(x.type.planTag)
    optionalString(x.sourceEntity)
    optionalString(x.destinationEntity)
    optionalString(x.policyName)
    userInfo(x.userInfo)
    optional(x.sourceExpression) { e, c in e.compiledExpression(c) }
    optional(x.forEach) { e, c in e.compiledExpression(c) }
    array(x.attributeMappings) { e, p in e.propertyMapping(p) }
    array(x.relationshipMappings) { e, p in e.propertyMapping(p) }
    optionalLocation(x.location)
  }

  mutating func propertyMapping(_ x: PropertyMapping) {
    string(x.name)
    optional(x.valueExpression) { e, c in e.compiledExpression(c) }
    userInfo(x.userInfo)
    optionalLocation(x.location)
  }

  mutating func compiledExpression(_ x: CompiledExpression) {
    expression(x.expression)
    optional(sourcePositions ? x.source : nil) { e, s in e.expressionSource(s) }
  }

  mutating func expressionSource(_ x: ExpressionSource) {
    string(x.text)
    location(x.location)
  }
}
