import Crypto
import MapRuntime

/// Core Data's entity version hashes (`NSEntityDescription.versionHash`), byte for byte.
///
/// The algorithm (Specs/model-input.md §6; reference notes §3.6), all strings UTF-8 without
/// terminator, integers little-endian, SHA-256 throughout:
/// - property base `P = SHA256(name ‖ uint16(flags) ‖ versionHashModifier?)`, flags =
///   1·optional | 2·transient | 4·read-only;
/// - attribute `SHA256(P ‖ int32(NSAttributeType) ‖ [0x01 if external binary storage]
///   ‖ [0x01 if preserved in history on deletion])`;
/// - derived attribute (Core Data's quirk: `P` is not mixed in)
///   `SHA256(derivation expression in NSExpression's printed form)`;
/// - relationship `SHA256(P ‖ destination name ‖ inverse name? ‖ int32(maxCount)
///   ‖ int32(minCount) ‖ [uint16(1) if ordered])`;
/// - composite attribute (Core Data's quirk: neither `P` nor the type is mixed in)
///   `SHA256(hashes of its elements, sorted by element name)`, an element hashed as an attribute
///   (a composite element as a composite), checked against real SwiftData stores;
/// - entity `SHA256(name ‖ uint8(isAbstract) ‖ superentity hash? ‖ hashes of every
///   non-transient attribute and relationship, own and inherited, sorted by name
///   ‖ versionHashModifier? ‖ uniqueness constraints (names joined by "."), sorted)`.
///   Fetched properties are not hashed.
public enum VersionHasher {
  /// Every entity's hash, sorted by entity name.
  public static func entityHashes(of model: ObjectModel) -> [EntityHash] {
    var memo: [String: [UInt8]] = [:]
    var own: [String: [[UInt8]]] = [:]
    return model.entities.map { EntityHash(entity: $0.name, hash: hash(of: $0, in: model, memo: &memo, own: &own)) }
      .sorted { $0.entity.utf8.lexicographicallyPrecedes($1.entity.utf8) }
  }

  /// The version hash of one entity of `model`.
  public static func hash(of entity: EntityDescription, in model: ObjectModel) -> [UInt8] {
    var memo: [String: [UInt8]] = [:]
    var own: [String: [[UInt8]]] = [:]
    return hash(of: entity, in: model, memo: &memo, own: &own)
  }

  /// The hashes of an entity's own attributes then relationships, in declaration order,
  /// computed once per entity (a deep hierarchy reuses each ancestor's for every descendant).
  private static func ownHashes(_ e: EntityDescription, _ own: inout [String: [[UInt8]]]) -> [[UInt8]] {
    if let known = own[e.name] { return known }
    let hashes = e.attributes.map(attributeHash) + e.relationships.map(relationshipHash)
    own[e.name] = hashes
    return hashes
  }

  private static func hash(
    of entity: EntityDescription, in model: ObjectModel, memo: inout [String: [UInt8]],
    own: inout [String: [[UInt8]]]
  ) -> [UInt8] {
    if let known = memo[entity.name] { return known }
    var bytes = Array(entity.name.utf8)
    bytes.append(entity.isAbstract ? 1 : 0)
    // The loader rejects inheritance cycles; the guard only keeps this total.
    if let parentName = entity.parentName, let parent = model.entity(named: parentName),
      !model.ancestors(of: parent).contains(where: { $0.name == entity.name })
    {
      bytes += hash(of: parent, in: model, memo: &memo, own: &own)
    }
    // Own and inherited properties, an own one hiding an ancestor's of the same name, and a
    // later one of an entity hiding an earlier one (as `ObjectModel.allAttributes(of:)`, without
    // its sort: they are sorted by UTF-8 here). Nearest entity first, each one's last first.
    let lineage = entity.parentName == nil ? [] : model.ancestors(of: entity)
    var properties: [(name: String, hash: [UInt8])] = []
    var seen: Set<String> = []
    for e in CollectionOfOne(entity) + lineage {
      let hashes = ownHashes(e, &own)
      for (k, a) in e.attributes.enumerated().reversed() where seen.insert(a.name).inserted && !a.isTransient {
        properties.append((a.name, hashes[k]))
      }
    }
    seen.removeAll(keepingCapacity: true)
    for e in CollectionOfOne(entity) + lineage {
      let hashes = ownHashes(e, &own)
      let first = e.attributes.count
      for (k, r) in e.relationships.enumerated().reversed() where seen.insert(r.name).inserted && !r.isTransient {
        properties.append((r.name, hashes[first + k]))
      }
    }
    properties.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    for p in properties { bytes += p.hash }
    if let modifier = entity.versionHashModifier { bytes += Array(modifier.utf8) }
    let constraints = entity.uniquenessConstraints.map { $0.joined(separator: ".") }
      .filter { !$0.isEmpty }
      .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    for c in constraints { bytes += Array(c.utf8) }
    let result = sha256(bytes)
    memo[entity.name] = result
    return result
  }

  /// `SHA256(name ‖ uint16(flags) ‖ versionHashModifier?)`.
  static func propertyBase(
    name: String, isOptional: Bool, isTransient: Bool, isReadOnly: Bool, modifier: String?
  ) -> [UInt8] {
    var bytes = Array(name.utf8)
    let flags: UInt16 = (isOptional ? 1 : 0) | (isTransient ? 2 : 0) | (isReadOnly ? 4 : 0)
    bytes += littleEndian(flags)
    if let modifier { bytes += Array(modifier.utf8) }
    return sha256(bytes)
  }

  package static func attributeHash(_ a: AttributeDescription) -> [UInt8] {
    if a.type == .composite {
      let elements = a.compositeElements.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
      return sha256(elements.flatMap(attributeHash))
    }
    if a.isDerived {
      let printed = DerivationExpressionFormatter.printedForm(a.derivationExpression ?? "")
      return sha256(Array(printed.utf8))
    }
    var bytes = propertyBase(
      name: a.name, isOptional: a.isOptional, isTransient: a.isTransient, isReadOnly: false,
      modifier: a.versionHashModifier)
    bytes += littleEndian(a.type.coreDataCode)
    if a.allowsExternalBinaryDataStorage { bytes.append(1) }
    if a.preservesValueInHistoryOnDeletion { bytes.append(1) }
    return sha256(bytes)
  }

  package static func relationshipHash(_ r: RelationshipDescription) -> [UInt8] {
    var bytes = propertyBase(
      name: r.name, isOptional: r.isOptional, isTransient: r.isTransient, isReadOnly: false,
      modifier: r.versionHashModifier)
    bytes += Array(r.destinationEntity.utf8)
    if let inverse = r.inverseName { bytes += Array(inverse.utf8) }
    bytes += littleEndian(Int32(truncatingIfNeeded: r.maxCount))
    bytes += littleEndian(Int32(truncatingIfNeeded: r.minCount))
    if r.isOrdered { bytes += littleEndian(UInt16(1)) }
    return sha256(bytes)
  }

  /// A derivation expression as Core Data hashes it (NSExpression's printed form).
  public static func printedDerivationExpression(_ text: String) -> String {
    DerivationExpressionFormatter.printedForm(text)
  }

  package static func sha256(_ bytes: [UInt8]) -> [UInt8] {
    // Through raw buffers: the generic `hash(data:)` and digest sequence paths cost more than
    // the hashing itself for inputs this short.
    var hasher = SHA256()
    bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
    return hasher.finalize().withUnsafeBytes { Array($0) }
  }

  private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
  }
}
