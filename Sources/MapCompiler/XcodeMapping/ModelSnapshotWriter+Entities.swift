import MapArchives
import MapRuntime

extension SnapshotWriter {
  /// Fills an entity's slot: its `XD_PStereotype`, its properties, its generalization (when it
  /// has a parent) and its specializations (when it has children).
  mutating func fillEntity(
    _ e: EntityDescription, package: PropertyListValue, generalization: PropertyListValue?,
    specializations: [PropertyListValue]?
  ) {
    let slot = entitySlots[e.name]!
    let id = elementID()
    let values: [(String, PropertyListValue)] = [
      (XDPM.EntityKey.compoundIndexes, stringLists(e.compoundIndexes)),
      (XDPM.EntityKey.elementID, b.string(e.renamingIdentifier)),
      (XDPM.EntityKey.uniquenessConstraints, stringLists(e.uniquenessConstraints)),
      (XDPM.EntityKey.versionHashModifier, b.string(e.versionHashModifier)),
      (XDPM.EntityKey.fetchRequests, b.array([], className: "NSMutableArray")),
      (XDPM.EntityKey.isAbstract, flag(e.isAbstract)),
      (XDPM.EntityKey.userInfo, userInfo(e.userInfo)),
      (XDPM.EntityKey.classMapping, classMapping),
      (XDPM.EntityKey.className, b.string(e.className)),
    ]
    let entityStereotype = stereotype(XDPM.entityStereotype, owner: slot, values: values)
    // Attributes and relationships together, by name; an attribute hides a relationship of
    // the same name (the reader refuses such an entity).
    var owned: [(name: String, slot: PropertyListValue)] = []
    var names: Set<String> = []
    for a in e.attributes where names.insert(a.name).inserted {
      owned.append((a.name, fillAttribute(a, owner: slot)))
    }
    for r in e.relationships where names.insert(r.name).inserted {
      guard let rs = relationshipSlots[e.name]?[r.name] else { continue }
      fillRelationship(r, in: e, slot: rs, owner: slot)
      owned.append((r.name, rs))
    }
    owned.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    var ownedEntries: [(key: PropertyListValue, value: PropertyListValue)] = []
    for p in owned { ownedEntries.append((b.string(p.name), p.slot)) }
    let ownedStorage = b.dictionary(ownedEntries, className: "NSMutableDictionary")
    var fields = umlElement(name: b.string(e.name), owner: package, elementID: id)
    fields.append(.init(XDPM.isAbstract, .bool(e.isAbstract)))
    fields += stereotypes([(XDPM.entityStereotype, entityStereotype)])
    fields += bucket("OwnedAttributes", storage: ownedStorage, ordered: true)
    let generalizations = b.array(generalization.map { [$0] } ?? [], className: "NSMutableArray")
    fields += bucket("Generalizations", storage: generalizations, ordered: true, list: true)
    if let specializations {
      fields += bucket(
        "Specializations", storage: b.array(specializations, className: "NSMutableArray"), ordered: true, list: true)
    }
    b.fill(slot, XDPM.entity, classes: XDPM.chains[XDPM.entity]!, fields: fields)
  }

  /// The `XD_PPropStereotype` values of an attribute or relationship.
  private mutating func propertyValues(
    optional: Bool, transient: Bool, indexed: Bool, spotlight: Bool, truthFile: Bool,
    elementID: String?, modifier: String?, userInfo info: UserInfo
  ) -> [(String, PropertyListValue)] {
    [
      (XDPM.PropertyKey.isStoredInTruthFile, flag(truthFile)),
      (XDPM.PropertyKey.versionHashModifier, b.string(modifier)),
      (XDPM.PropertyKey.userInfo, userInfo(info)),
      (XDPM.PropertyKey.isIndexed, flag(indexed)),
      (XDPM.PropertyKey.isOptional, flag(optional)),
      (XDPM.PropertyKey.isSpotlightIndexed, flag(spotlight)),
      (XDPM.PropertyKey.elementID, b.string(elementID)),
      (XDPM.PropertyKey.isTransient, flag(transient)),
    ]
  }

  /// The fields of an `XDPMAttribute` or `XDPMRelationship` with these stereotypes.
  private mutating func propertyFields(
    name: String, owner: PropertyListValue, stereotypeList: [(String, PropertyListValue)]
  ) -> [PropertyListValue.Entry] {
    let id = elementID()
    return umlElement(name: b.string(name), owner: owner, elementID: id)
      + umlProperty(default: KeyedArchiveBuilder.null) + stereotypes(stereotypeList)
  }

  mutating func fillAttribute(_ a: AttributeDescription, owner: PropertyListValue) -> PropertyListValue {
    let slot = b.reserve()
    let common = propertyValues(
      optional: a.isOptional, transient: a.isTransient, indexed: a.isIndexed, spotlight: a.isIndexedBySpotlight,
      truthFile: a.isStoredInExternalRecord, elementID: a.renamingIdentifier, modifier: a.versionHashModifier,
      userInfo: a.userInfo)
    let own: [(String, PropertyListValue)] = [
      (XDPM.AttributeKey.defaultValue, b.string(a.defaultValueString)),
      (XDPM.AttributeKey.allowsExternalStorage, flag(a.allowsExternalBinaryDataStorage)),
      (XDPM.AttributeKey.minValue, b.string(a.minValueString)),
      (XDPM.AttributeKey.attributeType, number(Int64(a.type.coreDataCode))),
      (XDPM.AttributeKey.maxValue, b.string(a.maxValueString)),
      (XDPM.AttributeKey.valueTransformer, b.string(a.valueTransformerName)),
      (XDPM.AttributeKey.regularExpression, b.string(a.regularExpression)),
    ]
    let p = stereotype(XDPM.propertyStereotype, owner: slot, values: common)
    let t = stereotype(XDPM.attributeStereotype, owner: slot, values: own)
    let fields = propertyFields(
      name: a.name, owner: owner, stereotypeList: [(XDPM.propertyStereotype, p), (XDPM.attributeStereotype, t)])
    b.fill(slot, XDPM.attribute, classes: XDPM.chains[XDPM.attribute]!, fields: fields)
    return slot
  }

  mutating func fillRelationship(
    _ r: RelationshipDescription, in e: EntityDescription, slot: PropertyListValue, owner: PropertyListValue
  ) {
    let common = propertyValues(
      optional: r.isOptional, transient: r.isTransient, indexed: false, spotlight: false, truthFile: false,
      elementID: r.renamingIdentifier, modifier: r.versionHashModifier, userInfo: r.userInfo)
    let inverse = r.inverseName.flatMap { relationshipSlots[r.inverseEntity ?? r.destinationEntity]?[$0] }
    let own: [(String, PropertyListValue)] = [
      (XDPM.RelationshipKey.minCount, number(Int64(r.minCount))),
      (XDPM.RelationshipKey.deleteRule, number(XDPM.code(of: r.deleteRule))),
      (XDPM.RelationshipKey.maxCount, number(Int64(r.maxCount))),
      (XDPM.RelationshipKey.destination, entitySlots[r.destinationEntity] ?? KeyedArchiveBuilder.null),
      (XDPM.RelationshipKey.isToMany, flag(r.isToMany)),
      (XDPM.RelationshipKey.ordered, flag(r.isOrdered)),
      (XDPM.RelationshipKey.inverse, inverse ?? KeyedArchiveBuilder.null),
    ]
    let p = stereotype(XDPM.propertyStereotype, owner: slot, values: common)
    let t = stereotype(XDPM.relationshipStereotype, owner: slot, values: own)
    let fields = propertyFields(
      name: r.name, owner: owner, stereotypeList: [(XDPM.propertyStereotype, p), (XDPM.relationshipStereotype, t)])
    b.fill(slot, XDPM.relationship, classes: XDPM.chains[XDPM.relationship]!, fields: fields)
  }
}
