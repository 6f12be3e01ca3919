/// Decoding of the model types, one function per type, fields in declaration order
/// (`Specs/plan-format.md` §6). Keep in step with `PlanWriter+Model.swift` in MapCompiler.
extension PlanDecoder {
  mutating func objectModel() throws(BinaryReadError) -> ObjectModel {
    let start = r.offset
    let entities = try array("entities") { (d) throws(BinaryReadError) in try d.entity() }
    // Object references keep an entity in 16 bits where they share a word (see `IDIndex`).
    guard entities.count <= ObjectModel.maximumEntityCount else {
      throw r.error(
        "a model holds at most \(ObjectModel.maximumEntityCount) entities, not \(entities.count)", at: start)
    }
    let versionIdentifiers = try stringArray("version identifiers")
    let templates = try array("fetch request templates") { (d) throws(BinaryReadError) in
      try d.fetchRequest()
    }
    let configurations = try array("configurations") { (d) throws(BinaryReadError) in
      try d.configuration()
    }
    let versionName = try optionalString("model version name")
    let path = try optionalString("model path").map { self.path($0) }
    return ObjectModel(
      entities: entities, versionIdentifiers: versionIdentifiers,
      fetchRequestTemplates: templates, configurations: configurations,
      versionName: versionName, path: path)
  }

  mutating func entity() throws(BinaryReadError) -> EntityDescription {
    let name = try string("entity name")
    let className = try optionalString("entity class name")
    let parentName = try optionalString("parent entity name")
    let isAbstract = try bool("isAbstract")
    let renamingIdentifier = try optionalString("renaming identifier")
    let versionHashModifier = try optionalString("version hash modifier")
    let userInfo = try userInfo()
    let attributes = try array("attributes") { (d) throws(BinaryReadError) in try d.attribute() }
    let relationships = try array("relationships") { (d) throws(BinaryReadError) in
      try d.relationship()
    }
    let fetchedProperties = try array("fetched properties") { (d) throws(BinaryReadError) in
      try d.fetchedProperty()
    }
    let uniquenessConstraints = try array("uniqueness constraints") {
      (d) throws(BinaryReadError) in try d.stringArray("constraint properties")
    }
    let compoundIndexes = try array("compound indexes") { (d) throws(BinaryReadError) in
      try d.stringArray("index properties")
    }
    let fetchIndexes = try array("fetch indexes") { (d) throws(BinaryReadError) in
      try d.fetchIndex()
    }
    let location = try optionalLocation()
    return EntityDescription(
      name: name, className: className, parentName: parentName, isAbstract: isAbstract,
      renamingIdentifier: renamingIdentifier, versionHashModifier: versionHashModifier,
      userInfo: userInfo, attributes: attributes, relationships: relationships,
      fetchedProperties: fetchedProperties, uniquenessConstraints: uniquenessConstraints,
      compoundIndexes: compoundIndexes, fetchIndexes: fetchIndexes, location: location)
  }

  mutating func attribute() throws(BinaryReadError) -> AttributeDescription {
    let name = try string("attribute name")
    let type = try tag("attribute type", AttributeType.init(planTag:))
    let isOptional = try bool("isOptional")
    let isTransient = try bool("isTransient")
    let isDerived = try bool("isDerived")
    let derivationExpression = try optionalString("derivation expression")
    let defaultValueString = try optionalString("default value string")
    let defaultValue = try optionalModelConstant("default value")
    let minValueString = try optionalString("minimum value string")
    let maxValueString = try optionalString("maximum value string")
    let minValue = try optionalModelConstant("minimum value")
    let maxValue = try optionalModelConstant("maximum value")
    let regularExpression = try optionalString("regular expression")
    let allowsExternalBinaryDataStorage = try bool("allowsExternalBinaryDataStorage")
    let preservesValueInHistoryOnDeletion = try bool("preservesValueInHistoryOnDeletion")
    let allowsCloudEncryption = try bool("allowsCloudEncryption")
    let valueTransformerName = try optionalString("value transformer name")
    let customClassName = try optionalString("custom class name")
    let isIndexed = try bool("isIndexed")
    let isIndexedBySpotlight = try bool("isIndexedBySpotlight")
    let isStoredInExternalRecord = try bool("isStoredInExternalRecord")
    let renamingIdentifier = try optionalString("renaming identifier")
    let versionHashModifier = try optionalString("version hash modifier")
    let userInfo = try userInfo()
    let location = try optionalLocation()
    return AttributeDescription(
      name: name, type: type, isOptional: isOptional, isTransient: isTransient,
      isDerived: isDerived, derivationExpression: derivationExpression,
      defaultValueString: defaultValueString, defaultValue: defaultValue,
      minValueString: minValueString, maxValueString: maxValueString, minValue: minValue,
      maxValue: maxValue, regularExpression: regularExpression,
      allowsExternalBinaryDataStorage: allowsExternalBinaryDataStorage,
      preservesValueInHistoryOnDeletion: preservesValueInHistoryOnDeletion,
      allowsCloudEncryption: allowsCloudEncryption, valueTransformerName: valueTransformerName,
      customClassName: customClassName, isIndexed: isIndexed,
      isIndexedBySpotlight: isIndexedBySpotlight, isStoredInExternalRecord: isStoredInExternalRecord,
      renamingIdentifier: renamingIdentifier, versionHashModifier: versionHashModifier,
      userInfo: userInfo, location: location)
  }

  mutating func optionalModelConstant(_ what: String) throws(BinaryReadError) -> ModelConstant? {
    try optional(what) { (d) throws(BinaryReadError) in try d.modelConstant(what) }
  }

  mutating func modelConstant(_ what: String) throws(BinaryReadError) -> ModelConstant {
    switch try tag(what, PlanFormat.ModelConstantTag.init(rawValue:)) {
    case .integer: return .integer(try r.readVarInt("integer \(what)"))
    case .double: return .double(try r.readDouble("double \(what)"))
    case .decimal: return .decimal(try string("decimal \(what)"))
    case .boolean: return .boolean(try bool("boolean \(what)"))
    case .string: return .string(try string("string \(what)"))
    case .date: return .date(try r.readDouble("date \(what)"))
    case .binary: return .binary(try r.readBytes("binary \(what)"))
    }
  }

  mutating func relationship() throws(BinaryReadError) -> RelationshipDescription {
    let name = try string("relationship name")
    let destinationEntity = try string("destination entity")
    let inverseName = try optionalString("inverse name")
    let inverseEntity = try optionalString("inverse entity")
    let isOptional = try bool("isOptional")
    let isTransient = try bool("isTransient")
    let isToMany = try bool("isToMany")
    let isOrdered = try bool("isOrdered")
    let minCount = try int("minCount")
    let maxCount = try int("maxCount")
    let deleteRule = try tag("delete rule", DeleteRule.init(planTag:))
    let renamingIdentifier = try optionalString("renaming identifier")
    let versionHashModifier = try optionalString("version hash modifier")
    let userInfo = try userInfo()
    let location = try optionalLocation()
    return RelationshipDescription(
      name: name, destinationEntity: destinationEntity, inverseName: inverseName,
      inverseEntity: inverseEntity, isOptional: isOptional, isTransient: isTransient,
      isToMany: isToMany, isOrdered: isOrdered, minCount: minCount, maxCount: maxCount,
      deleteRule: deleteRule, renamingIdentifier: renamingIdentifier,
      versionHashModifier: versionHashModifier, userInfo: userInfo, location: location)
  }

  mutating func fetchedProperty() throws(BinaryReadError) -> FetchedPropertyDescription {
    let name = try string("fetched property name")
    let isOptional = try bool("isOptional")
    let fetchRequest = try fetchRequest()
    let userInfo = try userInfo()
    let location = try optionalLocation()
    return FetchedPropertyDescription(
      name: name, isOptional: isOptional, fetchRequest: fetchRequest, userInfo: userInfo,
      location: location)
  }

  mutating func fetchRequest() throws(BinaryReadError) -> FetchRequestTemplate {
    let name = try string("fetch request name")
    let entity = try string("fetch request entity")
    let predicateString = try optionalString("fetch request predicate")
    let resultType = try tag("fetch result type", FetchRequestTemplate.ResultType.init(planTag:))
    let fetchLimit = try int("fetchLimit")
    let fetchBatchSize = try int("fetchBatchSize")
    let includesSubentities = try bool("includesSubentities")
    let includesPropertyValues = try bool("includesPropertyValues")
    let includesPendingChanges = try bool("includesPendingChanges")
    let returnsObjectsAsFaults = try bool("returnsObjectsAsFaults")
    let returnsDistinctResults = try bool("returnsDistinctResults")
    let location = try optionalLocation()
    return FetchRequestTemplate(
      name: name, entity: entity, predicateString: predicateString, resultType: resultType,
      fetchLimit: fetchLimit, fetchBatchSize: fetchBatchSize,
      includesSubentities: includesSubentities, includesPropertyValues: includesPropertyValues,
      includesPendingChanges: includesPendingChanges,
      returnsObjectsAsFaults: returnsObjectsAsFaults,
      returnsDistinctResults: returnsDistinctResults, location: location)
  }

  mutating func configuration() throws(BinaryReadError) -> ModelConfiguration {
    let name = try string("configuration name")
    let members = try stringArray("configuration member entities")
    return ModelConfiguration(name: name, memberEntities: members)
  }

  mutating func fetchIndex() throws(BinaryReadError) -> FetchIndexDescription {
    let name = try string("fetch index name")
    let elements = try array("fetch index elements") { (d) throws(BinaryReadError) in
      try d.fetchIndexElement()
    }
    let partialIndexPredicate = try optionalString("partial index predicate")
    return FetchIndexDescription(
      name: name, elements: elements, partialIndexPredicate: partialIndexPredicate)
  }

  mutating func fetchIndexElement() throws(BinaryReadError) -> FetchIndexDescription.Element {
    let property = try string("fetch index property")
    let type = try string("fetch index type")
    let ascending = try bool("ascending")
    return FetchIndexDescription.Element(property: property, type: type, ascending: ascending)
  }

  mutating func userInfo() throws(BinaryReadError) -> UserInfo {
    UserInfo(
      try array("user info entries") { (d) throws(BinaryReadError) in
        UserInfo.Entry(key: try d.string("user info key"), value: try d.string("user info value"))
      })
  }

  mutating func optionalLocation() throws(BinaryReadError) -> SourceLocation? {
    try optional("source location") { (d) throws(BinaryReadError) in try d.location() }
  }

  mutating func location() throws(BinaryReadError) -> SourceLocation {
    let file = path(try string("source file"))
    let line = try int("line")
    let column = try int("column")
    return SourceLocation(file: file, line: line, column: column)
  }
}
