/// Decoding of the plan's own types, one function per type (`Specs/plan-format.md` §7).
/// Keep in step with `PlanWriter+Mapping.swift` in MapCompiler.
extension PlanDecoder {
  mutating func entityHash() throws(BinaryReadError) -> EntityHash {
    let entity = try string("hashed entity name")
    let hash = try r.readBytes("entity version hash")
    return EntityHash(entity: entity, hash: hash)
  }

  mutating func entityMapping() throws(BinaryReadError) -> EntityMapping {
    let name = try string("entity mapping name")
    let type = try tag("entity mapping type", EntityMappingType.init(planTag:))
    let sourceEntity = try optionalString("source entity")
    let destinationEntity = try optionalString("destination entity")
    let policyName = try optionalString("policy name")
    let userInfo = try userInfo()
    let sourceExpression = try optionalCompiledExpression("source expression")
    let forEach = try optionalCompiledExpression("forEach expression")
    let attributeMappings = try array("attribute mappings") { (d) throws(BinaryReadError) in
      try d.propertyMapping()
    }
    let relationshipMappings = try array("relationship mappings") { (d) throws(BinaryReadError) in
      try d.propertyMapping()
    }
    let location = try optionalLocation()
    return EntityMapping(
      name: name, type: type, sourceEntity: sourceEntity, destinationEntity: destinationEntity,
      policyName: policyName, userInfo: userInfo, sourceExpression: sourceExpression,
      forEach: forEach, attributeMappings: attributeMappings,
      relationshipMappings: relationshipMappings, location: location)
  }

  mutating func propertyMapping() throws(BinaryReadError) -> PropertyMapping {
    let name = try string("property mapping name")
    let valueExpression = try optionalCompiledExpression("value expression")
    let userInfo = try userInfo()
    let location = try optionalLocation()
    return PropertyMapping(
      name: name, valueExpression: valueExpression, userInfo: userInfo, location: location)
  }

  mutating func optionalCompiledExpression(_ what: String) throws(BinaryReadError)
    -> CompiledExpression?
  {
    try optional(what) { (d) throws(BinaryReadError) in try d.compiledExpression() }
  }

  mutating func compiledExpression() throws(BinaryReadError) -> CompiledExpression {
    let expression = try expression()
    let source = try optional("expression source") { (d) throws(BinaryReadError) in
      try d.expressionSource()
    }
    return CompiledExpression(expression, source: source)
  }

  mutating func expressionSource() throws(BinaryReadError) -> ExpressionSource {
    let text = try string("expression text")
    let location = try location()
    return ExpressionSource(text: text, location: location)
  }
}
