import Foundation
import MapRuntime
import MapSQLite
import MapTools

/// The model `mapc store check` and `mapc store repair` read a store with: the version of
/// `--model` (a bundle, a model, a SwiftData schema) whose entity version hashes the store's
/// metadata holds, or without `--model` the model the store carries (`Z_MODELCACHE`). When
/// no version has the store's hashes, the closest one, and a finding that names, entity by
/// entity, what differs.
struct StoreCheckModel {
  var model: ObjectModel
  var version: String
  /// `check-unknown-version`, when the metadata names no version.
  var unknown: StoreFinding?

  /// Prints what cannot be read and exits (1 a model, 2 the store).
  static func resolve(store: String, model path: String?, swift: SwiftSourceOptions, command: String) throws
    -> StoreCheckModel
  {
    let hashes: [String: String]
    do {
      hashes = try StoreCheck.metadataHashes(storeAt: store)
    } catch {
      throw Console.failure(error)
    }
    var versions: ModelVersions
    if let path {
      do {
        if URL(fileURLWithPath: path).pathExtension == "xcdatamodel" {
          // One version of a bundle, as the option's help says: the model it holds.
          let loaded = try ModelInput.load(path, version: nil)
          Console.report(loaded.warnings)
          let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
          versions = ModelVersions(bundlePath: path, single: ModelVersion(name: name, model: loaded.model))
        } else {
          versions = try ModelInput.versions(ModelArgument([path], swift: swift))
        }
      } catch {
        throw Console.failure(error)
      }
    } else {
      versions = try CachedModel.versions(store: store, command: command, writes: command != "store check")
    }
    let match = versions.matchingConfiguration(of: hashes)
    let configuration = match.configuration
    versions = match.versions
    switch StoreVersion.identify(hashes, in: versions) {
    case .version(let i):
      let name = versions.versions[i].name + (configuration.map { "', configuration '\($0)" } ?? "")
      return StoreCheckModel(model: versions.versions[i].model, version: name)
    case .unknown(let closest, let differing):
      let v = versions.versions[closest]
      let details = differing.map { e in
        switch (hashes[e], v.base64Hashes[e]) {
        case (nil, _): "\(e) (not in the store's metadata)"
        case (_, nil): "\(e) (not in '\(v.name)')"
        case (let s?, let m?): "\(e) (store \(s), '\(v.name)' \(m))"
        }
      }
      let finding = StoreFinding(
        "check-unknown-version", .error,
        "the metadata's entity version hashes match no version of \(path ?? "the store's own model (Z_MODELCACHE)"): Core Data refuses to open the store; the closest is '\(v.name)', whose entities differ: \(details.joined(separator: ", "))",
        table: "Z_METADATA",
        repair: "none: give --model the version that wrote the store, or migrate it")
      return StoreCheckModel(model: v.model, version: v.name, unknown: finding)
    }
  }
}
