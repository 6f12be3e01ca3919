import MapArchives
import MapRuntime

/// The `Z_MODELCACHE` row Core Data writes in stores of framework 640 and later: a raw DEFLATE
/// stream of an `NSKeyedArchiver` archive whose root is the store's `NSManagedObjectModel`
/// (Specs/sqlite-store.md §7.1, which says what each key holds, what was checked against the
/// real caches and what was inferred).
///
/// The archive is built with `KeyedArchiveBuilder` from the model alone; the same model and
/// framework version always give the same bytes.
package enum CoreDataModelCache {
  /// The row's bytes: the archive, deflated raw.
  package static func content(_ model: ObjectModel, frameworkVersion: Int64) throws -> [UInt8] {
    try RawDeflate.compress(archive(model, frameworkVersion: frameworkVersion))
  }

  /// Core Data creates the table, and writes its one row, from framework 640 on
  /// (`CoreDataSchema.createStatements`).
  static let firstFrameworkVersion: Int64 = 640

  /// Inserts the row into a store being written for `model` (nothing before 640).
  static func write(_ model: ObjectModel, frameworkVersion: Int64, to db: SQLiteDatabase) throws {
    guard frameworkVersion >= firstFrameworkVersion else { return }
    let insert = try db.prepare("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)")
    try insert.bind(0, .blob(content(model, frameworkVersion: frameworkVersion)))
    _ = try insert.step()
  }

  /// The keyed archive (a binary property list) before compression.
  package static func archive(_ model: ObjectModel, frameworkVersion: Int64) -> [UInt8] {
    var archiver = ModelCacheArchiver(model: model, frameworkVersion: frameworkVersion)
    let root = archiver.archiveModel()
    return archiver.builder.archive(root: root)
  }
}

/// Walks a model into a `KeyedArchiveBuilder`. Every entity and property is reserved first, so
/// that the back-references (an entity's model, a property's entity, a relationship's
/// destination and inverse) can be filled in any order.
struct ModelCacheArchiver {
  let model: ObjectModel
  /// Entity renaming identifiers, String defaults and the version identifiers' set are mutable
  /// Foundation objects, and an entity with no sub-entities has none (rather than an empty
  /// dictionary), in the real caches of 754–866; not in 1327's. Where between is a guess.
  let mutableForms: Bool
  /// Entities get `NSFetchIndexDescriptions` (indexed attributes become fetch indexes) from
  /// 800 on: absent in the real caches of 754, present in 836 and later (as the DDL's index
  /// names, CoreDataSchema+Tables).
  let fetchIndexes: Bool
  var builder = KeyedArchiveBuilder()

  /// Entities by name, in `Z_ENT`-independent name order (UTF-8 bytes).
  let entities: [EntityDescription]
  /// Each entity's direct sub-entities (by the parent's name), in the order of `entities`.
  let children: [String: [EntityDescription]]
  private(set) var entitySlot: [String: PropertyListValue] = [:]
  /// `entity name` → own property name → its reserved slot.
  private(set) var propertySlot: [String: [String: PropertyListValue]] = [:]
  var modelSlot: PropertyListValue = KeyedArchiveBuilder.null
  /// The one empty `NSDictionary` every property-less user info refers to, as in every real cache.
  var emptyUserInfo: PropertyListValue?
  /// Equal String defaults are one object in the real caches (XCServer's `_identifier`).
  var stringDefaults: [String: PropertyListValue] = [:]

  static let modelChain = KeyedArchiveBuilder.classes(of: "NSManagedObjectModel")
  static let entityChain = KeyedArchiveBuilder.classes(of: "NSEntityDescription")
  static let knownKeysDictionaryChain = [
    "NSKnownKeysDictionary1", "NSKnownKeysDictionary", "NSMutableDictionary", "NSDictionary", "NSObject",
  ]
  static let knownKeysStrategyChain = ["NSKnownKeysMappingStrategy1", "NSKnownKeysMappingStrategy", "NSObject"]
  /// The empty-slot marker of `NSKnownKeysDictionary1`, the same in every real cache.
  static let emptyToken = "__empty_slot_token_4c24_98dc_ac1e_b773__"

  init(model: ObjectModel, frameworkVersion: Int64) {
    self.model = model
    self.mutableForms = frameworkVersion < 1000
    self.fetchIndexes = frameworkVersion >= 800
    var seen: Set<String> = []
    let entities = model.entities.filter { seen.insert($0.name).inserted }.sorted { Self.precedes($0.name, $1.name) }
    self.entities = entities
    var children: [String: [EntityDescription]] = [:]
    for e in entities { if let p = e.parentName { children[p, default: []].append(e) } }
    self.children = children
  }

  static func precedes(_ a: String, _ b: String) -> Bool {
    Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
  }

  mutating func archiveModel() -> PropertyListValue {
    modelSlot = builder.reserve()
    for e in entities { entitySlot[e.name] = builder.reserve() }
    for e in entities {
      var slots: [String: PropertyListValue] = [:]
      for name in ownPropertyNames(e) { slots[name] = builder.reserve() }
      propertySlot[e.name] = slots
    }
    let names = builder.array(entities.map { builder.string($0.name) })
    let strategy = builder.add(
      "NSKnownKeysMappingStrategy1", classes: Self.knownKeysStrategyChain,
      fields: [
        .init("keys", names), .init("length", .integer(Int64(entities.count))), .init("version", .integer(1)),
      ])
    let values = builder.array(entities.map { entitySlot[$0.name]! })
    let entityDictionary = builder.add(
      "NSKnownKeysDictionary1", classes: Self.knownKeysDictionaryChain,
      fields: [
        .init("values", values), .init("searchMapping", strategy),
        .init("emptyToken", builder.string(Self.emptyToken)), .init("version", .integer(1)),
      ])
    for e in entities { fillEntity(e) }
    let identifiers = builder.array(
      model.versionIdentifiers.map { builder.string($0) }, className: mutableForms ? "NSMutableSet" : "NSSet")
    // Fetch request templates need the predicate archive (MapCompiler's); not written
    // (Specs/sqlite-store.md §7.1).
    builder.fill(
      modelSlot, "NSManagedObjectModel", classes: Self.modelChain,
      fields: [
        .init("NSEntities", entityDictionary), .init("NSFetchRequestTemplates", KeyedArchiveBuilder.null),
        .init("NSVersionIdentifiers", identifiers),
      ])
    return modelSlot
  }

  /// The names of the entity's own attributes and relationships.
  func ownPropertyNames(_ e: EntityDescription) -> [String] {
    e.attributes.map(\.name) + e.relationships.map(\.name)
  }

  /// The entity's properties, own and inherited, in the order Core Data numbers them (a proxy's
  /// `NSReferenceID` is an index into this list of the entity that declares the property):
  /// attributes by name, then relationships by name. An own property hides an inherited one of
  /// the same name.
  func orderedProperties(_ e: EntityDescription) -> [(name: String, owner: String)] {
    var attributes: [String: String] = [:]
    var relationships: [String: String] = [:]
    for level in ([e] + model.ancestors(of: e)).reversed() {
      for a in level.attributes {
        attributes[a.name] = level.name
        relationships[a.name] = nil
      }
      for r in level.relationships {
        relationships[r.name] = level.name
        attributes[r.name] = nil
      }
    }
    let a = attributes.sorted { Self.precedes($0.key, $1.key) }.map { (name: $0.key, owner: $0.value) }
    let r = relationships.sorted { Self.precedes($0.key, $1.key) }.map { (name: $0.key, owner: $0.value) }
    return a + r
  }

  mutating func fillEntity(_ e: EntityDescription) {
    let slot = entitySlot[e.name]!
    var properties: [(key: PropertyListValue, value: PropertyListValue)] = []
    for p in orderedProperties(e) {
      let value: PropertyListValue
      if p.owner == e.name {
        value = propertySlot[e.name]![p.name]!
      } else {
        value = proxy(p.name, declaredBy: p.owner, in: slot)
      }
      properties.append((builder.string(p.name), value))
    }
    let children = self.children[e.name] ?? []
    let subentities: PropertyListValue =
      children.isEmpty && mutableForms
      ? KeyedArchiveBuilder.null
      : builder.dictionary(
        children.map { (builder.string($0.name), entitySlot[$0.name]!) }, className: "NSMutableDictionary")
    let renaming = e.renamingIdentifier ?? e.name
    var fields: [PropertyListValue.Entry] = [
      .init("NSEntityName", builder.string(e.name)),
      .init("NSClassNameForEntity", builder.string(e.className)),
      .init("NSUserInfo", userInfo(e.userInfo, always: true)),
      .init("NSSubentities", subentities),
      .init("NSVersionHashModifier", builder.string(e.versionHashModifier)),
      .init("NSProperties", builder.dictionary(properties, className: "NSMutableDictionary")),
      .init("NSRenamingIdentifier", mutableForms ? mutableString(renaming) : builder.string(renaming)),
      .init("NSManagedObjectModel", modelSlot),
      .init("NSSuperentity", e.parentName.flatMap { entitySlot[$0] } ?? KeyedArchiveBuilder.null),
    ]
    if e.isAbstract { fields.append(.init("NSIsAbstract", .bool(true))) }
    fields += indexFields(e, slot: slot)
    if !e.uniquenessConstraints.isEmpty {
      let constraints = e.uniquenessConstraints.map { names in builder.array(names.map { builder.string($0) }) }
      fields.append(.init("NSUniqueTuples", builder.array(constraints, className: "NSMutableArray")))
    }
    builder.fill(slot, "NSEntityDescription", classes: Self.entityChain, fields: fields)
    for a in e.attributes { fillAttribute(a, of: e) }
    for r in e.relationships { fillRelationship(r, of: e) }
  }

  /// An inherited property in a sub-entity: `_NSPropertyDescriptionProxy` of the declaring
  /// entity's property.
  mutating func proxy(_ name: String, declaredBy owner: String, in entity: PropertyListValue) -> PropertyListValue {
    let declaring = model.entity(named: owner)!
    let index = orderedProperties(declaring).firstIndex { $0.name == name } ?? 0
    return builder.add(
      "_NSPropertyDescriptionProxy", classes: KeyedArchiveBuilder.classes(of: "_NSPropertyDescriptionProxy"),
      fields: [
        .init("NSReferenceID", .integer(Int64(index))),
        .init("NSUnderlyingProperty", propertySlot[owner]![name]!),
        .init("NSEntityDescription", entity),
      ])
  }

  /// A user-info dictionary of strings; the shared empty one when empty and `always`, else
  /// nil (the key is left out).
  mutating func userInfo(_ info: UserInfo, always: Bool) -> PropertyListValue {
    if info.isEmpty {
      guard always else { return KeyedArchiveBuilder.null }
      if let e = emptyUserInfo { return e }
      let e = builder.dictionary([])
      emptyUserInfo = e
      return e
    }
    var last: [String: String] = [:]
    var keys: [String] = []
    for entry in info.entries {
      if last.updateValue(entry.value, forKey: entry.key) == nil { keys.append(entry.key) }
    }
    return builder.dictionary(keys.map { (builder.string($0), builder.string(last[$0])) })
  }

  mutating func mutableString(_ s: String) -> PropertyListValue {
    builder.add(
      "NSMutableString", classes: KeyedArchiveBuilder.classes(of: "NSMutableString"),
      fields: [.init("NS.string", .string(s))])
  }
}
