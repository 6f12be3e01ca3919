import Crypto
import Foundation
import MapArchives
import MapRuntime

/// The `Z_METADATA` row a written store gets (reference §2.2, §8): the destination model's
/// hashes with their digest and checksum, its version identifiers, Core Data's fixed keys, and
/// the keys carried from the source store (its UUID, framework version and the app's keys).
struct CoreDataMetadataOut {
  var uuid: String
  var hashes: [EntityHash]
  var identifiers: [String]
  /// Keys carried over, already as plist values (`NSStoreUUID` excluded: it is `uuid`).
  var carried: [PropertyListValue.Entry]

  /// The framework version written when the source had none (macOS 14 / iOS 17's).
  static let defaultFrameworkVersion: Int64 = 1344

  init(metadata: StoreWriteMetadata) {
    var carried: [String: PropertyListValue] = [:]
    // A key whose value is nil (a JSON store's `null`) is dropped: a property list has no nil.
    for (key, value) in metadata.extra where value != .null { carried[key] = CoreDataMetadataValues.plist(value) }
    for (key, value) in metadata.generated { carried[key] = CoreDataMetadataValues.plist(value) }
    if case .string(let u)? = carried.removeValue(forKey: "NSStoreUUID") {
      uuid = u
    } else {
      uuid = UUID().uuidString
    }
    for k in CoreDataMetadata.derivedKeys { carried.removeValue(forKey: k) }
    if carried["NSPersistenceFrameworkVersion"] == nil {
      carried["NSPersistenceFrameworkVersion"] = .integer(Self.defaultFrameworkVersion)
    }
    self.hashes = metadata.entityHashes.sorted {
      Array($0.entity.utf8).lexicographicallyPrecedes(Array($1.entity.utf8))
    }
    self.identifiers = metadata.modelVersionIdentifiers
    self.carried = carried.map { .init($0.key, $0.value) }
  }

  /// The `NSPersistenceFrameworkVersion` written (the source's, else the default).
  var frameworkVersion: Int64 {
    carried.first { $0.key == "NSPersistenceFrameworkVersion" }?.value.integerValue ?? Self.defaultFrameworkVersion
  }

  func plist() -> PropertyListValue {
    var entries = carried
    entries.append(.init("NSStoreModelVersionHashes", .dictionary(hashes.map { .init($0.entity, .data($0.hash)) })))
    entries.append(.init("NSStoreModelVersionHashesVersion", .integer(3)))
    entries.append(.init("NSStoreModelVersionIdentifiers", .array(identifiers.map(PropertyListValue.string))))
    entries.append(.init("NSStoreType", .string("SQLite")))
    entries.append(.init("_NSAutoVacuumLevel", .string("2")))
    // Digest: SHA-512 over name bytes ‖ hash per entity, names in UTF-8 order; checksum:
    // SHA-256 over the hashes in that order (reference §2.2, reproduced there on real stores).
    var digest = SHA512()
    var checksum = SHA256()
    for h in hashes {
      digest.update(data: Array(h.entity.utf8) + h.hash)
      checksum.update(data: h.hash)
    }
    entries.append(.init("NSStoreModelVersionHashesDigest", .string(Data(digest.finalize()).base64EncodedString())))
    entries.append(.init("NSStoreModelVersionChecksumKey", .string(Data(checksum.finalize()).base64EncodedString())))
    return .dictionary(entries.sorted { $0.key < $1.key })
  }
}
