import MapCompiler
import MapRuntime

/// Computes a `ModelDiff`. Matching is Core Data's (and `MappingInference`'s): a destination
/// entity or property matches the source one named by its renaming identifier, else the one of
/// its own name; nothing is guessed.
public enum ModelDiffer {
  public static func diff(from a: ModelVersion, to b: ModelVersion) -> ModelDiff {
    let (source, destination) = (a.model, b.model)
    let sourceHashes = Dictionary(a.hashes.map { ($0.entity, $0.hash) }, uniquingKeysWith: { x, _ in x })
    let destinationHashes = Dictionary(b.hashes.map { ($0.entity, $0.hash) }, uniquingKeysWith: { x, _ in x })
    var matchedSources = Set<String>()
    var entities: [ModelDiff.EntityChange] = []
    for d in destination.entities {
      let match = d.renamingIdentifier.flatMap(source.entity(named:)) ?? source.entity(named: d.name)
      guard let s = match, !matchedSources.contains(s.name) else {
        entities.append(
          ModelDiff.EntityChange(
            name: d.name, kind: .added, renamedFrom: nil, changes: [],
            properties: stored(d).map { added($0) }, hashChanged: true))
        continue
      }
      matchedSources.insert(s.name)
      let properties = propertyChanges(s, d)
      var changes = entityChanges(s, d)
      let hashChanged = sourceHashes[s.name] != destinationHashes[d.name]
      if changes.isEmpty && properties.isEmpty && hashChanged {
        changes.append("version hash changed: an entity it inherits from changed")
      }
      let kind: ModelDiff.Kind =
        s.name != d.name ? .renamed : (changes.isEmpty && properties.isEmpty && !hashChanged ? .unchanged : .changed)
      entities.append(
        ModelDiff.EntityChange(
          name: d.name, kind: kind, renamedFrom: s.name != d.name ? s.name : nil, changes: changes,
          properties: properties, hashChanged: hashChanged))
    }
    for s in source.entities where !matchedSources.contains(s.name) {
      entities.append(
        ModelDiff.EntityChange(
          name: s.name, kind: .removed, renamedFrom: nil, changes: [],
          properties: stored(s).map { removed($0) }, hashChanged: true))
    }
    var diff = ModelDiff(
      from: a.name, to: b.name, entities: entities, inference: inference(a, b), destination: destination)
    diff.sameHashes = a.base64Hashes == b.base64Hashes
    diff.unmatchedRenamings = ChainCheck.unmatchedRenamingIdentifiers(ModelVersions(bundlePath: "", chain: [a, b]))
      .map(\.message)
    return diff
  }

  /// Core Data's verdict: infer the mapping (`MappingInference`); if it can, compile it and ask
  /// the data-loss analysis (`StepAnalysis`) what the step drops.
  static func inference(_ a: ModelVersion, _ b: ModelVersion) -> ModelDiff.Inference {
    let label = "inferred mapping \(a.name) → \(b.name)"
    let inferred = MappingInference.infer(
      source: a.model, destination: b.model, sourceHashes: a.hashes, destinationHashes: b.hashes, path: label)
    guard let document = inferred.document else {
      return .notInferable(inferred.diagnostics.filter { $0.severity == .error }.map(\.message))
    }
    let compiled = MappingCompiler.compile(
      document,
      models: .init(source: a.model, destination: b.model, sourceHashes: a.hashes, destinationHashes: b.hashes))
    guard let plan = compiled.plan else {
      return .notInferable(compiled.diagnostics.filter { $0.severity == .error }.map(\.message))
    }
    var lost: [String] = []
    for e in StepAnalysis.analyze(plan).sourceEntities where !e.isAbstract {
      switch e.fate {
      case .dropped, .removed: lost.append("every \(e.name) object")
      case .migrated:
        let dropped = e.properties.filter { $0.fate == .dropped }.map { "\(e.name).\($0.name)" }
        lost += dropped
      }
    }
    return lost.isEmpty ? .inferable : .losesData(lost)
  }

  /// A property of one side, as stored (transient ones too: they are part of the model).
  enum Property {
    case attribute(AttributeDescription)
    case relationship(RelationshipDescription)

    var name: String {
      switch self {
      case .attribute(let a): a.name
      case .relationship(let r): r.name
      }
    }
    var renamingIdentifier: String? {
      switch self {
      case .attribute(let a): a.renamingIdentifier
      case .relationship(let r): r.renamingIdentifier
      }
    }
    var isRelationship: Bool {
      if case .relationship = self { return true }
      return false
    }
  }

  static func stored(_ e: EntityDescription) -> [Property] {
    e.attributes.map(Property.attribute) + e.relationships.map(Property.relationship)
  }

  static func added(_ p: Property) -> ModelDiff.PropertyChange {
    ModelDiff.PropertyChange(
      name: p.name, isRelationship: p.isRelationship, kind: .added, renamedFrom: nil, changes: [], summary: summary(p))
  }

  static func removed(_ p: Property) -> ModelDiff.PropertyChange {
    ModelDiff.PropertyChange(
      name: p.name, isRelationship: p.isRelationship, kind: .removed, renamedFrom: nil, changes: [], summary: summary(p)
    )
  }

  static func propertyChanges(_ s: EntityDescription, _ d: EntityDescription) -> [ModelDiff.PropertyChange] {
    let sourceProps = stored(s)
    let byName = Dictionary(sourceProps.map { ($0.name, $0) }, uniquingKeysWith: { x, _ in x })
    var matched = Set<String>()
    var result: [ModelDiff.PropertyChange] = []
    for q in stored(d) {
      let match = q.renamingIdentifier.flatMap { byName[$0] } ?? byName[q.name]
      guard let p = match, !matched.contains(p.name), p.isRelationship == q.isRelationship else {
        result.append(added(q))
        continue
      }
      matched.insert(p.name)
      let changes = facetChanges(p, q)
      let renamed = p.name != q.name
      guard renamed || !changes.isEmpty else { continue }
      result.append(
        ModelDiff.PropertyChange(
          name: q.name, isRelationship: q.isRelationship, kind: renamed ? .renamed : .changed,
          renamedFrom: renamed ? p.name : nil, changes: changes, summary: summary(q)))
    }
    for p in sourceProps where !matched.contains(p.name) { result.append(removed(p)) }
    return result
  }

  static func entityChanges(_ s: EntityDescription, _ d: EntityDescription) -> [String] {
    var changes: [String] = []
    func compare<T: Equatable>(_ label: String, _ x: T, _ y: T, _ show: (T) -> String) {
      if x != y { changes.append("\(label): \(show(x)) → \(show(y))") }
    }
    compare("parent", s.parentName, d.parentName) { $0 ?? "none" }
    compare("abstract", s.isAbstract, d.isAbstract) { $0 ? "yes" : "no" }
    compare("hash modifier", s.versionHashModifier, d.versionHashModifier) { $0.map { "'\($0)'" } ?? "none" }
    compare("uniqueness constraints", s.uniquenessConstraints, d.uniquenessConstraints) { list in
      list.isEmpty ? "none" : list.map { "(" + $0.joined(separator: ", ") + ")" }.joined(separator: " ")
    }
    compare("compound indexes", s.compoundIndexes, d.compoundIndexes) { list in
      list.isEmpty ? "none" : list.map { "(" + $0.joined(separator: ", ") + ")" }.joined(separator: " ")
    }
    compare("fetch indexes", s.fetchIndexes, d.fetchIndexes) { list in
      list.isEmpty
        ? "none"
        : list.map { "\($0.name)(" + $0.elements.map(\.property).joined(separator: ", ") + ")" }.joined(separator: " ")
    }
    return changes
  }

  static func facetChanges(_ p: Property, _ q: Property) -> [String] {
    var changes: [String] = []
    func compare<T: Equatable>(_ label: String, _ x: T, _ y: T, _ show: (T) -> String) {
      if x != y { changes.append("\(label): \(show(x)) → \(show(y))") }
    }
    let yesNo = { (b: Bool) in b ? "yes" : "no" }
    let text = { (s: String?) in s.map { "'\($0)'" } ?? "none" }
    switch (p, q) {
    case (.attribute(let a), .attribute(let b)):
      compare("type", a.type, b.type) { $0.rawValue }
      compare("optional", a.isOptional, b.isOptional, yesNo)
      compare("default", a.defaultValueString, b.defaultValueString, text)
      compare("transient", a.isTransient, b.isTransient, yesNo)
      compare("derived", a.isDerived ? a.derivationExpression : nil, b.isDerived ? b.derivationExpression : nil, text)
      compare("indexed", a.isIndexed, b.isIndexed, yesNo)
      compare("hash modifier", a.versionHashModifier, b.versionHashModifier, text)
      compare("external storage", a.allowsExternalBinaryDataStorage, b.allowsExternalBinaryDataStorage, yesNo)
      compare("value transformer", a.valueTransformerName, b.valueTransformerName, text)
      compare("minimum", a.minValueString, b.minValueString, text)
      compare("maximum", a.maxValueString, b.maxValueString, text)
      compare("regular expression", a.regularExpression, b.regularExpression, text)
    case (.relationship(let a), .relationship(let b)):
      compare("destination", a.destinationEntity, b.destinationEntity) { $0 }
      compare("inverse", a.inverseName, b.inverseName, text)
      compare("to-many", a.isToMany, b.isToMany, yesNo)
      compare("ordered", a.isOrdered, b.isOrdered, yesNo)
      compare("optional", a.isOptional, b.isOptional, yesNo)
      compare("delete rule", a.deleteRule, b.deleteRule) { $0.rawValue }
      compare("count", "\(a.minCount)…\(a.maxCount)", "\(b.minCount)…\(b.maxCount)") { $0 }
      compare("transient", a.isTransient, b.isTransient, yesNo)
      compare("hash modifier", a.versionHashModifier, b.versionHashModifier, text)
    default:
      break
    }
    return changes
  }

  /// `String, optional` / `to-many → Tag, ordered`.
  static func summary(_ p: Property) -> String {
    switch p {
    case .attribute(let a):
      var s = a.type.rawValue
      if a.isOptional { s += ", optional" }
      if a.isTransient { s += ", transient" }
      if let d = a.defaultValueString { s += ", default \(d)" }
      return s
    case .relationship(let r):
      var s = "\(r.isToMany ? "to-many" : "to-one") → \(r.destinationEntity)"
      if r.isOrdered { s += ", ordered" }
      if r.isOptional { s += ", optional" }
      return s
    }
  }
}
