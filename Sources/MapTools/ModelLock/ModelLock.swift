import Foundation
import MapModelReader
import MapRuntime

/// `Model.lock` (Specs/model-lock.md): what each shipped version of a model bundle hashes to, so
/// that an edit to a version that already shipped (which strands its users' stores: "Can't find
/// model for source store") is caught before it ships again.
public struct ModelLock: Sendable, Equatable {
  /// One locked version.
  public struct Version: Sendable, Equatable {
    public var name: String
    /// `NSManagedObjectModel.versionChecksum` (base64 of SHA-256 over the entity version hashes
    /// in entity name order): what `NSStagedMigrationManager`'s stages name a version by, and what
    /// a store records as `NSStoreModelVersionChecksumKey`.
    public var checksum: String
    public var entities: [Entity]
  }

  /// One entity of a locked version: its version hash and what goes into it.
  public struct Entity: Sendable, Equatable {
    public var name: String
    /// `NSEntityDescription.versionHash`, base64.
    public var hash: String
    public var parent: String?
    public var isAbstract: Bool
    public var hashModifier: String?
    public var uniquenessConstraints: [String]
    /// Its own stored (non-transient) attributes and relationships, by name.
    public var properties: [Property]
  }

  /// One property: Core Data's property version hash and a readable summary of what it hashes.
  public struct Property: Sendable, Equatable {
    public var name: String
    public var hash: String
    public var summary: String
  }

  /// A step between two consecutive locked versions and what it drops (`StepAnalysis.droppable`):
  /// shipped, so every device already made it; `mapc migrate --lock` accepts those drops.
  public struct Step: Sendable, Equatable {
    public var from: String
    public var to: String
    public var drops: [String]

    public init(from: String, to: String, drops: [String]) {
      self.from = from
      self.to = to
      self.drops = drops
    }
  }

  /// The bundle's file name (`Model.xcdatamodeld`).
  public var model: String
  public var versions: [Version]
  /// The steps between consecutive locked versions whose hashes differ, in chain order.
  public var steps: [Step] = []

  public static let format = "mapc-model-lock"

  /// The lock of `versions` (every one, in chain order).
  public static func make(_ versions: [ModelVersion], model: String) -> ModelLock {
    ModelLock(model: model, versions: versions.map(version))
  }

  /// One version as the lock records it.
  public static func version(_ v: ModelVersion) -> Version {
    let hashes = Dictionary(v.hashes.map { ($0.entity, $0.hash) }, uniquingKeysWith: { a, _ in a })
    let entities = v.model.entities.sorted { Self.precedes($0.name, $1.name) }.map { e in
      Entity(
        name: e.name, hash: Data(hashes[e.name] ?? []).base64EncodedString(), parent: e.parentName,
        isAbstract: e.isAbstract, hashModifier: e.versionHashModifier,
        uniquenessConstraints: e.uniquenessConstraints.map { $0.joined(separator: ",") }.sorted(),
        properties: properties(of: e))
    }
    return Version(name: v.name, checksum: checksum(v.hashes), entities: entities)
  }

  /// `NSManagedObjectModel.versionChecksum`: SHA-256 over the 32-byte version hashes of every
  /// entity, in the order of their names, base64.
  public static func checksum(_ hashes: [EntityHash]) -> String {
    let bytes = hashes.sorted { precedes($0.entity, $1.entity) }.flatMap(\.hash)
    return Data(VersionHasher.sha256(bytes)).base64EncodedString()
  }

  /// Names in the order `NSString.compare:` gives ASCII names: by UTF-16 code units.
  static func precedes(_ a: String, _ b: String) -> Bool { a.utf16.lexicographicallyPrecedes(b.utf16) }

  static func properties(of e: EntityDescription) -> [Property] {
    var list: [Property] = []
    for a in e.attributes where !a.isTransient {
      var summary = "attribute \(a.type.rawValue)"
      if a.isDerived { summary += ", derived from \(a.derivationExpression ?? "")" }
      if a.isOptional { summary += ", optional" }
      if a.allowsExternalBinaryDataStorage { summary += ", external storage" }
      if a.preservesValueInHistoryOnDeletion { summary += ", preserved in history" }
      if let m = a.versionHashModifier { summary += ", hash modifier '\(m)'" }
      list.append(
        Property(name: a.name, hash: Data(VersionHasher.attributeHash(a)).base64EncodedString(), summary: summary))
    }
    for r in e.relationships where !r.isTransient {
      var summary = "\(r.isToMany ? "to-many" : "to-one") relationship to \(r.destinationEntity)"
      if let inverse = r.inverseName { summary += " (inverse \(inverse))" }
      if r.isOrdered { summary += ", ordered" }
      if r.isOptional { summary += ", optional" }
      if r.minCount != 0 || (r.isToMany && r.maxCount != 0) { summary += ", count \(r.minCount)…\(r.maxCount)" }
      if let m = r.versionHashModifier { summary += ", hash modifier '\(m)'" }
      list.append(
        Property(name: r.name, hash: Data(VersionHasher.relationshipHash(r)).base64EncodedString(), summary: summary))
    }
    return list.sorted { precedes($0.name, $1.name) }
  }
}
