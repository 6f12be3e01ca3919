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
    let byIdentifier = items.filter { wanted(name: name($0), renamingIdentifier: renamingIdentifier($0)) == key }
    if !byIdentifier.isEmpty { return byIdentifier }
    return items.filter { name($0) == key }
  }
}
