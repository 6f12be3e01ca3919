/// How Core Data's lightweight rules pair elements of two model versions: a destination element
/// names its source by renaming identifier (Xcode's "Renaming ID", `elementID`), which defaults
/// to its own name. A source element answers to its renaming identifier and to its name, so
/// both the canonical-name convention (every later version keeps the first name as renaming
/// identifier) and the previous-name convention chain one version at a time.
enum MatchKey {
  /// The key a destination element looks its source up by.
  static func wanted(name: String, renamingIdentifier: String?) -> String {
    renamingIdentifier.flatMap { $0.isEmpty ? nil : $0 } ?? name
  }

  /// The source candidates `key` designates: those whose renaming identifier is `key` first;
  /// else those whose name is `key`. Several means the models are ambiguous.
  static func candidates<T>(_ key: String, in items: [T], name: (T) -> String, renamingIdentifier: (T) -> String?)
    -> [T]
  {
    Index(items, name: name, renamingIdentifier: renamingIdentifier).candidates(key)
  }

  /// The source elements by match key and by name, built once so that matching every destination
  /// element is linear in the models' size (a scan per element was quadratic: 20,000 attributes
  /// took 37 s).
  struct Index<T> {
    let items: [T]
    /// Positions in `items`, ascending, by `wanted(name:renamingIdentifier:)`.
    let byKey: [String: [Int]]
    /// Positions in `items`, ascending, by name.
    let byName: [String: [Int]]

    init(_ items: [T], name: (T) -> String, renamingIdentifier: (T) -> String?) {
      self.items = items
      var byKey: [String: [Int]] = [:]
      var byName: [String: [Int]] = [:]
      for (i, item) in items.enumerated() {
        let n = name(item)
        byKey[MatchKey.wanted(name: n, renamingIdentifier: renamingIdentifier(item)), default: []].append(i)
        byName[n, default: []].append(i)
      }
      self.byKey = byKey
      self.byName = byName
    }

    /// See `MatchKey.candidates`.
    func candidates(_ key: String) -> [T] {
      (byKey[key] ?? byName[key] ?? []).map { items[$0] }
    }

    /// The source elements of this name (a reversed step's matching names them).
    func named(_ name: String) -> [T] { (byName[name] ?? []).map { items[$0] } }

    /// Whether a source element has this name.
    func hasName(_ name: String) -> Bool { byName[name] != nil }

    /// Whether a source element answers to this key by its name or renaming identifier.
    func hasKey(_ key: String) -> Bool { byKey[key] != nil }
  }
}
