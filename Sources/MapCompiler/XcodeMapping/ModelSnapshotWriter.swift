import MapArchives
import MapRuntime

/// Writes a model as the snapshot Xcode embeds in a mapping model (`sourcemodeldata` /
/// `destinationmodeldata` of `xcmapping.xml`, before base64): a keyed archive of Xcode's private
/// `XDPMModel`, with the classes, fields and stereotype keys Xcode writes, UML bookkeeping
/// included (`_visibility`, `XDBucketFor…wasEncoded`, `_owner` back-references, …).
///
/// Entities are written in model order and each entity's attributes and relationships by name.
/// Element IDs (`_uniqueElementID`) are numbered from 1 in writing order, so the output depends
/// only on the model. What the format has no key for is not written: derived attributes'
/// expressions, `preservesValueInHistoryOnDeletion`, `allowsCloudEncryption`, custom class
/// names of attributes, fetched properties, fetch indexes, fetch request templates and
/// configurations (`Specs/xcmappingmodel-snapshots.md`). The model should be consistent (as
/// `ModelLoader` and `ModelSnapshotReader` give it): a parent or destination that names no
/// entity is written as null, an inverse that names no relationship is omitted, and of two
/// entities with one name only the first is written.
public enum ModelSnapshotWriter {
  public static func write(_ model: ObjectModel) -> [UInt8] {
    var writer = SnapshotWriter(model: model)
    return writer.write()
  }
}

/// One writing: slots are reserved for every entity and property first, so that references
/// (destinations, inverses, parents, owners) can be made before the objects are filled.
struct SnapshotWriter {
  let model: ObjectModel
  var b = KeyedArchiveBuilder()
  /// The entities written, in model order (duplicates dropped).
  var entities: [EntityDescription] = []
  var entitySlots: [String: PropertyListValue] = [:]
  /// Slots of relationships by entity name and relationship name.
  var relationshipSlots: [String: [String: PropertyListValue]] = [:]
  var nextElementID: Int64 = 1
  /// The shared `XD_PSK_classMapping` value.
  var classMapping: PropertyListValue = KeyedArchiveBuilder.null

  init(model: ObjectModel) {
    self.model = model
    var seen: Set<String> = []
    entities = model.entities.filter { seen.insert($0.name).inserted }
  }

  mutating func write() -> [UInt8] {
    let root = b.reserve()
    let package = b.reserve()
    for e in entities { entitySlots[e.name] = b.reserve() }
    for e in entities {
      var slots: [String: PropertyListValue] = [:]
      let attributeNames = Set(e.attributes.map(\.name))
      for r in e.relationships where slots[r.name] == nil && !attributeNames.contains(r.name) {
        slots[r.name] = b.reserve()
      }
      relationshipSlots[e.name] = slots
    }
    classMapping = b.add(
      XDPM.umlClass, classes: XDPM.chains[XDPM.umlClass]!,
      fields: umlElement(name: b.string(XDPM.genericRecordClass), owner: KeyedArchiveBuilder.null, elementID: nil)
        + [.init(XDPM.isAbstract, .bool(false))])
    // Generalizations: each is listed by its child (generalizations) and its parent
    // (specializations), and owned by the child.
    var specializations: [String: [PropertyListValue]] = [:]
    var generalizations: [String: PropertyListValue] = [:]
    for e in entities {
      guard let parent = e.parentName, let parentSlot = entitySlots[parent], let child = entitySlots[e.name] else {
        continue
      }
      let g = b.add(
        XDPM.generalization, classes: XDPM.chains[XDPM.generalization]!,
        fields: umlElement(name: KeyedArchiveBuilder.null, owner: child, elementID: elementID())
          + [.init("_specific", child), .init(XDPM.general, parentSlot)])
      generalizations[e.name] = g
      specializations[parent, default: []].append(g)
    }
    for e in entities {
      fillEntity(e, package: package, generalization: generalizations[e.name], specializations: specializations[e.name])
    }
    var classEntries: [(key: PropertyListValue, value: PropertyListValue)] = []
    for e in entities { classEntries.append((b.string(e.name), entitySlots[e.name]!)) }
    let classes = b.dictionary(classEntries, className: "NSMutableDictionary")
    var packageFields = umlElement(name: b.string(""), owner: KeyedArchiveBuilder.null, elementID: nil)
    packageFields.append(.init("_xd_owningModel", root))
    packageFields += bucket("Classes", storage: classes)
    for name in ["Packages", "Interfaces", "DataTypes"] {
      packageFields += bucket(name, storage: b.dictionary([], className: "NSMutableDictionary"))
    }
    b.fill(package, XDPM.package, classes: XDPM.chains[XDPM.package]!, fields: packageFields)
    b.fill(
      root, XDPM.model, classes: XDPM.chains[XDPM.model]!,
      fields: [
        .init(XDPM.rootPackage, package),
        .init("_xd_comments", b.array([], className: "NSMutableArray")),
        .init("_xd_modelManager", KeyedArchiveBuilder.null),
        .init("_configurationsByName", b.dictionary([], className: "NSMutableDictionary")),
        .init("_xd_modelName", KeyedArchiveBuilder.null),
        .init(XDPM.versionIdentifier, b.string(model.versionIdentifiers.first ?? "")),
      ])
    return b.archive(root: root)
  }

  // MARK: - UML bookkeeping

  /// A fresh `_uniqueElementID` object.
  mutating func elementID() -> PropertyListValue {
    defer { nextElementID += 1 }
    return b.object(.integer(nextElementID))
  }

  /// The fields every UML element has: `_name`, `_owner`, `_uniqueElementID`, `_visibility`.
  func umlElement(name: PropertyListValue, owner: PropertyListValue, elementID: PropertyListValue?)
    -> [PropertyListValue.Entry]
  {
    [
      .init(XDPM.name, name), .init("_owner", owner),
      .init("_uniqueElementID", elementID ?? KeyedArchiveBuilder.null), .init("_visibility", .integer(0)),
    ]
  }

  /// The fields of a UML property (`XDUMLPropertyImp` and its subclasses) besides the element's.
  func umlProperty(default value: PropertyListValue) -> [PropertyListValue.Entry] {
    [
      .init("_type", KeyedArchiveBuilder.null), .init(XDPM.defaultValue, value),
      .init("_association", KeyedArchiveBuilder.null),
    ]
      + ["_isReadOnly", "_isStatic", "_isUnique", "_isDerived", "_isOrdered", "_isComposite", "_isLeaf"].map {
        .init($0, .bool(false))
      }
  }

  /// The three fields of an `XDBucketFor<name>` collection: its storage, `…ordered` (or
  /// `…duplicates` too, for lists) and `…wasEncoded`.
  mutating func bucket(_ name: String, storage: PropertyListValue, ordered: Bool = false, list: Bool = false)
    -> [PropertyListValue.Entry]
  {
    var fields: [PropertyListValue.Entry] = [.init("XDBucketFor\(name)storage", storage)]
    if ordered { fields.append(.init("XDBucketFor\(name)ordered", b.string("ordered"))) }
    if list { fields.append(.init("XDBucketFor\(name)duplicates", b.string("duplicates"))) }
    fields.append(.init("XDBucketFor\(name)wasEncoded", b.string("YES")))
    return fields
  }

  /// A stereotype (`XDUMLStereotypeImp`) of `owner` holding these values, each in an
  /// `XDUMLPropertyImp` as its `_default`.
  mutating func stereotype(_ name: String, owner: PropertyListValue, values: [(String, PropertyListValue)])
    -> PropertyListValue
  {
    let s = b.reserve()
    var entries: [(key: PropertyListValue, value: PropertyListValue)] = []
    for (key, value) in values {
      let keyRef = b.string(key)
      let holder = b.add(
        XDPM.stereotypeProperty, classes: XDPM.chains[XDPM.stereotypeProperty]!,
        fields: umlElement(name: keyRef, owner: s, elementID: nil) + umlProperty(default: value))
      entries.append((keyRef, holder))
    }
    let storage = b.dictionary(entries, className: "NSMutableDictionary")
    b.fill(
      s, XDPM.stereotype, classes: XDPM.chains[XDPM.stereotype]!,
      fields: umlElement(name: b.string(name), owner: owner, elementID: nil) + [.init(XDPM.isAbstract, .bool(false))]
        + bucket("OwnedAttributes", storage: storage, ordered: true))
    return s
  }

  /// The `XDBucketForStereotypes…` fields of an element with these stereotypes.
  mutating func stereotypes(_ list: [(String, PropertyListValue)]) -> [PropertyListValue.Entry] {
    var entries: [(key: PropertyListValue, value: PropertyListValue)] = []
    for (name, value) in list { entries.append((b.string(name), value)) }
    let storage = b.dictionary(entries, className: "NSMutableDictionary")
    return bucket("Stereotypes", storage: storage, ordered: true)
  }

  // MARK: - Values

  mutating func flag(_ value: Bool) -> PropertyListValue { b.object(.bool(value)) }
  mutating func number(_ value: Int64) -> PropertyListValue { b.object(.integer(value)) }

  mutating func userInfo(_ info: UserInfo) -> PropertyListValue {
    var entries: [(key: PropertyListValue, value: PropertyListValue)] = []
    for e in info.entries { entries.append((b.string(e.key), b.string(e.value))) }
    return b.dictionary(entries, className: "NSMutableDictionary")
  }

  mutating func stringLists(_ lists: [[String]]) -> PropertyListValue {
    var inner: [PropertyListValue] = []
    for list in lists {
      var names: [PropertyListValue] = []
      for name in list { names.append(b.string(name)) }
      inner.append(b.array(names, className: "NSMutableArray"))
    }
    return b.array(inner, className: "NSMutableArray")
  }
}
