import MapRuntime

/// The configuration a store is of, when it is of one (`ModelVersions.matchingConfiguration`).
public struct ConfigurationMatch: Sendable {
  /// The versions as the store sees them: restricted to the configuration when there is one.
  public var versions: ModelVersions
  /// The configuration's name; nil for a store of whole versions.
  public var configuration: String?
  /// Other configurations of the deciding version with the same entities (the first declared is taken).
  public var alike: [String] = []
  /// The versions that have no such configuration, or one that cannot stand alone, taken whole.
  public var whole: [String] = []
}

extension ModelVersions {
  /// The versions as a store of one configuration sees them, when the store's entity hashes are
  /// those of no whole version but exactly those of a configuration of one (an app with more
  /// than one store: Core Data hashes, numbers and lays out each store from its configuration's
  /// entities, reference §3, §8.1): every version restricted to that configuration
  /// (`ObjectModel.restricted(toConfiguration:)`), with the versions left whole. Otherwise the
  /// versions as they are. The latest version decides, as `StoreVersion.identify` does; of its
  /// configurations with the store's entities, the first declared.
  public func matchingConfiguration(of storeHashes: [String: String]) -> ConfigurationMatch {
    if case .version = StoreVersion.identify(storeHashes, in: self) { return ConfigurationMatch(versions: self) }
    for v in versions.reversed() {
      let matching = v.model.configurations.filter { c in
        v.model.restricted(toConfiguration: c.name).map { ModelVersion(name: v.name, model: $0).base64Hashes }
          == storeHashes
      }.map(\.name)
      guard let name = matching.first else { continue }
      var match = ConfigurationMatch(versions: self, configuration: name, alike: Array(matching.dropFirst()))
      match.versions.versions = versions.map { v in
        guard let model = v.model.restricted(toConfiguration: name) else {
          match.whole.append(v.name)
          return v
        }
        return ModelVersion(name: v.name, model: model)
      }
      return match
    }
    return ConfigurationMatch(versions: self)
  }
}
