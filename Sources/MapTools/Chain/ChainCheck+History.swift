import MapRuntime
import MapSyntax

/// What `mapc lint BUNDLE.xcdatamodeld` says about a bundle's history (`Specs/migrate.md` §7),
/// besides the steps that cannot be made: inferred steps that would drop data, versions Core
/// Data does not see as new, and versions it cannot tell apart. Every finding is a warning at
/// the bundle: the models are valid, but a store migrated through them may lose data or be taken
/// for the wrong version.
extension ChainCheck {
  /// The findings for `versions`; `steps[i]` is the step `i → i + 1` when it could be made.
  static func history(_ versions: ModelVersions, steps: [MigrationChain.Step?]) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    let names = versions.names
    let bundle = versions.bundlePath
    let hashes = versions.versions.map(\.base64Hashes)
    for i in versions.versions.indices.dropLast() {
      if hashes[i] == hashes[i + 1] {
        diagnostics.append(
          .warning(
            "chain-version-unchanged",
            "'\(names[i + 1])' has the same entity version hashes as '\(names[i])', the version before it: Core Data does not see it as a new version (a store of '\(names[i])' opens as '\(names[i + 1])' without migrating); if it changes anything a store must be migrated for, set a Hash Modifier (versionHashModifier) on each entity that changed",
            at: nil, file: bundle))
      }
      guard let step = steps[i], step.mappingPath == nil else { continue }
      let lost = dropped(StepAnalysis.analyze(step.plan), model: step.plan.sourceModel)
      if lost.isEmpty { continue }
      let infer =
        "mapc infer \(bundle) \(bundle) --source-version '\(names[i])' --destination-version '\(names[i + 1])' -o MAPPING.xml"
      diagnostics.append(
        .warning(
          "chain-step-drops-data",
          "the inferred step '\(names[i])' → '\(names[i + 1])' drops \(lost.joined(separator: ", ")): a store at '\(names[i])' loses them (as with Core Data's lightweight migration); if they were renamed, give the new ones renaming identifiers, else write a mapping for the step (`\(infer)` writes the inferred one to start from) or accept the loss when migrating (--allow-drop)",
          at: nil, file: bundle))
    }
    diagnostics += unmatchedRenamingIdentifiers(versions)
    for j in versions.versions.indices {
      for i in 0..<max(0, j - 1)
      where hashes[i] == hashes[j] && (i..<j).contains(where: { hashes[$0] != hashes[$0 + 1] }) {
        diagnostics.append(
          .warning(
            "chain-identical-versions",
            "'\(names[i])' and '\(names[j])' have the same entity version hashes: Core Data cannot tell their stores apart (mapc migrate takes such a store to be at '\(names[j])', the later, and skips the steps between)",
            at: nil, file: bundle))
      }
    }
    return diagnostics
  }

  /// A renaming identifier of a version that names nothing in the version before it (no
  /// element of that name or renaming identifier): one warning each, at the element. Core Data
  /// would take the element for a new one; mapc matches it by its own name (`Specs/migrate.md`
  /// §2). Wire's 2.47.0 gives entity `Conversation` the identifier meant for an attribute.
  static func unmatchedRenamingIdentifiers(_ versions: ModelVersions) -> [Diagnostic] {
    var result: [Diagnostic] = []
    let names = versions.names
    for i in versions.versions.indices.dropLast() {
      let (a, b) = (versions.versions[i].model, versions.versions[i + 1].model)
      // Indexes built once per version pair: the check is linear in the models.
      let sourceEntities = MatchKey.Index(a.entities, name: \.name, renamingIdentifier: \.renamingIdentifier)
      for d in b.entities {
        if let r = d.renamingIdentifier, !r.isEmpty, r != d.name, !sourceEntities.hasKey(r), !sourceEntities.hasName(r)
        {
          result.append(
            .warning(
              "chain-renaming-identifier-unmatched",
              "'\(names[i + 1])': entity \(d.name)'s renaming identifier '\(r)' names no entity of '\(names[i])': Core Data would take \(d.name) for a new entity\(sourceEntities.hasName(d.name) ? "; mapc matches it by its name" : "")",
              at: d.location, file: b.path))
        }
        let own =
          d.attributes.map { ($0.name, $0.renamingIdentifier, $0.location) }
          + d.relationships.map { ($0.name, $0.renamingIdentifier, $0.location) }
        guard own.contains(where: { !($0.1 ?? "").isEmpty }) else { continue }
        let key = MatchKey.wanted(name: d.name, renamingIdentifier: d.renamingIdentifier)
        guard let s = (sourceEntities.candidates(key).first ?? sourceEntities.candidates(d.name).first) else {
          continue
        }
        let properties =
          a.allAttributes(of: s).map { (name: $0.name, renamingIdentifier: $0.renamingIdentifier) }
          + a.allRelationships(of: s).map { (name: $0.name, renamingIdentifier: $0.renamingIdentifier) }
        let sourceProperties = MatchKey.Index(properties, name: \.name, renamingIdentifier: \.renamingIdentifier)
        for (name, identifier, location) in own {
          guard let r = identifier, !r.isEmpty, r != name, !sourceProperties.hasKey(r), !sourceProperties.hasName(r)
          else { continue }
          result.append(
            .warning(
              "chain-renaming-identifier-unmatched",
              "'\(names[i + 1])': \(d.name).\(name)'s renaming identifier '\(r)' names no property of \(s.name) in '\(names[i])': Core Data would take it for a new property\(sourceProperties.hasName(name) ? "; mapc matches it by its name" : "")",
              at: location, file: b.path))
        }
      }
    }
    return result
  }

  /// What a step drops, named for the message: `entity Questions`, `Task.priority` (a property
  /// of a parent entity that every concrete entity having it drops is named once, on the
  /// parent). A relationship whose inverse is kept is not dropped: its links are.
  static func dropped(_ analysis: StepAnalysis, model: ObjectModel) -> [String] {
    var result: [String] = []
    var droppedProperties = Set<String>()
    for e in analysis.sourceEntities where !e.isAbstract {
      if case .dropped = e.fate {
        result.append("entity \(e.name)")
        continue
      }
      for p in e.properties where p.fate == .dropped {
        if p.isRelationship, inverseIsKept(of: p.name, in: e.name, analysis: analysis, model: model) { continue }
        droppedProperties.insert(e.name + "." + p.name)
      }
    }
    var named = Set<String>()
    for key in droppedProperties.sorted() {
      let (entity, property) = split(key)
      let declaring = declarer(of: property, in: entity, model: model) ?? entity
      // Every concrete entity that has the property from `declaring` drops it: name it once there.
      let holders = analysis.sourceEntities.filter { e in
        !e.isAbstract && (e.name == declaring || isDescendant(e.name, of: declaring, model: model))
          && e.properties.contains { $0.name == property }
      }
      let allDrop = holders.allSatisfy { h in
        if case .dropped = h.fate { return true }
        return droppedProperties.contains(h.name + "." + property)
      }
      let name = (allDrop ? declaring : entity) + "." + property
      if named.insert(name).inserted { result.append(name) }
    }
    return result
  }

  private static func split(_ key: String) -> (String, String) {
    let dot = key.firstIndex(of: ".")!
    return (String(key[..<dot]), String(key[key.index(after: dot)...]))
  }

  /// The entity among `entity` and its ancestors that declares `property`.
  private static func declarer(of property: String, in entity: String, model: ObjectModel) -> String? {
    guard let e = model.entity(named: entity) else { return nil }
    for candidate in [e] + model.ancestors(of: e)
    where candidate.attributes.contains(where: { $0.name == property })
      || candidate.relationships.contains(where: { $0.name == property })
    {
      return candidate.name
    }
    return nil
  }

  private static func isDescendant(_ entity: String, of ancestor: String, model: ObjectModel) -> Bool {
    guard let e = model.entity(named: entity) else { return false }
    return model.ancestors(of: e).contains { $0.name == ancestor }
  }

  /// Whether the inverse of relationship `name` of `entity` is kept (or renamed, or read) by
  /// the step: the links survive through it.
  private static func inverseIsKept(
    of name: String, in entity: String, analysis: StepAnalysis, model: ObjectModel
  ) -> Bool {
    guard let e = model.entity(named: entity) else { return false }
    let relationship = ([e] + model.ancestors(of: e)).lazy.compactMap { $0.relationships.first { $0.name == name } }
      .first
    guard let relationship, let inverse = relationship.inverseName else { return false }
    let holders = analysis.sourceEntities.filter {
      $0.name == relationship.destinationEntity
        || isDescendant($0.name, of: relationship.destinationEntity, model: model)
    }
    return holders.contains { h in
      if case .dropped = h.fate { return false }
      return h.properties.contains { $0.name == inverse && $0.fate != .dropped }
    }
  }
}
