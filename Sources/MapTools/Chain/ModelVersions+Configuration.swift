import MapRuntime

extension ModelVersions {
  /// The versions as a store of one configuration sees them, when the store's entity hashes are
  /// those of no whole version but exactly those of a configuration of one (an app with more
  /// than one store: Core Data hashes, numbers and lays out each store from its configuration's
  /// entities, reference §3, §8.1): every version restricted to that configuration
  /// (`ObjectModel.restricted(toConfiguration:)`; a version without it stays whole), and the
  /// configuration's name. Otherwise `self` and nil. The latest version decides, as
  /// `StoreVersion.identify` does.
  public func matchingConfiguration(of storeHashes: [String: String]) -> (
    versions: ModelVersions, configuration: String?
  ) {
    if case .version = StoreVersion.identify(storeHashes, in: self) { return (self, nil) }
    for v in versions.reversed() {
      for c in v.model.configurations {
        guard let model = v.model.restricted(toConfiguration: c.name),
          ModelVersion(name: v.name, model: model).base64Hashes == storeHashes
        else { continue }
        return (restricted(toConfiguration: c.name), c.name)
      }
    }
    return (self, nil)
  }

  /// Every version restricted to configuration `name` (one without it, or whose configuration
  /// cannot stand alone, stays whole).
  public func restricted(toConfiguration name: String) -> ModelVersions {
    var result = self
    result.versions = versions.map { v in
      v.model.restricted(toConfiguration: name).map { ModelVersion(name: v.name, model: $0) } ?? v
    }
    return result
  }
}
