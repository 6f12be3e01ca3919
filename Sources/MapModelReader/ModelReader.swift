import MapRuntime
import MapSyntax

/// An entity as read, with the XML elements it came from, so that checks can point at the
/// exact attribute at fault.
struct EntitySource {
  var element: XML.Element
  /// Parallel to the entity's `attributes`, `relationships` and `fetchedProperties`.
  var attributeElements: [XML.Element] = []
  var relationshipElements: [XML.Element] = []
  var fetchedPropertyElements: [XML.Element] = []

  /// The element of the own property named `name` (attribute, relationship or fetched property).
  func propertyElement(named name: String, in entity: EntityDescription) -> XML.Element? {
    if let i = entity.attributes.firstIndex(where: { $0.name == name }) { return attributeElements[i] }
    if let i = entity.relationships.firstIndex(where: { $0.name == name }) {
      return relationshipElements[i]
    }
    if let i = entity.fetchedProperties.firstIndex(where: { $0.name == name }) {
      return fetchedPropertyElements[i]
    }
    return nil
  }
}

/// Turns the `<model>` XML of an Xcode data model (`contents`) into an `ObjectModel`.
///
/// Reads every attribute listed in `Specs/model-input.md` §3 and ignores the others (and the
/// diagram `<elements>`), so files from every Xcode version since 4 are read alike. Problems
/// that concern one element (missing or malformed attributes) are reported here; problems
/// between elements are `ModelChecker`'s.
struct ModelReader {
  private(set) var diagnostics: [Diagnostic] = []
  /// Model-level `<composite name="…">` definitions, for attributes that name one
  /// (`composite="…"`) instead of listing their `<element>`s (§3.1).
  private var compositeDefinitions: [String: XML.Element] = [:]
  /// The deepest composite (composites in composites) read.
  static let maximumCompositeDepth = 32

  mutating func read(_ document: XML.Document, versionName: String?) -> (
    ObjectModel, [EntitySource]
  ) {
    let root = document.root
    guard root.name == "model" else {
      diagnostics.append(
        .error(
          "model-root",
          "not a Core Data model: the root element is <\(root.name)>, expected <model>",
          at: root.location))
      return (ObjectModel(entities: []), [])
    }
    var entities: [EntityDescription] = []
    var sources: [EntitySource] = []
    var templates: [FetchRequestTemplate] = []
    var configurations: [ModelConfiguration] = []
    for definition in root.elements(named: "composite") {
      if let name = definition[attribute: "name"], compositeDefinitions[name] == nil {
        compositeDefinitions[name] = definition
      }
    }
    for element in root.elements {
      switch element.name {
      case "entity":
        if let (entity, source) = readEntity(element) {
          entities.append(entity)
          sources.append(source)
        }
      case "fetchRequest":
        if let t = readFetchRequest(element) { templates.append(t) }
      case "configuration":
        if let name = required(element, "name") {
          let members = element.elements(named: "memberEntity").compactMap { required($0, "name") }
          configurations.append(ModelConfiguration(name: name, memberEntities: members))
        }
      default:
        continue  // <elements> (diagram layout) and anything newer
      }
    }
    let identifiers = root[attribute: "userDefinedModelVersionIdentifier"].map { [$0] } ?? []
    let model = ObjectModel(
      entities: entities, versionIdentifiers: identifiers, fetchRequestTemplates: templates,
      configurations: configurations, versionName: versionName, path: document.path)
    return (model, sources)
  }

  // MARK: - Helpers

  /// The attribute's value, or a `model-missing-attribute` error.
  private mutating func required(_ element: XML.Element, _ name: String) -> String? {
    if let value = element[attribute: name] { return value }
    diagnostics.append(
      .error(
        "model-missing-attribute", "<\(element.name)> needs a '\(name)' attribute",
        at: element.location))
    return nil
  }

  /// Xcode writes booleans as `YES` (and rarely `NO`); anything else reads as false.
  private func flag(_ element: XML.Element, _ name: String, default value: Bool = false) -> Bool {
    element[attribute: name].map { ModelValueParser.boolean($0) ?? false } ?? value
  }

  /// An integer attribute; a `model-invalid-number` error when it is not one.
  private mutating func integer(_ element: XML.Element, _ name: String) -> Int? {
    guard let attribute = element.attribute(name) else { return nil }
    if let v = Int(attribute.value.trimmingXMLSpace) { return v }
    diagnostics.append(
      .error(
        "model-invalid-number", "'\(name)' must be an integer, not \"\(attribute.value)\"",
        at: attribute.valueLocation))
    return nil
  }

  private mutating func userInfo(_ element: XML.Element) -> UserInfo {
    var entries: [UserInfo.Entry] = []
    for info in element.elements(named: "userInfo") {
      for entry in info.elements(named: "entry") {
        guard let key = required(entry, "key") else { continue }
        entries.append(UserInfo.Entry(key: key, value: entry[attribute: "value"] ?? ""))
      }
    }
    return UserInfo(entries)
  }

  /// `<container><item><leaf value="…"/>…</item>…</container>` → [[values]].
  private func nestedValues(_ element: XML.Element, _ container: String, _ item: String, _ leaf: String)
    -> [[String]]
  {
    element.elements(named: container).flatMap { c in
      c.elements(named: item).map { i in i.elements(named: leaf).compactMap { $0[attribute: "value"] } }
    }
  }

  // MARK: - Entities

  private mutating func readEntity(_ element: XML.Element) -> (EntityDescription, EntitySource)? {
    guard let name = required(element, "name") else { return nil }
    var entity = EntityDescription(
      name: name,
      className: element[attribute: "representedClassName"],
      parentName: element[attribute: "parentEntity"],
      isAbstract: flag(element, "isAbstract"),
      renamingIdentifier: element[attribute: "elementID"],
      versionHashModifier: element[attribute: "versionHashModifier"],
      userInfo: userInfo(element),
      location: element.location)
    var source = EntitySource(element: element)
    for node in element.children {
      guard case .element(let child) = node else { continue }
      switch child.name {
      case "attribute":
        if let a = readAttribute(child) {
          entity.attributes.append(a)
          source.attributeElements.append(child)
        }
      case "relationship":
        if let r = readRelationship(child) {
          entity.relationships.append(r)
          source.relationshipElements.append(child)
        }
      case "fetchedProperty":
        if let f = readFetchedProperty(child) {
          entity.fetchedProperties.append(f)
          source.fetchedPropertyElements.append(child)
        }
      case "fetchIndex":
        if let i = readFetchIndex(child) { entity.fetchIndexes.append(i) }
      default:
        continue
      }
    }
    entity.uniquenessConstraints = nestedValues(
      element, "uniquenessConstraints", "uniquenessConstraint", "constraint")
    entity.compoundIndexes = nestedValues(element, "compoundIndexes", "compoundIndex", "index")
    // Xcode's model compiler marks an attribute indexed when a fetch index covers it alone, as
    // the store and the model cache show [real: DuckDuckGo's Bookmarks V2–V5, 1251 and 1333:
    // `byUUID` gives `NSIsIndexed` on `uuid` and both `Z_BookmarkEntity_uuid` and
    // `Z_BookmarkEntity_byUUID`; SwiftData's models, built at run time, are not marked].
    for f in entity.fetchIndexes where f.elements.count == 1 {
      if let k = entity.attributes.firstIndex(where: { $0.name == f.elements[0].property }) {
        entity.attributes[k].isIndexed = true
      }
    }
    return (entity, source)
  }

  private mutating func readAttribute(_ element: XML.Element, depth: Int = 0) -> AttributeDescription? {
    guard let name = required(element, "name") else { return nil }
    let isTransient = flag(element, "transient")
    // Xcode saves an attribute of type Undefined without `attributeType`; it allows that type
    // only for a transient attribute, as Core Data does (NSUndefinedAttributeType, 0).
    let typeName = element[attribute: "attributeType"] ?? AttributeType.undefined.rawValue
    if typeName == AttributeType.undefined.rawValue, !isTransient {
      let stated = element.attribute("attributeType") == nil ? "has no attributeType" : "is of type Undefined"
      diagnostics.append(
        .error(
          "model-untyped-attribute",
          "attribute '\(name)' \(stated); Core Data allows an attribute without a type (Undefined) only when it is transient: give it a type or make it transient",
          at: element.attribute("attributeType")?.valueLocation ?? element.location))
      return nil
    }
    guard let type = AttributeType(rawValue: typeName) else {
      let known = AttributeType.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      diagnostics.append(
        .error(
          "model-unknown-attribute-type",
          "unknown attributeType \"\(typeName)\" for attribute '\(name)' (expected one of \(known))",
          at: element.attribute("attributeType")!.valueLocation))
      return nil
    }
    var a = AttributeDescription(
      name: name, type: type,
      isOptional: flag(element, "optional"),
      isTransient: isTransient,
      isDerived: flag(element, "derived"),
      derivationExpression: element[attribute: "derivationExpression"],
      defaultValueString: element[attribute: "defaultValueString"],
      minValueString: element[attribute: "minValueString"],
      maxValueString: element[attribute: "maxValueString"],
      regularExpression: element[attribute: "regularExpressionString"],
      allowsExternalBinaryDataStorage: flag(element, "allowsExternalBinaryDataStorage"),
      preservesValueInHistoryOnDeletion: flag(element, "preserveAfterDeletion"),
      allowsCloudEncryption: flag(element, "allowsCloudEncryption"),
      valueTransformerName: element[attribute: "valueTransformerName"],
      customClassName: element[attribute: "customClassName"],
      isIndexed: flag(element, "indexed"),
      isIndexedBySpotlight: flag(element, "spotlightIndexingEnabled"),
      isStoredInExternalRecord: flag(element, "storedInTruthFile"),
      renamingIdentifier: element[attribute: "elementID"],
      versionHashModifier: element[attribute: "versionHashModifier"],
      userInfo: userInfo(element),
      location: element.location)
    if a.isDerived, a.derivationExpression == nil {
      _ = required(element, "derivationExpression")
    }
    if type == .composite {
      a.compositeElements = readCompositeElements(element, of: name, depth: depth)
    }
    a.defaultValue = typedValue(element, "defaultValueString", seconds: "defaultDateTimeInterval", a)
    if a.minValueString != nil || element.attribute("minDateTimeInterval") != nil {
      a.minValue = typedValue(element, "minValueString", seconds: "minDateTimeInterval", a)
    }
    if a.maxValueString != nil || element.attribute("maxDateTimeInterval") != nil {
      a.maxValue = typedValue(element, "maxValueString", seconds: "maxDateTimeInterval", a)
    }
    if let low = a.minValue, let high = a.maxValue, ModelValueParser.isOrdered(low, high) == false,
      let at = element.attribute("maxValueString") ?? element.attribute("maxDateTimeInterval")
    {
      diagnostics.append(
        .error(
          "model-invalid-bound",
          "attribute '\(name)': the maximum \"\(at.value)\" is less than the minimum",
          at: at.valueLocation))
    }
    return a
  }

  /// A default or bound parsed for the attribute's type. Dates prefer the seconds Xcode
  /// writes beside the text (`…DateTimeInterval`).
  private mutating func typedValue(
    _ element: XML.Element, _ textName: String, seconds secondsName: String,
    _ a: AttributeDescription
  ) -> ModelConstant? {
    let isDefault = textName == "defaultValueString"
    if a.type == .date, let seconds = element.attribute(secondsName) {
      if let value = ModelValueParser.double(seconds.value) { return .date(value) }
      diagnostics.append(
        .error(
          isDefault ? "model-invalid-default" : "model-invalid-bound",
          "'\(secondsName)' of attribute '\(a.name)' must be a number of seconds, not \"\(seconds.value)\"",
          at: seconds.valueLocation))
      return nil
    }
    guard let text = element.attribute(textName) else { return nil }
    let value =
      isDefault
      ? ModelValueParser.defaultValue(text.value, for: a.type)
      : ModelValueParser.bound(text.value, for: a.type)
    if isDefault, value == nil, let lenient = ModelValueParser.lenientNumber(text.value, for: a.type) {
      // Xcode compiles such a model and Core Data writes stores with it (apptentive's
      // "YES" for an Integer 32): never refuse it (Specs/sqlite-store.md, "Models").
      diagnostics.append(
        .warning(
          "model-lenient-default",
          "attribute '\(a.name)': default value \"\(text.value)\" is not a valid \(a.type.rawValue); mapc uses \(lenient.text), as Foundation's NSString integerValue or doubleValue reads the text (Xcode compiles the model; what its model compiler stores is not verified)",
          at: text.valueLocation))
      return lenient.value
    }
    if value == nil {
      let what: String
      if isDefault {
        what = "default value \"\(text.value)\" is not a valid \(a.type.rawValue)"
      } else if !ModelValueParser.hasBounds(a.type) {
        what = "\(a.type.rawValue) attributes cannot have a minimum or maximum"
      } else if a.type == .string || a.type == .binary {
        what = "\(textName) \"\(text.value)\" is not a valid length"
      } else {
        what = "\(textName) \"\(text.value)\" is not a valid \(a.type.rawValue)"
      }
      diagnostics.append(
        .error(
          isDefault ? "model-invalid-default" : "model-invalid-bound",
          "attribute '\(a.name)': \(what)", at: text.valueLocation))
    }
    return value
  }

  /// A Composite attribute's elements: its `<element>` children, else the `<attribute>`s of the
  /// model-level `<composite>` its `composite` attribute names; each read as an attribute, a
  /// Composite element in turn with its own elements.
  private mutating func readCompositeElements(_ element: XML.Element, of name: String, depth: Int)
    -> [AttributeDescription]
  {
    guard depth < Self.maximumCompositeDepth else {
      diagnostics.append(
        .error(
          "model-composite",
          "composite attribute '\(name)' nests composites deeper than \(Self.maximumCompositeDepth) levels",
          at: element.location))
      return []
    }
    var children = element.elements(named: "element")
    if children.isEmpty, let reference = element.attribute("composite") {
      guard let definition = compositeDefinitions[reference.value] else {
        diagnostics.append(
          .error(
            "model-composite",
            "composite attribute '\(name)' names the composite \"\(reference.value)\", which the model does not define",
            at: reference.valueLocation))
        return []
      }
      children = definition.elements(named: "attribute") + definition.elements(named: "element")
    }
    if children.isEmpty {
      diagnostics.append(
        .error(
          "model-composite",
          "composite attribute '\(name)' has no elements; list them as <element name=\"…\" attributeType=\"…\"/> inside the attribute",
          at: element.location))
    }
    var elements: [AttributeDescription] = []
    var seen: Set<String> = []
    for child in children {
      guard let e = readAttribute(child, depth: depth + 1) else { continue }
      if !seen.insert(e.name).inserted {
        diagnostics.append(
          .error(
            "model-composite", "composite attribute '\(name)' has two elements named '\(e.name)'",
            at: child.location))
        continue
      }
      elements.append(e)
    }
    return elements
  }

  private mutating func readRelationship(_ element: XML.Element) -> RelationshipDescription? {
    let name = required(element, "name")
    let destination = required(element, "destinationEntity")
    guard let name, let destination else { return nil }
    let toMany = flag(element, "toMany")
    let minCount = integer(element, "minCount") ?? 0
    let maxCount = integer(element, "maxCount") ?? (toMany ? 0 : 1)
    if !toMany, maxCount != 1, let attribute = element.attribute("maxCount") {
      diagnostics.append(
        .error(
          "model-to-one-max-count",
          "to-one relationship '\(name)' has maxCount \(maxCount); a to-one relationship's maxCount must be 1",
          at: attribute.valueLocation))
    }
    if minCount < 0 || maxCount < 0 || (maxCount > 0 && minCount > maxCount) {
      let at = element.attribute("minCount") ?? element.attribute("maxCount")
      diagnostics.append(
        .error(
          "model-invalid-count",
          "relationship '\(name)': minCount \(minCount) and maxCount \(maxCount) are not a valid range",
          at: at?.valueLocation ?? element.location))
    }
    var rule = DeleteRule.nullify
    if let ruleAttribute = element.attribute("deletionRule") {
      if let r = DeleteRule(rawValue: ruleAttribute.value) {
        rule = r
      } else {
        diagnostics.append(
          .error(
            "model-unknown-delete-rule",
            "unknown deletionRule \"\(ruleAttribute.value)\" (expected \"Nullify\", \"Cascade\", \"Deny\" or \"No Action\")",
            at: ruleAttribute.valueLocation))
      }
    }
    let inverseName = element[attribute: "inverseName"]
    return RelationshipDescription(
      name: name, destinationEntity: destination,
      inverseName: inverseName,
      inverseEntity: inverseName == nil ? nil : (element[attribute: "inverseEntity"] ?? destination),
      isOptional: flag(element, "optional"),
      isTransient: flag(element, "transient"),
      isToMany: toMany,
      isOrdered: flag(element, "ordered"),
      minCount: minCount, maxCount: maxCount,
      deleteRule: rule,
      renamingIdentifier: element[attribute: "elementID"],
      versionHashModifier: element[attribute: "versionHashModifier"],
      userInfo: userInfo(element),
      location: element.location)
  }

  private mutating func readFetchedProperty(_ element: XML.Element) -> FetchedPropertyDescription? {
    guard let name = required(element, "name") else { return nil }
    guard let requestElement = element.firstElement(named: "fetchRequest") else {
      diagnostics.append(
        .error(
          "model-missing-attribute", "fetched property '\(name)' needs a <fetchRequest>",
          at: element.location))
      return nil
    }
    guard let request = readFetchRequest(requestElement) else { return nil }
    return FetchedPropertyDescription(
      name: name, isOptional: flag(element, "optional"), fetchRequest: request,
      userInfo: userInfo(element), location: element.location)
  }

  private mutating func readFetchRequest(_ element: XML.Element) -> FetchRequestTemplate? {
    let name = required(element, "name")
    let entity = required(element, "entity")
    guard let name, let entity else { return nil }
    var resultType = FetchRequestTemplate.ResultType.managedObjects
    if let code = integer(element, "resultType") {
      if let t = FetchRequestTemplate.ResultType(rawValue: code) {
        resultType = t
      } else {
        diagnostics.append(
          .error(
            "model-invalid-number",
            "'resultType' must be 0 (objects), 1 (object IDs) or 2 (dictionaries), not \(code)",
            at: element.attribute("resultType")!.valueLocation))
      }
    }
    return FetchRequestTemplate(
      name: name, entity: entity,
      predicateString: element[attribute: "predicateString"],
      resultType: resultType,
      fetchLimit: integer(element, "fetchLimit") ?? 0,
      fetchBatchSize: integer(element, "fetchBatchSize") ?? 0,
      includesSubentities: flag(element, "includeSubentities"),
      includesPropertyValues: flag(element, "includePropertyValues"),
      includesPendingChanges: flag(element, "includesPendingChanges"),
      returnsObjectsAsFaults: flag(element, "returnObjectsAsFaults"),
      returnsDistinctResults: flag(element, "returnDistinctResults"),
      location: element.location)
  }

  private mutating func readFetchIndex(_ element: XML.Element) -> FetchIndexDescription? {
    guard let name = required(element, "name") else { return nil }
    let elements = element.elements(named: "fetchIndexElement").map { e in
      FetchIndexDescription.Element(
        property: e[attribute: "property"] ?? e[attribute: "expression"] ?? "",
        type: e[attribute: "type"] ?? "Binary",
        ascending: e[attribute: "order"] != "descending")
    }
    return FetchIndexDescription(
      name: name, elements: elements,
      partialIndexPredicate: element[attribute: "partialIndexPredicate"])
  }
}
