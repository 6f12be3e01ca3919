import MapRuntime

/// Compares a mapping model's embedded snapshot with the model file it belongs to, entity by
/// entity, by Core Data's entity version hashes, and says what changed in each entity that
/// differs (`xcmap-model-drift`).
public enum ModelDrift {
  public static func compare(
    snapshot: ObjectModel, file: ObjectModel, fileHashes: [EntityHash], side: String, filePath: String,
    at location: SourceLocation
  ) -> [Diagnostic] {
    let old = Dictionary(
      VersionHasher.entityHashes(of: snapshot).map { ($0.entity, $0.hash) }, uniquingKeysWith: { a, _ in a })
    let new = Dictionary(fileHashes.map { ($0.entity, $0.hash) }, uniquingKeysWith: { a, _ in a })
    var changes: [String] = []
    for name in Set(old.keys).union(new.keys).sorted() where old[name] != new[name] {
      switch (snapshot.entity(named: name), file.entity(named: name)) {
      case (nil, _?): changes.append("\(name): entity added")
      case (_?, nil): changes.append("\(name): entity removed")
      case (let a?, let b?): changes.append("\(name): " + describe(a, b).joined(separator: ", "))
      default: break
      }
    }
    guard !changes.isEmpty else { return [] }
    return [
      .error(
        "xcmap-model-drift",
        "the \(side) model changed since this mapping model was made: \(filePath) differs from the snapshot in the mapping in \(changes.count) entit\(changes.count == 1 ? "y" : "ies") (\(changes.joined(separator: "; "))). Core Data matches mappings by these hashes, so on the device the migration fails with \"Mismatch between mapping and \(side) models\" or \"Can't find mapping model for migration\"; open the mapping in Xcode and choose Editor ▸ Refresh Data Models (or regenerate it with mapc export)",
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
    let oldAttributes = Dictionary(a.attributes.map { ($0.name, $0) }, uniquingKeysWith: { x, _ in x })
    let newAttributes = Dictionary(b.attributes.map { ($0.name, $0) }, uniquingKeysWith: { x, _ in x })
    for name in Set(oldAttributes.keys).union(newAttributes.keys).sorted() {
      switch (oldAttributes[name], newAttributes[name]) {
      case (nil, let n?): out.append("attribute \(name) added (\(n.type.rawValue))")
      case (_?, nil): out.append("attribute \(name) removed")
      case (let o?, let n?):
        if o.type != n.type { out.append("attribute \(name) type \(o.type.rawValue) → \(n.type.rawValue)") }
        if o.isOptional != n.isOptional {
          out.append("attribute \(name) \(n.isOptional ? "became optional" : "became mandatory")")
        }
        if o.isTransient != n.isTransient {
          out.append("attribute \(name) \(n.isTransient ? "became transient" : "no longer transient")")
        }
        if o.allowsExternalBinaryDataStorage != n.allowsExternalBinaryDataStorage {
          out.append("attribute \(name) external storage changed")
        }
        if o.versionHashModifier != n.versionHashModifier {
          out.append("attribute \(name) versionHashModifier changed")
        }
      default: break
      }
    }
    let oldRelationships = Dictionary(a.relationships.map { ($0.name, $0) }, uniquingKeysWith: { x, _ in x })
    let newRelationships = Dictionary(b.relationships.map { ($0.name, $0) }, uniquingKeysWith: { x, _ in x })
    for name in Set(oldRelationships.keys).union(newRelationships.keys).sorted() {
      switch (oldRelationships[name], newRelationships[name]) {
      case (nil, let n?): out.append("relationship \(name) added (to \(n.destinationEntity))")
      case (_?, nil): out.append("relationship \(name) removed")
      case (let o?, let n?):
        if o.destinationEntity != n.destinationEntity {
          out.append("relationship \(name) destination \(o.destinationEntity) → \(n.destinationEntity)")
        }
        if o.isToMany != n.isToMany {
          out.append("relationship \(name) \(n.isToMany ? "became to-many" : "became to-one")")
        }
        if o.isOrdered != n.isOrdered {
          out.append("relationship \(name) \(n.isOrdered ? "became ordered" : "no longer ordered")")
        }
        if o.isOptional != n.isOptional {
          out.append("relationship \(name) \(n.isOptional ? "became optional" : "became mandatory")")
        }
        if o.inverseName != n.inverseName {
          out.append("relationship \(name) inverse \(o.inverseName ?? "none") → \(n.inverseName ?? "none")")
        }
        if o.minCount != n.minCount || o.maxCount != n.maxCount {
          out.append("relationship \(name) count limits changed")
        }
        if o.isTransient != n.isTransient { out.append("relationship \(name) transient changed") }
      default: break
      }
    }
    if a.uniquenessConstraints != b.uniquenessConstraints { out.append("uniqueness constraints changed") }
    if out.isEmpty { out.append("inherited properties or hash inputs changed") }
    return out
  }
}
