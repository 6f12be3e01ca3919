extension ModelVersions {
  /// One model as a bundle of one version (the model a store carries, Specs/sqlite-store.md §7.2).
  public init(bundlePath: String, single version: ModelVersion) {
    self.init(bundlePath: bundlePath, versions: [version], current: 0)
  }

  /// Versions given in chain order, the last the current one: the model a store carries and the
  /// target of `mapc migrate` (Specs/sqlite-store.md §7.2).
  public init(bundlePath: String, chain versions: [ModelVersion]) {
    self.init(bundlePath: bundlePath, versions: versions, current: versions.count - 1)
  }
}
