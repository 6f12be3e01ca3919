import MapCompiler
import MapRuntime
import MapSyntax

/// What the lint rules see of one mapping file: the document as read, both models, and every
/// entity mapping compiled as far as it goes (a mapping with errors in some expressions still
/// has the rest), with the static types the compiler works out.
struct LintContext {
  let document: MappingDocument
  let models: MappingCompiler.Models
  /// Property lookups over both models, built once per file.
  let index: ModelIndex
  let mappings: [DraftMapping]
  let infos: [String: TypeChecker.MappingInfo]

  var source: ObjectModel { models.source }
  var destination: ObjectModel { models.destination }

  init(document: MappingDocument, models: MappingCompiler.Models) {
    let index = ModelIndex(source: models.source, destination: models.destination)
    self.index = index
    self.document = document
    self.models = models
    var infos: [String: TypeChecker.MappingInfo] = [:]
    for e in document.entityMappings {
      let name = e.name?.value ?? MappingCompiler.defaultName(e)
      if infos[name] == nil {
        infos[name] = TypeChecker.MappingInfo(
          name: name, source: e.source?.value, destination: e.destination?.value, fansOut: e.forEach != nil)
      }
    }
    self.infos = infos
    var seen: Set<String> = []
    var drafts: [DraftMapping] = []
    for e in document.entityMappings {
      let name = e.name?.value ?? MappingCompiler.defaultName(e)
      let duplicate = !seen.insert(name).inserted
      var compiler = MappingCompiler(document: document, models: models, index: index)
      let compiled = duplicate ? nil : compiler.compileEntityMapping(e, infos: infos)
      var itemType: Typed?
      if let text = e.forEach, let info = infos[name],
        let (_, t) = Self.typed(
          text, info: info, hasPolicy: !(e.policy?.value ?? "").isEmpty, itemType: nil, relationship: nil,
          models: models, index: index, infos: infos)
      {
        itemType = Typed(t.type.elementType, mayBeNil: true)
      }
      drafts.append(
        DraftMapping(
          element: e, name: name, compiled: compiled, isDuplicate: duplicate,
          sourceEntity: e.source.flatMap { models.source.entity(named: $0.value) },
          destinationEntity: e.destination.flatMap { models.destination.entity(named: $0.value) },
          itemType: itemType))
    }
    self.mappings = drafts
  }

  private static func typed(
    _ text: ExpressionText, info: TypeChecker.MappingInfo, hasPolicy: Bool, itemType: Typed?,
    relationship: RelationshipDescription?, models: MappingCompiler.Models, index: ModelIndex,
    infos: [String: TypeChecker.MappingInfo]
  ) -> (Expression, Typed)? {
    guard case .success(let e) = ExpressionParsing.parseExpression(text.text) else { return nil }
    var checker = TypeChecker(
      source: models.source, destination: models.destination, index: index, mappings: infos, mapping: info,
      hasPolicy: hasPolicy,
      itemType: itemType, relationship: relationship, text: text)
    let t = checker.check(e)
    return (e, t)
  }

  /// Parses an expression of a mapping and works out its static type, as the compiler does.
  /// Nil when it does not parse (the compiler has reported that).
  func typed(_ text: ExpressionText, in m: DraftMapping, relationship: RelationshipDescription? = nil) -> (
    Expression, Typed
  )? {
    guard let info = infos[m.name] else { return nil }
    return Self.typed(
      text, info: info, hasPolicy: m.hasPolicy, itemType: m.itemType, relationship: relationship, models: models,
      index: index, infos: infos)
  }

  /// The location of the first non-blank character of an expression.
  func start(of text: ExpressionText) -> SourceLocation {
    let blank = text.text.utf8.prefix { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }.count
    return text.location(ofOffset: blank)
  }

  /// Entity mappings that create instances of `entity` (or of an entity that inherits from it).
  func producers(of entity: String) -> [DraftMapping] {
    mappings.filter { m in
      guard let d = m.element.destination?.value, !m.isDuplicate else { return false }
      return destination.isKind(d, of: entity)
    }
  }

  /// Attribute mappings of a draft, explicit and implicit, as (destination attribute, the
  /// element when explicit, the compiled expression).
  func attributeMappings(of m: DraftMapping) -> [(AttributeDescription, PropertyElement?, CompiledExpression?)] {
    guard let d = m.destinationEntity else { return [] }
    var result: [(AttributeDescription, PropertyElement?, CompiledExpression?)] = []
    for a in destination.allAttributes(of: d) {
      let element = m.element.attributes.first { $0.name.value == a.name }
      let compiled = m.compiled?.attributeMappings.first { $0.name == a.name }?.valueExpression
      if element != nil || compiled != nil { result.append((a, element, compiled)) }
    }
    return result
  }
}

/// One `<entityMapping>`, compiled as far as it goes.
struct DraftMapping {
  let element: EntityMappingElement
  let name: String
  /// Nil for a duplicate name.
  let compiled: EntityMapping?
  let isDuplicate: Bool
  let sourceEntity: EntityDescription?
  let destinationEntity: EntityDescription?
  /// `$item`'s type inside a `forEach` mapping.
  var itemType: Typed?

  var hasPolicy: Bool { !(element.policy?.value ?? "").isEmpty }
  var type: EntityMappingType? { compiled?.type }

  func attributeElement(_ name: String) -> PropertyElement? { element.attributes.first { $0.name.value == name } }
  func relationshipElement(_ name: String) -> PropertyElement? { element.relationships.first { $0.name.value == name } }

  /// True when the mapping gives the destination relationship a value (explicitly or through
  /// Xcode's implicit `destinationInstancesForSourceRelationshipNamed:`).
  func setsRelationship(_ name: String) -> Bool {
    relationshipElement(name) != nil || compiled?.relationshipMappings.contains { $0.name == name } == true
  }

  /// Every expression written in the element, with its text.
  var texts: [ExpressionText] {
    var result: [ExpressionText] = []
    if let t = element.sourceExpression { result.append(t) }
    if let t = element.filter { result.append(t) }
    if let t = element.forEach { result.append(t) }
    for p in element.attributes + element.relationships { if let t = p.expression { result.append(t) } }
    return result
  }
}
