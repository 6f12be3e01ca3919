import MapArchives
import MapRuntime

/// Decodes the model snapshots an Xcode mapping model embeds (`sourcemodeldata` and
/// `destinationmodeldata` of `xcmapping.xml`): keyed archives of Xcode's private `XDPMModel`.
///
/// The result holds everything the snapshot says that matters to Core Data: entities (name,
/// parent, abstract, class name, renaming ID, version hash modifier, user info, uniqueness
/// constraints, compound indexes) and their attributes and relationships. Entities are sorted by
/// name, and so are each entity's attributes and relationships (the archive keeps them in hash
/// tables, whose order means nothing). UML bookkeeping, the diagram-free Xcode state, fetch
/// request lists, configurations and fetched properties are not read
/// (`Specs/xcmappingmodel-snapshots.md`).
///
/// The input is untrusted: an unknown class, a missing field, a value of the wrong type, a
/// reference to an object that is not an entity or relationship of the model, or a cycle of
/// parent entities is a `ModelSnapshotError` naming the object and field; nothing traps. The
/// reader does not recurse: the archive's nesting is fixed (model → package → entity →
/// property → stereotype → value), and inheritance chains are walked iteratively.
public enum ModelSnapshotReader {
  /// Decodes one `XDPMModel` archive (the bytes after base64 decoding).
  public static func read(_ bytes: [UInt8]) throws(ModelSnapshotError) -> ObjectModel {
    let archive: KeyedArchive
    do {
      archive = try KeyedArchive(bytes: bytes)
    } catch {
      throw ModelSnapshotError(error.message)
    }
    var reader = SnapshotModelReader(decoder: SnapshotDecoder(archive: archive))
    return try reader.read()
  }
}

/// One decoding: the table of entities and properties by object index, then each entity.
struct SnapshotModelReader {
  let decoder: SnapshotDecoder

  struct EntityRecord {
    var object: ArchivedObject
    var name: String
  }
  struct PropertyRecord {
    var object: ArchivedObject
    var entity: String
    var name: String
  }

  /// Entities by object index.
  var entities: [Int: EntityRecord] = [:]
  /// Own properties of each entity (by entity object index), in archive order.
  var ownProperties: [Int: [PropertyRecord]] = [:]
  /// Every property of the model by object index.
  var properties: [Int: PropertyRecord] = [:]

  init(decoder: SnapshotDecoder) { self.decoder = decoder }

  mutating func read() throws(ModelSnapshotError) -> ObjectModel {
    let d = decoder
    let root = try d.k { () throws(KeyedArchiveError) in try d.archive.object(d.archive.root) }
    guard root.className == XDPM.model else {
      throw ModelSnapshotError("the root, \(SnapshotDecoder.describe(root)), is not an \(XDPM.model)")
    }
    let identifier = try d.k { () throws(KeyedArchiveError) in
      try d.archive.string(
        root[XDPM.versionIdentifier], "\(SnapshotDecoder.describe(root)) field '\(XDPM.versionIdentifier)'")
    }
    let package = try d.instance(
      try d.field(root, XDPM.rootPackage), "\(SnapshotDecoder.describe(root)) field '\(XDPM.rootPackage)'",
      classes: [XDPM.package])
    for bucket in [XDPM.packages, XDPM.interfaces, XDPM.dataTypes] {
      let entries = try d.dictionary(package, bucket, required: false)
      guard entries.isEmpty else {
        throw ModelSnapshotError(
          "\(SnapshotDecoder.describe(package)) field '\(bucket)' holds \(entries.count) elements; data model snapshots have none"
        )
      }
    }
    try collect(package)
    var result: [EntityDescription] = []
    for index in entities.keys.sorted() {
      result.append(try entity(at: index))
    }
    result.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    try checkInheritance(result)
    return ObjectModel(entities: result, versionIdentifiers: [identifier ?? ""])
  }

  /// Fills the tables: every entity of the package and every property of every entity.
  private mutating func collect(_ package: ArchivedObject) throws(ModelSnapshotError) {
    let d = decoder
    var names: Set<String> = []
    for entry in try d.dictionary(package, XDPM.classes) {
      let o = try d.instance(
        entry.value, "entity '\(entry.key)' of \(SnapshotDecoder.describe(package))", classes: [XDPM.entity])
      let name = try d.name(o)
      guard name == entry.key else {
        throw ModelSnapshotError("\(SnapshotDecoder.describe(o)) is named '\(name)' but listed as '\(entry.key)'")
      }
      guard names.insert(name).inserted, entities[o.index] == nil else {
        throw ModelSnapshotError("\(SnapshotDecoder.describe(o)): entity '\(name)' is listed twice")
      }
      entities[o.index] = EntityRecord(object: o, name: name)
    }
    for (index, record) in entities {
      var seen: Set<String> = []
      var own: [PropertyRecord] = []
      for entry in try d.dictionary(record.object, XDPM.ownedAttributes) {
        let context = "property '\(entry.key)' of entity '\(record.name)'"
        let o = try d.instance(entry.value, context, classes: [XDPM.property], kindOf: true)
        let name = try d.name(o)
        guard name == entry.key else {
          throw ModelSnapshotError(
            "\(SnapshotDecoder.describe(o)) is named '\(name)' but listed as '\(entry.key)' in entity '\(record.name)'")
        }
        guard seen.insert(name).inserted, properties[o.index] == nil else {
          throw ModelSnapshotError("\(SnapshotDecoder.describe(o)): \(context) is listed twice")
        }
        let p = PropertyRecord(object: o, entity: record.name, name: name)
        properties[o.index] = p
        own.append(p)
      }
      ownProperties[index] = own
    }
  }

  /// Decodes the entity at `index` with its attributes and relationships.
  private func entity(at index: Int) throws(ModelSnapshotError) -> EntityDescription {
    let d = decoder
    let record = entities[index]!
    let o = record.object
    let what = "entity '\(record.name)'"
    let all = try d.stereotypes(of: o, what)
    let s = try d.stereotype(XDPM.entityStereotype, in: all, of: o, what)
    var fallbackAbstract: Bool? = nil
    if let v = o[XDPM.isAbstract] {
      guard case .bool(let b) = v else {
        throw ModelSnapshotError(
          "\(SnapshotDecoder.describe(o)) field '_isAbstract' is \(Stereotype.kind(v)), expected a boolean")
      }
      fallbackAbstract = b
    }
    if let mapping = try s.object(XDPM.EntityKey.classMapping, classes: [XDPM.umlClass]) {
      _ = try d.name(mapping)
    }
    _ = try s.arrayCount(XDPM.EntityKey.fetchRequests)
    var entity = EntityDescription(
      name: record.name,
      className: try s.text(XDPM.EntityKey.className),
      parentName: try parent(of: o, what),
      isAbstract: try s.flag(XDPM.EntityKey.isAbstract, fallbackAbstract),
      renamingIdentifier: try s.text(XDPM.EntityKey.elementID),
      versionHashModifier: try s.text(XDPM.EntityKey.versionHashModifier),
      userInfo: try s.userInfo(XDPM.EntityKey.userInfo),
      uniquenessConstraints: try s.stringLists(XDPM.EntityKey.uniquenessConstraints),
      compoundIndexes: try s.stringLists(XDPM.EntityKey.compoundIndexes))
    for p in ownProperties[index] ?? [] {
      switch p.object.className {
      case XDPM.attribute:
        entity.attributes.append(try attribute(p))
      case XDPM.relationship:
        entity.relationships.append(try relationship(p))
      default:
        continue  // another kind of property (fetched properties): not hashed, not migrated
      }
    }
    let byName: (String, String) -> Bool = { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    entity.attributes.sort { byName($0.name, $1.name) }
    entity.relationships.sort { byName($0.name, $1.name) }
    let attributeNames = Set(entity.attributes.map(\.name))
    if let clash = entity.relationships.first(where: { attributeNames.contains($0.name) }) {
      throw ModelSnapshotError(
        "\(what) (\(SnapshotDecoder.describe(o))) has an attribute and a relationship named '\(clash.name)'")
    }
    return entity
  }

  /// The parent entity named by the entity's one generalization, if any.
  private func parent(of o: ArchivedObject, _ what: String) throws(ModelSnapshotError) -> String? {
    let d = decoder
    let items = try d.array(o, XDPM.generalizations)
    guard !items.isEmpty else { return nil }
    guard items.count == 1 else {
      throw ModelSnapshotError(
        "\(what) (\(SnapshotDecoder.describe(o))) has \(items.count) generalizations; an entity has at most one parent")
    }
    let g = try d.instance(items[0], "the generalization of \(what)", classes: [XDPM.generalization])
    let general = try d.instance(
      try d.field(g, XDPM.general), "\(SnapshotDecoder.describe(g)) field '_general'", classes: [XDPM.entity])
    guard let parent = entities[general.index] else {
      throw ModelSnapshotError(
        "\(SnapshotDecoder.describe(g)) field '_general' refers to \(SnapshotDecoder.describe(general)), which is not an entity of the model"
      )
    }
    return parent.name
  }

  /// Every parent exists (it does by construction) and no entity inherits from itself.
  private func checkInheritance(_ list: [EntityDescription]) throws(ModelSnapshotError) {
    let parents = Dictionary(list.map { ($0.name, $0.parentName) }, uniquingKeysWith: { a, _ in a })
    for e in list {
      var chain = [e.name]
      var current = e.parentName
      while let p = current {
        chain.append(p)
        if p == e.name {
          throw ModelSnapshotError("entity '\(e.name)' inherits from itself: \(chain.joined(separator: " → "))")
        }
        guard chain.count <= list.count + 1 else { break }  // a cycle above e, reported from there
        current = parents[p] ?? nil
      }
    }
  }
}
