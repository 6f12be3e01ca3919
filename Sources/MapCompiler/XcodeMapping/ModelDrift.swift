import MapModelReader
import MapRuntime
import MapSyntax

/// Compares a mapping model's embedded snapshot with the model file it belongs to, as Core
/// Data matches a mapping model: by the entity version hashes its entity mappings record
/// (`sourceEntityVersionHash`, `destinationEntityVersionHash`), which Xcode takes from the
/// snapshot. Only the entities the listed entity mappings name on a side are compared; an entity
/// of the snapshot no entity mapping names plays no part (`xcmap-model-drift`).
public enum ModelDrift {
  /// An entity mapping as the drift check sees it: its name (Xcode's `<Source>To<Destination>`
  /// when it has none) and the entity it names on the side compared.
  public struct Listed: Sendable {
    public var mapping: String
    public var entity: String

    public init(mapping: String, entity: String) {
      self.mapping = mapping
      self.entity = entity
    }
  }

  /// The entity mappings of `mapping` that name an entity on `side` (`source`, `destination`).
  public static func listed(_ mapping: XcodeMapping, side: String) -> [Listed] {
    mapping.entityMappings.compactMap { m in
      guard let entity = (side == "source" ? m.source : m.destination)?.value, !entity.isEmpty else { return nil }
      let name =
        m.name?.value
        ?? {
          switch (m.source?.value, m.destination?.value) {
          case (let s?, let d?): "\(s)To\(d)"
          case (nil, let d?): d
          case (let s?, nil): s
          default: "EntityMapping"
          }
        }()
      return Listed(mapping: name, entity: entity)
    }
  }

  public static func compare(
    snapshot: ObjectModel, file: ObjectModel, fileHashes: [EntityHash], side: String, filePath: String,
    listed: [Listed], at location: SourceLocation
  ) -> [Diagnostic] {
    let old = Dictionary(
      VersionHasher.entityHashes(of: snapshot).map { ($0.entity, $0.hash) }, uniquingKeysWith: { a, _ in a })
    let new = Dictionary(fileHashes.map { ($0.entity, $0.hash) }, uniquingKeysWith: { a, _ in a })
    var changes: [String] = []
    var described: [String: String] = [:]
    for m in listed where old[m.entity] != new[m.entity] {
      let what: String
      if let known = described[m.entity] {
        what = known
      } else {
        switch (snapshot.entity(named: m.entity), file.entity(named: m.entity)) {
        case (nil, _?): what = "entity added"
        case (_?, nil): what = "entity removed"
        case (let a?, let b?): what = describe(a, b).joined(separator: ", ")
        default: continue
        }
        described[m.entity] = what
      }
      changes.append("entity mapping \(m.mapping), \(side) \(m.entity): \(what)")
    }
    guard !changes.isEmpty else { return [] }
    let count = changes.count == 1 ? "1 entity mapping" : "\(changes.count) entity mappings"
    return [
      .error(
        "xcmap-model-drift",
        "the \(side) model changed since this mapping model was made: in \(filePath), the \(side) entity of \(count) differs from the snapshot in the mapping, whose \(side)EntityVersionHash it recorded (\(changes.joined(separator: "; "))). Core Data matches mappings by these hashes, so on the device the migration fails with \"Mismatch between mapping and \(side) models\" or \"Can't find mapping model for migration\"; open the mapping in Xcode and choose Editor ▸ Refresh Data Models (or regenerate it with mapc export)",
        at: location)
    ]
  }

  /// What differs between two versions of an entity, in the terms of Core Data's hash inputs.
  static func describe(_ a: EntityDescription, _ b: EntityDescription) -> [String] {
    var out: [String] = []
    if a.isAbstract != b.isAbstract { out.append(b.isAbstract ? "became abstract" : "no longer abstract") }
    if a.parentName != b.parentName {
      out.append("parent entity \(a.parentName ?? "none") → \(b.parentName ?? "none")")
    }
    if a.versionHashModifier != b.versionHashModifier { out.append("versionHashModifier changed") }
    out += propertyChanges("attribute", a.attributes, b.attributes, name: \.name, added: \.type.rawValue) { o, n in
      var c: [String] = []
      if o.type != n.type { c.append("type \(o.type.rawValue) → \(n.type.rawValue)") }
      if o.isOptional != n.isOptional { c.append(n.isOptional ? "became optional" : "became mandatory") }
      if o.isTransient != n.isTransient { c.append(n.isTransient ? "became transient" : "no longer transient") }
      if o.allowsExternalBinaryDataStorage != n.allowsExternalBinaryDataStorage { c.append("external storage changed") }
      if o.versionHashModifier != n.versionHashModifier { c.append("versionHashModifier changed") }
      return c
    }
    out += propertyChanges(
      "relationship", a.relationships, b.relationships, name: \.name, added: { "to \($0.destinationEntity)" }
    ) { o, n in
      var c: [String] = []
      if o.destinationEntity != n.destinationEntity {
        c.append("destination \(o.destinationEntity) → \(n.destinationEntity)")
      }
      if o.isToMany != n.isToMany { c.append(n.isToMany ? "became to-many" : "became to-one") }
      if o.isOrdered != n.isOrdered { c.append(n.isOrdered ? "became ordered" : "no longer ordered") }
      if o.isOptional != n.isOptional { c.append(n.isOptional ? "became optional" : "became mandatory") }
      if o.inverseName != n.inverseName {
        c.append("inverse \(o.inverseName ?? "none") → \(n.inverseName ?? "none")")
      }
      if o.minCount != n.minCount || o.maxCount != n.maxCount { c.append("count limits changed") }
      if o.isTransient != n.isTransient { c.append("transient changed") }
      return c
    }
    if a.uniquenessConstraints != b.uniquenessConstraints { out.append("uniqueness constraints changed") }
    if out.isEmpty { out.append("inherited properties or hash inputs changed") }
    return out
  }

  /// The changes of one kind of property, in name order: `KIND NAME added (…)` (`added` says
  /// what it is), `KIND NAME removed`, or one `KIND NAME …` for each change `changed` lists.
  private static func propertyChanges<P>(
    _ kind: String, _ old: [P], _ new: [P], name: (P) -> String, added: (P) -> String,
    changed: (P, P) -> [String]
  ) -> [String] {
    let oldByName = Dictionary(old.map { (name($0), $0) }, uniquingKeysWith: { x, _ in x })
    let newByName = Dictionary(new.map { (name($0), $0) }, uniquingKeysWith: { x, _ in x })
    var out: [String] = []
    for property in Set(oldByName.keys).union(newByName.keys).sorted() {
      switch (oldByName[property], newByName[property]) {
      case (nil, let n?): out.append("\(kind) \(property) added (\(added(n)))")
      case (_?, nil): out.append("\(kind) \(property) removed")
      case (let o?, let n?): out += changed(o, n).map { "\(kind) \(property) \($0)" }
      default: break
      }
    }
    return out
  }
}
