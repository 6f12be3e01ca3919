import MapRuntime

/// Encoding of the model types, one function per type, fields in declaration order
/// (`Specs/plan-format.md` §6). Keep in step with `PlanReader+Model.swift` in MapRuntime.
extension PlanEncoder {
  mutating func objectModel(_ m: ObjectModel) {
    array(m.entities) { e, x in e.entity(x) }
    stringArray(m.versionIdentifiers)
    array(m.fetchRequestTemplates) { e, x in e.fetchRequest(x) }
    array(m.configurations) { e, x in e.configuration(x) }
    optionalString(m.versionName)
    optionalString(sourcePositions ? m.path.map { path($0) } : nil)
  }

  mutating func entity(_ x: EntityDescription) {
    string(x.name)
    optionalString(x.className)
    optionalString(x.parentName)
    bool(x.isAbstract)
    optionalString(x.renamingIdentifier)
    optionalString(x.versionHashModifier)
    userInfo(x.userInfo)
    array(x.attributes) { e, a in e.attribute(a) }
    array(x.relationships) { e, r in e.relationship(r) }
    array(x.fetchedProperties) { e, f in e.fetchedProperty(f) }
    array(x.uniquenessConstraints) { e, c in e.stringArray(c) }
    array(x.compoundIndexes) { e, c in e.stringArray(c) }
    array(x.fetchIndexes) { e, i in e.fetchIndex(i) }
    optionalLocation(x.location)
  }

  mutating func attribute(_ x: AttributeDescription) {
    string(x.name)
    out.writeU8(x.type.planTag)
    bool(x.isOptional)
    bool(x.isTransient)
    bool(x.isDerived)
    optionalString(x.derivationExpression)
    optionalString(x.defaultValueString)
    optional(x.defaultValue) { e, c in e.modelConstant(c) }
    optionalString(x.minValueString)
    optionalString(x.maxValueString)
    optional(x.minValue) { e, c in e.modelConstant(c) }
    optional(x.maxValue) { e, c in e.modelConstant(c) }
    optionalString(x.regularExpression)
    bool(x.allowsExternalBinaryDataStorage)
    bool(x.preservesValueInHistoryOnDeletion)
    bool(x.allowsCloudEncryption)
    optionalString(x.valueTransformerName)
    optionalString(x.customClassName)
    bool(x.isIndexed)
    bool(x.isIndexedBySpotlight)
    bool(x.isStoredInExternalRecord)
    optionalString(x.renamingIdentifier)
    optionalString(x.versionHashModifier)
    userInfo(x.userInfo)
    optionalLocation(x.location)
  }

  mutating func modelConstant(_ c: ModelConstant) {
    typealias Tag = PlanFormat.ModelConstantTag
    switch c {
    case .integer(let v):
      out.writeU8(Tag.integer.rawValue)
      out.writeVarInt(v)
    case .double(let v):
      out.writeU8(Tag.double.rawValue)
      out.writeDouble(v)
    case .decimal(let v):
      out.writeU8(Tag.decimal.rawValue)
      string(v)
    case .boolean(let v):
      out.writeU8(Tag.boolean.rawValue)
      bool(v)
    case .string(let v):
      out.writeU8(Tag.string.rawValue)
      string(v)
    case .date(let v):
      out.writeU8(Tag.date.rawValue)
      out.writeDouble(v)
    case .binary(let v):
      out.writeU8(Tag.binary.rawValue)
      out.writeBytes(v)
    }
  }

  mutating func relationship(_ x: RelationshipDescription) {
    string(x.name)
    string(x.destinationEntity)
    optionalString(x.inverseName)
    optionalString(x.inverseEntity)
    bool(x.isOptional)
    bool(x.isTransient)
    bool(x.isToMany)
    bool(x.isOrdered)
    int(x.minCount)
    int(x.maxCount)
    out.writeU8(x.deleteRule.planTag)
    optionalString(x.renamingIdentifier)
    optionalString(x.versionHashModifier)
    userInfo(x.userInfo)
    optionalLocation(x.location)
  }

  mutating func fetchedProperty(_ x: FetchedPropertyDescription) {
    string(x.name)
    bool(x.isOptional)
    fetchRequest(x.fetchRequest)
    userInfo(x.userInfo)
    optionalLocation(x.location)
  }

  mutating func fetchRequest(_ x: FetchRequestTemplate) {
    string(x.name)
    string(x.entity)
    optionalString(x.predicateString)
    out.writeU8(x.resultType.planTag)
    int(x.fetchLimit)
    int(x.fetchBatchSize)
    bool(x.includesSubentities)
    bool(x.includesPropertyValues)
    bool(x.includesPendingChanges)
    bool(x.returnsObjectsAsFaults)
    bool(x.returnsDistinctResults)
    optionalLocation(x.location)
  }

  mutating func configuration(_ x: ModelConfiguration) {
    string(x.name)
    stringArray(x.memberEntities)
  }

  mutating func fetchIndex(_ x: FetchIndexDescription) {
    string(x.name)
    array(x.elements) { e, el in e.fetchIndexElement(el) }
    optionalString(x.partialIndexPredicate)
  }

  mutating func fetchIndexElement(_ x: FetchIndexDescription.Element) {
    string(x.property)
    string(x.type)
    bool(x.ascending)
  }

  mutating func userInfo(_ x: UserInfo) {
    array(x.entries) { e, entry in
      e.string(entry.key)
      e.string(entry.value)
    }
  }

  mutating func optionalLocation(_ x: SourceLocation?) {
    optional(sourcePositions ? x : nil) { e, l in e.location(l) }
  }

  mutating func location(_ x: SourceLocation) {
    let x = sourcePositions ? x : SourceLocation(file: "", line: 0, column: 0)
    string(path(x.file))
    int(x.line)
    int(x.column)
  }
}
