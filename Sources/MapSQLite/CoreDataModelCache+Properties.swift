import MapArchives
import MapRuntime

/// Attributes, relationships and fetch indexes of the model cache (Specs/sqlite-store.md §7.1).
extension ModelCacheArchiver {
  /// `_P`, the packed property flags: 241 for every property of the real caches, plus 2 when
  /// optional and 1024 when an ordered to-many.
  static func packedFlags(optional: Bool, ordered: Bool) -> Int64 {
    241 + (optional ? 2 : 0) + (ordered ? 1024 : 0)
  }

  /// The fields every property has, then the flags only written when set.
  mutating func propertyFields(
    name: String, entity: String, renamingIdentifier: String?, optional: Bool, ordered: Bool
  ) -> [PropertyListValue.Entry] {
    var fields: [PropertyListValue.Entry] = [
      .init("NSPropertyName", builder.string(name)),
      .init("NSEntity", entitySlot[entity]!),
      .init("NSRenamingIdentifier", builder.string(renamingIdentifier ?? name)),
      .init("_P", .integer(Self.packedFlags(optional: optional, ordered: ordered))),
    ]
    if optional { fields.append(.init("NSIsOptional", .bool(true))) }
    return fields
  }

  /// Keys of what the real caches never show set (transient, user info, version hash
  /// modifier, …): written only when the model sets them, under the names of Core Data's API.
  mutating func rareFields(
    transient: Bool, userInfo info: UserInfo, versionHashModifier: String?, flags: [(String, Bool)] = []
  ) -> [PropertyListValue.Entry] {
    var fields: [PropertyListValue.Entry] = []
    if transient { fields.append(.init("NSIsTransient", .bool(true))) }
    if !info.isEmpty { fields.append(.init("NSUserInfo", userInfo(info, always: false))) }
    if let m = versionHashModifier { fields.append(.init("NSVersionHashModifier", builder.string(m))) }
    for (key, set) in flags where set { fields.append(.init(key, .bool(true))) }
    return fields
  }

  mutating func fillAttribute(_ a: AttributeDescription, of e: EntityDescription) {
    builder.fill(
      propertySlot[e.name]![a.name]!,
      a.type == .composite ? "NSCompositeAttributeDescription" : "NSAttributeDescription",
      classes: KeyedArchiveBuilder.classes(
        of: a.type == .composite ? "NSCompositeAttributeDescription" : "NSAttributeDescription"),
      fields: attributeFields(a, of: e))
  }

  /// A Composite attribute's element: an `NSAttributeDescription` of the owner entity, in the
  /// composite's `NSCompositeElements` (a nested composite's with its own) [real: SwiftData's
  /// caches of 1345 and 1403].
  mutating func element(_ a: AttributeDescription, of e: EntityDescription) -> PropertyListValue {
    let composite = a.type == .composite
    let className = composite ? "NSCompositeAttributeDescription" : "NSAttributeDescription"
    return builder.add(
      className, classes: KeyedArchiveBuilder.classes(of: className), fields: attributeFields(a, of: e))
  }

  mutating func attributeFields(_ a: AttributeDescription, of e: EntityDescription) -> [PropertyListValue.Entry] {
    var fields = propertyFields(
      name: a.name, entity: e.name, renamingIdentifier: a.renamingIdentifier, optional: a.isOptional, ordered: false)
    if !a.userInfo.isEmpty, case .integer(let p) = fields[3].value {
      // `_P` without its "no user info" bit (0x40) [real: SwiftData's enum composites, 177 and 179].
      fields[3] = .init("_P", .integer(p & ~0x40))
    }
    fields += [
      .init("NSAttributeType", .integer(Int64(a.type.coreDataCode))),
      .init("NSAttributeValueClassName", builder.string(Self.valueClassName(a))),
      .init("NSDefaultValue", a.type == .composite ? KeyedArchiveBuilder.null : defaultValue(a)),
      .init("NSValueTransformerName", builder.string(a.valueTransformerName)),
      .init("NSFlagsKey", .integer(0)),
    ]
    if a.type == .composite {
      let elements = a.compositeElements.map { element($0, of: e) }
      fields.append(.init("NSCompositeElements", builder.array(elements, className: "NSMutableArray")))
    }
    if isIndexed(a, in: e) { fields.append(.init("NSIsIndexed", .bool(true))) }
    fields += rareFields(
      transient: a.isTransient, userInfo: a.userInfo, versionHashModifier: a.versionHashModifier,
      flags: [
        ("NSAllowsExternalBinaryDataStorage", a.allowsExternalBinaryDataStorage),
        ("NSIsIndexedBySpotlight", a.isIndexedBySpotlight),
        ("NSIsStoredInExternalRecord", a.isStoredInExternalRecord),
      ])
    return fields
  }

  mutating func fillRelationship(_ r: RelationshipDescription, of e: EntityDescription) {
    var fields = propertyFields(
      name: r.name, entity: e.name, renamingIdentifier: r.renamingIdentifier, optional: r.isOptional,
      ordered: r.isToMany && r.isOrdered)
    let inverse = r.inverseName.flatMap { inverseSlot(of: r, named: $0) }
    fields += [
      .init("NSDestinationEntity", entitySlot[r.destinationEntity] ?? KeyedArchiveBuilder.null),
      .init("_NSDestinationEntityName", builder.string(r.destinationEntity)),
      .init("NSInverseRelationship", inverse ?? KeyedArchiveBuilder.null),
      .init("_NSInverseRelationshipName", builder.string(inverse == nil ? nil : r.inverseName)),
      .init("NSDeleteRule", .integer(Self.deleteRuleCode(r.deleteRule))),
      .init("NSMinCount", .integer(Int64(r.minCount))),
      .init("NSMaxCount", .integer(r.isToMany ? Int64(r.maxCount) : 1)),
    ]
    if r.isToMany && r.isOrdered { fields.append(.init("NSIsOrdered", .bool(true))) }
    fields += rareFields(transient: r.isTransient, userInfo: r.userInfo, versionHashModifier: r.versionHashModifier)
    builder.fill(
      propertySlot[e.name]![r.name]!, "NSRelationshipDescription",
      classes: KeyedArchiveBuilder.classes(of: "NSRelationshipDescription"), fields: fields)
  }

  /// The inverse's own description, on the destination or the ancestor that declares it.
  func inverseSlot(of r: RelationshipDescription, named name: String) -> PropertyListValue? {
    guard let destination = model.entity(named: r.inverseEntity ?? r.destinationEntity) else { return nil }
    for level in [destination] + model.ancestors(of: destination) {
      if level.relationship(named: name) != nil { return propertySlot[level.name]?[name] }
    }
    return nil
  }

  static func deleteRuleCode(_ rule: DeleteRule) -> Int64 {
    switch rule {
    case .noAction: 0
    case .nullify: 1
    case .cascade: 2
    case .deny: 3
    }
  }

  /// `attributeValueClassName`: what Core Data gives each type; a Transformable's custom class
  /// when it names one.
  static func valueClassName(_ a: AttributeDescription) -> String? {
    switch a.type {
    case .integer16, .integer32, .integer64, .double, .float, .boolean: "NSNumber"
    case .decimal: "NSDecimalNumber"
    case .string: "NSString"
    case .date: "NSDate"
    case .binary: "NSData"
    case .uuid: "NSUUID"
    case .uri: "NSURL"
    case .transformable: a.customClassName
    case .composite: "NSDictionary"
    case .undefined, .objectID: nil
    }
  }

  /// The default as the real caches hold it: integers and Booleans as integers (`NO` is 0),
  /// Double and Float as reals, Strings as one (mutable before 1000) string per value, dates
  /// as `NSDate`. Decimal, UUID and URI defaults need Foundation classes no real cache shows
  /// and are left out (null). A default read from a cache without being understood
  /// (`archivedDefaultValue`) is its objects as they were.
  mutating func defaultValue(_ a: AttributeDescription) -> PropertyListValue {
    // A default kept as the cache it was read from archived it (an app's class): copied back.
    // (Tried on a builder of its own first: a failed copy would leave slots unfilled.)
    if a.defaultValue == nil, let bytes = a.archivedDefaultValue, let kept = try? KeyedArchive(bytes: bytes) {
      var trial = KeyedArchiveBuilder()
      if (try? trial.copy(kept.root, of: kept)) != nil, let copy = try? builder.copy(kept.root, of: kept) {
        return copy
      }
    }
    switch a.defaultValue {
    case .integer(let i)?: return builder.object(.integer(i))
    case .boolean(let b)?: return builder.object(.integer(b ? 1 : 0))
    case .double(let d)?: return builder.object(.real(d))
    case .string(let s)? where a.type == .string:
      if !mutableForms { return builder.string(s) }
      if let shared = stringDefaults[s] { return shared }
      let m = mutableString(s)
      stringDefaults[s] = m
      return m
    case .date(let t)?:
      return builder.add(
        "NSDate", classes: KeyedArchiveBuilder.classes(of: "NSDate"), fields: [.init("NS.time", .real(t))])
    case .binary(let bytes)?: return builder.object(.data(bytes))
    default: return KeyedArchiveBuilder.null
    }
  }

  func isIndexed(_ a: AttributeDescription, in e: EntityDescription) -> Bool {
    a.isIndexed || e.fetchIndexes.contains { $0.indexedProperty == a.name }
  }

  /// `NSFetchIndexDescriptions` and `NSCompoundIndexes` (from 800 on, when the entity has a
  /// fetch index): one index named after each indexed attribute (by name), then the model's
  /// other fetch indexes in model order.
  mutating func indexFields(_ e: EntityDescription, slot: PropertyListValue) -> [PropertyListValue.Entry] {
    guard fetchIndexes else { return [] }
    let indexed = e.attributes.filter { isIndexed($0, in: e) }.map(\.name).sorted { Self.precedes($0, $1) }
    var indexes = indexed.map { FetchIndexDescription(name: $0, elements: [.init(property: $0)]) }
    indexes += e.fetchIndexes.filter { f in !indexed.contains { f.indexedProperty == $0 } }
    guard !indexes.isEmpty || !e.compoundIndexes.isEmpty else { return [] }
    let descriptions = indexes.map { fetchIndex($0, entity: slot) }
    let compound = e.compoundIndexes.map { names in
      builder.array(names.compactMap { propertySlot[e.name]?[$0] })
    }
    return [
      .init("NSFetchIndexDescriptions", builder.array(descriptions, className: "NSMutableArray")),
      .init("NSCompoundIndexes", builder.array(compound, className: "NSMutableArray")),
    ]
  }

  mutating func fetchIndex(_ f: FetchIndexDescription, entity: PropertyListValue) -> PropertyListValue {
    let slot = builder.reserve()
    let elements = f.elements.map { el in
      builder.add(
        "NSFetchIndexElementDescription", classes: KeyedArchiveBuilder.classes(of: "NSFetchIndexElementDescription"),
        fields: [
          .init("NSPropertyName", builder.string(el.property)),
          .init("NSFetchIndexElementType", .integer(el.type.lowercased() == "rtree" ? 1 : 0)),
          .init("NSFetchIndexDescription", slot),
          .init("NSAscending", .bool(el.ascending)),
        ])
    }
    // A partial index's predicate needs the predicate archive (MapCompiler's): left out.
    builder.fill(
      slot, "NSFetchIndexDescription", classes: KeyedArchiveBuilder.classes(of: "NSFetchIndexDescription"),
      fields: [
        .init("NSIndexName", builder.string(f.name)),
        .init("NSPartialIndexPredicate", KeyedArchiveBuilder.null),
        .init("NSIndexElements", builder.array(elements)),
        .init("NSEntity", entity),
      ])
    return slot
  }
}
