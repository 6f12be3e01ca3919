import MapCompiler
import MapRuntime
import MapSyntax

/// Infers a mapping model between two versions of a data model with Core Data's lightweight
/// rules (reference notes §5.3; `Specs/migrate.md` §2). The result is an ordinary
/// `MappingDocument`: entity mappings for every concrete source entity that has a destination
/// counterpart, with explicit expressions only where a property was renamed or an optional
/// value becomes mandatory; everything else is the compiler's implicit `$source.name`.
///
/// Nothing is ever guessed: an element is matched only by its renaming identifier or its
/// name. What cannot be inferred is an `infer-*` error at the model element at fault, saying
/// why and which mapping to write instead.
public enum MappingInference {
  /// `matching`, when given, replaces the lookup by renaming identifier and name: each
  /// destination element takes its values from the source element it names, and one it does
  /// not name is new (how a step is reversed, `InferenceMatching`).
  public static func infer(
    source: ObjectModel, destination: ObjectModel, sourceHashes: [EntityHash], destinationHashes: [EntityHash],
    path: String, matching: InferenceMatching? = nil
  ) -> InferredMapping {
    var state = InferenceState(source: source, destination: destination, path: path)
    state.given = matching
    state.matchEntities()
    state.checkHierarchies()
    var elements: [EntityMappingElement] = []
    for d in destination.entities {
      guard let sourceName = state.sourceOf[d.name], let s = source.entity(named: sourceName), !s.isAbstract else {
        continue
      }
      if let e = state.entityMapping(s, d) { elements.append(e) }
    }
    let failed = state.diagnostics.hasErrors
    let document = MappingDocument(
      path: path, name: Located(state.mappingName, at: state.here), formatVersion: Located("1", at: state.here),
      entityMappings: elements, location: state.here)
    return InferredMapping(
      document: failed ? nil : document, diagnostics: state.diagnostics.sortedByLocation(),
      addedEntities: state.added, removedEntities: state.removed, renames: state.renames, matching: state.matching)
  }
}

/// The work of one inference: matches found so far and problems.
struct InferenceState {
  let source: ObjectModel
  let destination: ObjectModel
  let path: String
  /// Where the generated elements say they come from.
  let here: SourceLocation
  var diagnostics: [Diagnostic] = []
  /// Destination entity name → its source entity name.
  var sourceOf: [String: String] = [:]
  /// Source entity name → its destination entity name.
  var destinationOf: [String: String] = [:]
  var added: [String] = []
  var removed: [String] = []
  var renames: [String] = []
  /// The matching to follow instead of renaming identifiers (a reversed step), and the one found.
  var given: InferenceMatching?
  var matching = InferenceMatching()

  init(source: ObjectModel, destination: ObjectModel, path: String) {
    self.source = source
    self.destination = destination
    self.path = path
    self.here = SourceLocation(file: path, line: 1, column: 1)
  }

  var mappingName: String {
    "\(source.versionName ?? "Source")To\(destination.versionName ?? "Destination")"
      .filter { !$0.isWhitespace }
  }

  mutating func problem(_ id: String, _ message: String, at location: SourceLocation?, in model: ObjectModel) {
    diagnostics.append(.error(id, message, at: location, file: model.path))
  }

  mutating func matchEntities() {
    var claimedBy: [String: String] = [:]
    var keys: [String: String] = [:]
    let sourceEntities = MatchKey.Index(source.entities, name: \.name, renamingIdentifier: \.renamingIdentifier)
    for d in destination.entities {
      let key = MatchKey.wanted(name: d.name, renamingIdentifier: d.renamingIdentifier)
      if let other = keys[key] {
        problem(
          "infer-duplicate-renaming-id",
          "entities \(other) and \(d.name) both have the renaming identifier \(key) (Core Data: \"Each destination entity must have a unique renaming identifier\"); give \(d.name) its own renaming identifier in the model",
          at: d.location, in: destination)
        continue
      }
      keys[key] = d.name
      var candidates = sourceEntities.candidates(key)
      if let given {
        candidates = given.entities[d.name].map { sourceEntities.named($0) } ?? []
      }
      // mapc's choice (Specs/migrate.md §2): a renaming identifier that names nothing in the
      // source falls back to the entity's own name, with a warning; Core Data would take the
      // entity for a new one.
      if given == nil, candidates.isEmpty, key != d.name, sourceEntities.hasName(d.name) {
        candidates = sourceEntities.candidates(d.name)
        diagnostics.append(
          .warning(
            "infer-renaming-identifier-unmatched",
            "entity \(d.name)'s renaming identifier \(key) names no source entity; matched by its name, \(d.name) (Core Data would take it for a new entity and drop the source's objects)",
            at: d.location, file: destination.path))
      }
      if candidates.count > 1 {
        problem(
          "infer-ambiguous-match",
          "entity \(d.name) (renaming identifier \(key)) matches several source entities: \(candidates.map(\.name).joined(separator: ", ")); make the renaming identifiers unique or write a mapping",
          at: d.location, in: destination)
        continue
      }
      guard let s = candidates.first else {
        added.append(d.name)
        continue
      }
      if let first = claimedBy[s.name] {
        problem(
          "infer-ambiguous-match",
          "entities \(first) and \(d.name) both take their instances from source entity \(s.name); an inferred mapping moves each entity to one place: write a mapping",
          at: d.location, in: destination)
        continue
      }
      claimedBy[s.name] = d.name
      sourceOf[d.name] = s.name
      destinationOf[s.name] = d.name
      matching.entities[d.name] = s.name
      if s.name != d.name { renames.append("\(s.name) → \(d.name)") }
    }
    removed = source.entities.map(\.name).filter { destinationOf[$0] == nil }
  }

  /// Core Data cannot infer merging hierarchies: entities without a common parent in the source
  /// cannot share one in the destination.
  mutating func checkHierarchies() {
    var sourceRootsByDestinationRoot: [String: [(root: String, destination: String)]] = [:]
    for d in destination.entities {
      guard let s = sourceOf[d.name].flatMap({ source.entity(named: $0) }) else { continue }
      let dRoot = (destination.ancestors(of: d).last ?? d).name
      let sRoot = (source.ancestors(of: s).last ?? s).name
      sourceRootsByDestinationRoot[dRoot, default: []].append((sRoot, d.name))
    }
    for d in destination.entities {
      guard let members = sourceRootsByDestinationRoot[d.name], let first = members.first,
        let other = members.first(where: { $0.root != first.root })
      else { continue }
      problem(
        "infer-merged-hierarchy",
        "\(first.destination) and \(other.destination) share the parent entity \(d.name), but their source entities \(sourceOf[first.destination]!) and \(sourceOf[other.destination]!) have no common parent (Core Data cannot infer merging entity hierarchies); write a mapping",
        at: d.location, in: destination)
    }
  }

  /// The entity mapping for a concrete source entity and its counterpart.
  mutating func entityMapping(_ s: EntityDescription, _ d: EntityDescription) -> EntityMappingElement? {
    if d.isAbstract {
      problem(
        "infer-abstract-destination",
        "entity \(d.name) is abstract, but its source entity \(s.name) has instances; Core Data cannot create instances of an abstract entity: make \(d.name) concrete or write a mapping to one of its subentities",
        at: d.location, in: destination)
      return nil
    }
    let (attributes, relationships) = propertyElements(s, d)
    return EntityMappingElement(
      source: Located(s.name, at: here), destination: Located(d.name, at: here),
      attributes: attributes, relationships: relationships, location: here)
  }
}
