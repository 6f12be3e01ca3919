import Foundation
import MapArchives
import MapRuntime

/// Reads the model a store carries in `Z_MODELCACHE` (Specs/sqlite-store.md §7.2): the raw
/// DEFLATE stream inflated, the keyed archive of its `NSManagedObjectModel` walked into an
/// `ObjectModel`. What the archive holds that mapc's model cannot (a fetched property's or
/// template's predicate archive, a derived attribute's expression) is named in `omitted`.
package struct CoreDataModelCacheReader {
  /// The model, and what of the archive it leaves out (one line each, for a note).
  package struct Result: Sendable {
    package var model: ObjectModel
    package var omitted: [String]
  }

  /// The deepest composite (composites in composites) read.
  static let maximumCompositeDepth = 32

  let archive: KeyedArchive
  var omitted: [String] = []

  /// The cached model of the store at `path`; nil when the store has no `Z_MODELCACHE` row.
  package static func read(storeAt path: String) throws(MigrationFailure) -> Result? {
    let store = try CoreDataStoreFile(path: path)
    return try read(store)
  }

  static func read(_ store: CoreDataStoreFile) throws(MigrationFailure) -> Result? {
    guard try store.tables()["Z_MODELCACHE"] != nil else { return nil }
    let rows = try store.query("SELECT Z_CONTENT FROM Z_MODELCACHE", what: "the model cache")
    guard let first = rows.first?.first else { return nil }
    guard case .blob(let bytes) = first else {
      throw store.failure("sqlite-model-cache", "Z_MODELCACHE.Z_CONTENT is not a BLOB")
    }
    do {
      var result = try model(content: bytes)
      result.model.path = store.path
      return result
    } catch {
      throw store.failure("sqlite-model-cache", "cannot read the model in Z_MODELCACHE: \(error.message)")
    }
  }

  /// Why a cache row cannot be read.
  package struct Failure: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
  }

  /// The model of a `Z_CONTENT` value.
  package static func model(content: [UInt8]) throws(Failure) -> Result {
    let inflated: [UInt8]
    do {
      inflated = try RawInflate.decompress(content)
    } catch {
      throw Failure(message: "the row is not a raw DEFLATE stream: \(error.description)")
    }
    do {
      var reader = CoreDataModelCacheReader(archive: try KeyedArchive(bytes: inflated))
      let model = try reader.readModel()
      return Result(model: model, omitted: reader.omitted)
    } catch {
      throw Failure(message: error.message)
    }
  }

  // MARK: - Model and entities

  mutating func readModel() throws(KeyedArchiveError) -> ObjectModel {
    let root = try archive.object(archive.root)
    guard root.classes.contains("NSManagedObjectModel") else {
      throw KeyedArchiveError("the archive's root is a \(root.className), not an NSManagedObjectModel")
    }
    var entities: [EntityDescription] = []
    for ref in try entityReferences(root["NSEntities"]) {
      entities.append(try readEntity(try archive.reference(ref, "an entity of NSEntities")))
    }
    entities.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    let identifiers = try (archive.array(root["NSVersionIdentifiers"], "NSVersionIdentifiers") ?? [])
      .map { (v) throws(KeyedArchiveError) in try archive.string(v, "a version identifier") ?? "" }
      .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    var configurations: [ModelConfiguration] = []
    for (name, value) in try dictionary(root["NSConfigurations"], "NSConfigurations") ?? [] {
      let members = try (archive.array(value, "configuration \(name)") ?? []).map {
        (m) throws(KeyedArchiveError) in try entityName(m, "a member of configuration \(name)")
      }
      configurations.append(ModelConfiguration(name: name, memberEntities: members.sorted()))
    }
    configurations.sort { $0.name < $1.name }
    if let templates = try dictionary(root["NSFetchRequestTemplates"], "NSFetchRequestTemplates"),
      !templates.isEmpty
    {
      omitted.append("the fetch request templates \(templates.map { "'\($0.key)'" }.sorted().joined(separator: ", "))")
    }
    return ObjectModel(entities: entities, versionIdentifiers: identifiers, configurations: configurations)
  }

  /// The entity references of `NSEntities`: an `NSKnownKeysDictionary1`'s values, or an
  /// `NSDictionary`'s objects (a compiled `.mom`).
  func entityReferences(_ value: PropertyListValue?) throws(KeyedArchiveError) -> [PropertyListValue] {
    guard let value, !archive.isNull(value) else { throw KeyedArchiveError("the model has no NSEntities") }
    return try (dictionary(value, "NSEntities") ?? []).map(\.value)
  }

  /// The entries of an `NSDictionary`, or of an `NSKnownKeysDictionary1` (Core Data's own: the
  /// keys in its `searchMapping`'s `keys`, the values in `values` at the same places, a slot
  /// holding `emptyToken` empty), in archive order.
  func dictionary(_ value: PropertyListValue?, _ context: @autoclosure () -> String) throws(KeyedArchiveError)
    -> [(key: String, value: PropertyListValue)]?
  {
    guard let value, !archive.isNull(value) else { return nil }
    let o = try archive.object(try archive.reference(value, context()))
    guard o.classes.contains("NSKnownKeysDictionary1"), o["NS.keys"] == nil else {
      return try archive.dictionary(value, context())
    }
    let values = try archive.array(o["values"], "\(context()).values") ?? []
    guard let strategy = o["searchMapping"] else { throw KeyedArchiveError("\(context()) has no searchMapping") }
    let mapping = try archive.object(try archive.reference(strategy, "\(context()).searchMapping"))
    let keys = try archive.array(mapping["keys"], "\(context()).searchMapping.keys") ?? []
    guard keys.count == values.count else {
      throw KeyedArchiveError("\(context()) (object \(o.index)) has \(keys.count) keys but \(values.count) values")
    }
    let empty = try archive.string(o["emptyToken"], "\(context()).emptyToken")
    var result: [(key: String, value: PropertyListValue)] = []
    for (i, k) in keys.enumerated() {
      if let empty, (try? archive.string(values[i], "")) == empty { continue }
      guard let key = try archive.string(k, "key \(i) of \(context())") else {
        throw KeyedArchiveError("key \(i) of \(context()) is nil")
      }
      result.append((key, values[i]))
    }
    return result
  }

  func entityName(_ value: PropertyListValue, _ context: @autoclosure () -> String) throws(KeyedArchiveError)
    -> String
  {
    let o = try archive.object(try archive.reference(value, context()))
    guard let name = try archive.string(o["NSEntityName"], "\(context()).NSEntityName") else {
      throw KeyedArchiveError("\(context()) has no NSEntityName")
    }
    return name
  }

  func bool(_ o: ArchivedObject, _ key: String) -> Bool {
    switch o[key] {
    case .bool(let b)?: b
    case .integer(let i)?: i != 0
    default: false
    }
  }

  /// `_P`, the packed flags (reference §3.2): 0x2 optional, 0x8 transient.
  func packed(_ o: ArchivedObject, _ bit: Int64) -> Bool {
    (o["_P"]?.integerValue ?? 0) & bit != 0
  }

  /// An entity's or property's renaming identifier: nil when it is the name (as Xcode leaves
  /// `elementID` out).
  func renaming(_ o: ArchivedObject, name: String, _ context: String) throws(KeyedArchiveError) -> String? {
    let r = try archive.string(o["NSRenamingIdentifier"], "\(context).NSRenamingIdentifier")
    return r == name ? nil : r
  }

  mutating func readEntity(_ index: Int) throws(KeyedArchiveError) -> EntityDescription {
    let o = try archive.object(index)
    guard o.classes.contains("NSEntityDescription") else {
      throw KeyedArchiveError("object \(index) in NSEntities is a \(o.className), not an NSEntityDescription")
    }
    guard let name = try archive.string(o["NSEntityName"], "entity \(index).NSEntityName") else {
      throw KeyedArchiveError("entity \(index) has no NSEntityName")
    }
    let context = "entity \(name)"
    var parent: String? = nil
    if let s = o["NSSuperentity"], !archive.isNull(s) { parent = try entityName(s, "\(context).NSSuperentity") }
    var className = try archive.string(o["NSClassNameForEntity"], "\(context).NSClassNameForEntity")
    if className == "NSManagedObject" { className = nil }
    var entity = EntityDescription(
      name: name, className: className, parentName: parent, isAbstract: bool(o, "NSIsAbstract"),
      renamingIdentifier: try renaming(o, name: name, context),
      versionHashModifier: try archive.string(o["NSVersionHashModifier"], "\(context).NSVersionHashModifier"),
      userInfo: try userInfo(o["NSUserInfo"], context))
    let properties = try dictionary(o["NSProperties"], "\(context).NSProperties") ?? []
    let inherited = try inheritedNames(o, context)
    for (key, value) in properties.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
      // An inherited property (§7.2): named by an ancestor, whatever its form here.
      if inherited.contains(key) { continue }
      let p = try archive.object(try archive.reference(value, "\(context).\(key)"))
      if p.classes.contains("_NSPropertyDescriptionProxy") { continue }
      if let owner = p["NSEntity"], !archive.isNull(owner), try archive.reference(owner, "") != index { continue }
      let what = "\(context).\(key)"
      if p.classes.contains("NSRelationshipDescription") {
        entity.relationships.append(try readRelationship(p, what))
      } else if p.classes.contains("NSFetchedPropertyDescription") {
        omitted.append("the fetched property \(name).\(key)")
      } else if p.classes.contains("NSAttributeDescription") {
        entity.attributes.append(try readAttribute(p, what, depth: 0))
      } else {
        throw KeyedArchiveError("\(what) is a \(p.className), not a property description")
      }
    }
    entity.uniquenessConstraints = try nameLists(o["NSUniqueTuples"] ?? o["NSUniquenessConstraints"], context)
    entity.compoundIndexes = try nameLists(o["NSCompoundIndexes"], context)
    guard let indexes = try archive.array(o["NSFetchIndexDescriptions"], "\(context).NSFetchIndexDescriptions")
    else { return entity }
    for ref in indexes { entity.fetchIndexes.append(try fetchIndex(ref, entity: entity, context)) }
    // Core Data marks every attribute a fetch index covers `NSIsIndexed`; an `indexed`
    // attribute of the model is the one with its own index, named after it (§7.1).
    for i in entity.attributes.indices where entity.attributes[i].isIndexed {
      let name = entity.attributes[i].name
      if let k = entity.fetchIndexes.firstIndex(where: {
        $0.name == name && $0.elements.count == 1 && $0.elements[0].property == name && $0.elements[0].ascending
      }) {
        entity.fetchIndexes.remove(at: k)
      } else {
        entity.attributes[i].isIndexed = false
      }
    }
    return entity
  }

  /// The property names of the entity's ancestors (each one's `NSProperties`, which holds its
  /// own inherited ones too). A sub-entity's `NSProperties` holds every property it has; those
  /// these names cover are inherited, whether archived as an `_NSPropertyDescriptionProxy`
  /// (754), the ancestor's description, or a copy of it whose `NSEntity` is the sub-entity
  /// (866): Core Data lets no sub-entity declare a name it inherits.
  func inheritedNames(_ entity: ArchivedObject, _ context: String) throws(KeyedArchiveError) -> Set<String> {
    var names: Set<String> = []
    var seen: Set<Int> = [entity.index]
    var next = entity["NSSuperentity"]
    while let s = next, !archive.isNull(s) {
      let index = try archive.reference(s, "\(context).NSSuperentity")
      guard seen.insert(index).inserted else {
        throw KeyedArchiveError("\(context) is its own super-entity (object \(index))")
      }
      let parent = try archive.object(index)
      for (key, _) in try dictionary(parent["NSProperties"], "\(context): a super-entity's NSProperties") ?? [] {
        names.insert(key)
      }
      next = parent["NSSuperentity"]
    }
    return names
  }

  /// Arrays of property names (or of property descriptions, whose names are taken).
  func nameLists(_ value: PropertyListValue?, _ context: String) throws(KeyedArchiveError) -> [[String]] {
    var lists: [[String]] = []
    for list in try archive.array(value, "\(context) constraints") ?? [] {
      var names: [String] = []
      for item in try archive.array(list, "\(context) constraint") ?? [] {
        names.append(try propertyName(item, context))
      }
      lists.append(names)
    }
    return lists
  }

  func propertyName(_ item: PropertyListValue, _ context: String) throws(KeyedArchiveError) -> String {
    if let s = try? archive.string(item, "") { return s }
    let o = try archive.object(try archive.reference(item, "\(context): a property name"))
    guard let name = try archive.string(o["NSPropertyName"], "\(context).NSPropertyName") else {
      throw KeyedArchiveError("\(context): object \(o.index) is neither a name nor a property")
    }
    return name
  }

  /// A fetch index; an attribute's own index (one ascending element named after it, on an
  /// indexed attribute, as Core Data archives `indexed`) is left to the attribute.
  mutating func fetchIndex(_ ref: PropertyListValue, entity: EntityDescription, _ context: String)
    throws(KeyedArchiveError) -> FetchIndexDescription
  {
    let o = try archive.object(try archive.reference(ref, "\(context) fetch index"))
    let name = try archive.string(o["NSIndexName"], "\(context) fetch index name") ?? ""
    var elements: [FetchIndexDescription.Element] = []
    for e in try archive.array(o["NSIndexElements"], "\(context) index \(name)") ?? [] {
      let el = try archive.object(try archive.reference(e, "\(context) index \(name) element"))
      let property = try archive.string(el["NSPropertyName"], "\(context) index \(name) element") ?? ""
      let rtree = el["NSFetchIndexElementType"]?.integerValue == 1
      let ascending = el["NSAscending"].map { $0 == .bool(true) || $0 == .integer(1) } ?? true
      elements.append(.init(property: property, type: rtree ? "RTree" : "Binary", ascending: ascending))
    }
    if let p = o["NSPartialIndexPredicate"], !archive.isNull(p) {
      omitted.append("the predicate of the partial index \(entity.name).\(name)")
    }
    return FetchIndexDescription(name: name, elements: elements)
  }

  /// A user-info dictionary: string values as they are, numbers and Booleans as text.
  func userInfo(_ value: PropertyListValue?, _ context: String) throws(KeyedArchiveError) -> UserInfo {
    var entries: [UserInfo.Entry] = []
    for (key, v) in try dictionary(value, "\(context).NSUserInfo") ?? [] {
      let text: String
      switch try archive.resolve(v, "\(context).NSUserInfo.\(key)") {
      case .string(let s)?: text = s
      case .bool(let b)?: text = b ? "YES" : "NO"
      case .integer(let i)?: text = String(i)
      case .real(let d)?: text = String(d)
      case nil: text = ""
      default: text = (try? archive.string(v, "")) ?? ""
      }
      entries.append(.init(key: key, value: text))
    }
    entries.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    return UserInfo(entries)
  }

  // MARK: - Properties

  mutating func readAttribute(_ p: ArchivedObject, _ context: String, depth: Int) throws(KeyedArchiveError)
    -> AttributeDescription
  {
    guard depth <= Self.maximumCompositeDepth else {
      throw KeyedArchiveError("\(context): composites nest deeper than \(Self.maximumCompositeDepth)")
    }
    guard let name = try archive.string(p["NSPropertyName"], "\(context).NSPropertyName") else {
      throw KeyedArchiveError("\(context) has no NSPropertyName")
    }
    let code = p["NSAttributeType"]?.integerValue ?? 0
    guard let type = AttributeType.allCases.first(where: { Int64($0.coreDataCode) == code }) else {
      throw KeyedArchiveError("\(context) has the unknown NSAttributeType \(code)")
    }
    let className = try archive.string(p["NSAttributeValueClassName"], "\(context).NSAttributeValueClassName")
    var a = AttributeDescription(
      name: name, type: type,
      isOptional: bool(p, "NSIsOptional") || packed(p, 0x2),
      isTransient: bool(p, "NSIsTransient") || packed(p, 0x8),
      allowsExternalBinaryDataStorage: bool(p, "NSAllowsExternalBinaryDataStorage"),
      preservesValueInHistoryOnDeletion: bool(p, "NSPreservesValueInHistoryOnDeletion"),
      allowsCloudEncryption: packed(p, 0x800),
      valueTransformerName: try archive.string(p["NSValueTransformerName"], "\(context).NSValueTransformerName"),
      customClassName: type == .transformable ? className : nil,
      isIndexed: bool(p, "NSIsIndexed"),
      isIndexedBySpotlight: bool(p, "NSIsIndexedBySpotlight") || packed(p, 0x100),
      isStoredInExternalRecord: bool(p, "NSIsStoredInExternalRecord") || packed(p, 0x200),
      renamingIdentifier: try renaming(p, name: name, context),
      versionHashModifier: try archive.string(p["NSVersionHashModifier"], "\(context).NSVersionHashModifier"),
      userInfo: try userInfo(p["NSUserInfo"], context))
    if p.classes.contains("NSDerivedAttributeDescription") {
      a.isDerived = true
      omitted.append("the derivation expression of \(context.dropFirst("entity ".count))")
    }
    if type == .composite {
      for e in try archive.array(p["NSCompositeElements"], "\(context).NSCompositeElements") ?? [] {
        let element = try archive.object(try archive.reference(e, "\(context) element"))
        a.compositeElements.append(try readAttribute(element, "\(context) element", depth: depth + 1))
      }
    } else {
      (a.defaultValue, a.defaultValueString) = try defaultValue(p["NSDefaultValue"], type: type, context)
      if a.defaultValue == nil, let kept = try archivedDefault(p["NSDefaultValue"], context) {
        let what = "the default value of \(context.dropFirst("entity ".count)), an archived \(kept.className)"
        a.archivedDefaultValue = kept.bytes
        omitted.append(
          kept.bytes == nil
            ? "\(what), nested too deeply to keep" : "\(what), kept only to be written back in a model cache")
      }
    }
    return a
  }

  /// The default as the archive holds it, typed for the attribute and as Xcode's text.
  func defaultValue(_ value: PropertyListValue?, type: AttributeType, _ context: String) throws(KeyedArchiveError)
    -> (ModelConstant?, String?)
  {
    guard let v = try archive.resolve(value, "\(context).NSDefaultValue") else { return (nil, nil) }
    switch v {
    case .integer(let i):
      switch type {
      case .boolean: return (.boolean(i != 0), i != 0 ? "YES" : "NO")
      case .double, .float: return (.double(Double(i)), String(i))
      case .decimal: return (.decimal(String(i)), String(i))
      default: return (.integer(i), String(i))
      }
    case .real(let d):
      if type.isInteger, let i = Int64(exactly: d) { return (.integer(i), String(i)) }
      return (.double(d), String(d))
    case .bool(let b): return (.boolean(b), b ? "YES" : "NO")
    case .string(let s): return (.string(s), s)
    case .data(let d): return (.binary(d), nil)
    default: break
    }
    let o = try archive.object(try archive.reference(value!, "\(context).NSDefaultValue"))
    if o.classes.contains("NSString"), let s = try archive.string(value, "\(context).NSDefaultValue") {
      return (.string(s), s)
    }
    if o.classes.contains("NSDate"), case .real(let t)? = o["NS.time"] { return (.date(t), nil) }
    if o.classes.contains("NSUUID"), case .data(let bytes)? = o["NS.uuidbytes"], bytes.count == 16 {
      let text = Self.uuidText(bytes)
      return (.string(text), text)
    }
    if o.classes.contains("NSURL"), let s = try archive.string(o["NS.relative"], "\(context).NSDefaultValue") {
      return (.string(s), s)
    }
    if o.classes.contains("NSData"), case .data(let d)? = try archive.resolve(o["NS.data"], context) {
      return (.binary(d), nil)
    }
    return (nil, nil)
  }

  /// A default of a class `defaultValue` does not read (a Transformable's default of the app's
  /// own class), as an archive of its own (nil bytes when it nests too deep to copy); nil for
  /// none. (A composite's default, an empty dictionary, is never read.)
  func archivedDefault(_ value: PropertyListValue?, _ context: String)
    throws(KeyedArchiveError) -> (bytes: [UInt8]?, className: String)?
  {
    guard let value, !archive.isNull(value), case .uid = value else { return nil }
    let o = try archive.object(try archive.reference(value, "\(context).NSDefaultValue"))
    var builder = KeyedArchiveBuilder()
    guard let root = try? builder.copy(o.index, of: archive) else { return (nil, o.className) }
    return (builder.archive(root: root), o.className)
  }

  /// Upper-case 8-4-4-4-12, as `NSUUID.uuidString`.
  static func uuidText(_ bytes: [UInt8]) -> String {
    let hex = bytes.map { b in String(UInt8(b), radix: 16, uppercase: true).leftPadded(2) }
    return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
  }

  mutating func readRelationship(_ p: ArchivedObject, _ context: String) throws(KeyedArchiveError)
    -> RelationshipDescription
  {
    guard let name = try archive.string(p["NSPropertyName"], "\(context).NSPropertyName") else {
      throw KeyedArchiveError("\(context) has no NSPropertyName")
    }
    var destination = try archive.string(p["_NSDestinationEntityName"], "\(context)._NSDestinationEntityName")
    if destination == nil, let d = p["NSDestinationEntity"], !archive.isNull(d) {
      destination = try entityName(d, "\(context).NSDestinationEntity")
    }
    guard let destination else { throw KeyedArchiveError("\(context) has no destination entity") }
    var inverseName = try archive.string(p["_NSInverseRelationshipName"], "\(context)._NSInverseRelationshipName")
    var inverseEntity: String? = nil
    if let i = p["NSInverseRelationship"], !archive.isNull(i) {
      let inverse = try archive.object(try archive.reference(i, "\(context).NSInverseRelationship"))
      if inverseName == nil {
        inverseName = try archive.string(inverse["NSPropertyName"], "\(context) inverse's NSPropertyName")
      }
      if let owner = inverse["NSEntity"], !archive.isNull(owner) {
        inverseEntity = try entityName(owner, "\(context) inverse's NSEntity")
      }
    }
    if inverseName != nil, inverseEntity == nil { inverseEntity = destination }
    let maxCount = Int(p["NSMaxCount"]?.integerValue ?? 1)
    let rule: DeleteRule =
      switch p["NSDeleteRule"]?.integerValue ?? 1 {
      case 0: .noAction
      case 2: .cascade
      case 3: .deny
      default: .nullify
      }
    return RelationshipDescription(
      name: name, destinationEntity: destination, inverseName: inverseName, inverseEntity: inverseEntity,
      isOptional: bool(p, "NSIsOptional") || packed(p, 0x2),
      isTransient: bool(p, "NSIsTransient") || packed(p, 0x8),
      isToMany: maxCount != 1, isOrdered: bool(p, "NSIsOrdered") || packed(p, 0x400),
      minCount: Int(p["NSMinCount"]?.integerValue ?? 0), maxCount: maxCount, deleteRule: rule,
      renamingIdentifier: try renaming(p, name: name, context),
      versionHashModifier: try archive.string(p["NSVersionHashModifier"], "\(context).NSVersionHashModifier"),
      userInfo: try userInfo(p["NSUserInfo"], context))
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
