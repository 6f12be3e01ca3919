import MapRuntime
import MapSyntax

/// Checks a mapping document against its two models and builds the plan.
///
/// Every problem is reported, not just the first; a plan is returned only when there is no
/// error. The rules are specified in `Specs/mapping-xml.md`.
public struct MappingCompiler: Sendable {
  /// Both models with their entity version hashes.
  public struct Models: Sendable {
    public var source: ObjectModel
    public var destination: ObjectModel
    public var sourceHashes: [EntityHash]
    public var destinationHashes: [EntityHash]
    public init(
      source: ObjectModel, destination: ObjectModel, sourceHashes: [EntityHash], destinationHashes: [EntityHash]
    ) {
      self.source = source
      self.destination = destination
      self.sourceHashes = sourceHashes
      self.destinationHashes = destinationHashes
    }
  }

  public struct Result: Sendable {
    public var plan: MigrationPlan?
    public var diagnostics: [Diagnostic]
  }

  let document: MappingDocument
  let models: Models
  let index: ModelIndex
  /// `models`' entity hashes by entity name (the first of a name), for a lookup per mapping.
  let sourceHashByEntity: [String: EntityHash]
  let destinationHashByEntity: [String: EntityHash]
  var diagnostics: [Diagnostic] = []
  var predicates: [PrecompiledPredicate] = []

  public static func compile(_ document: MappingDocument, models: Models) -> Result {
    // The two halves of the index are independent: built at the same time.
    let (sourceIndex, destinationIndex) = Concurrently.both(
      { ModelIndex.entries(of: models.source) }, { ModelIndex.entries(of: models.destination) })
    var compiler = MappingCompiler(
      document: document, models: models, index: ModelIndex(source: sourceIndex, destination: destinationIndex))
    let plan = compiler.run()
    let diagnostics = compiler.diagnostics.sortedByLocation()
    return Result(plan: diagnostics.hasErrors ? nil : plan, diagnostics: diagnostics)
  }

  init(document: MappingDocument, models: Models) {
    self.init(
      document: document, models: models, index: ModelIndex(source: models.source, destination: models.destination))
  }

  package init(document: MappingDocument, models: Models, index: ModelIndex) {
    self.document = document
    self.models = models
    self.index = index
    sourceHashByEntity = Dictionary(models.sourceHashes.map { ($0.entity, $0) }, uniquingKeysWith: { a, _ in a })
    destinationHashByEntity = Dictionary(
      models.destinationHashes.map { ($0.entity, $0) }, uniquingKeysWith: { a, _ in a })
  }

  mutating func error(_ id: String, _ message: String, at location: SourceLocation, notes: [Diagnostic.Note] = []) {
    diagnostics.append(.error(id, message, at: location, notes: notes))
  }

  mutating func warning(_ id: String, _ message: String, at location: SourceLocation) {
    diagnostics.append(.warning(id, message, at: location))
  }

  private mutating func run() -> MigrationPlan {
    let planName = document.name?.value ?? defaultPlanName()
    let infos = mappingInfos()
    // Entity mappings are compiled independently of each other, a contiguous run of them per
    // thread; the runs' results are joined in document order, so the outcome is the same as
    // compiling them one after the other.
    let elements = document.entityMappings
    let base = MappingCompiler(document: document, models: models, index: index)
    let runs = Concurrently.chunks(of: elements.count, minimumChunk: 16) { range in
      var compiler = base
      let mappings = elements[range].compactMap { compiler.compileEntityMapping($0, infos: infos) }
      return (mappings, compiler.diagnostics, compiler.predicates)
    }
    var mappings: [EntityMapping] = []
    mappings.reserveCapacity(elements.count)
    for (runMappings, runDiagnostics, runPredicates) in runs {
      mappings += runMappings
      diagnostics += runDiagnostics
      for p in runPredicates where !predicates.contains(where: { $0.text == p.text }) {
        predicates.append(p)
      }
    }
    return MigrationPlan(
      name: planName, mappingPath: document.path, userInfo: document.userInfo,
      sourceModel: models.source, destinationModel: models.destination,
      sourceEntityHashes: models.sourceHashes, destinationEntityHashes: models.destinationHashes,
      entityMappings: mappings, predicates: predicates.sorted { $0.text < $1.text })
  }

  private func defaultPlanName() -> String {
    var name = document.path.split(separator: "/").last.map(String.init) ?? "mapping"
    if name.hasSuffix(".xml") { name.removeLast(4) }
    return name
  }

  /// The name an entity mapping gets: its `name`, or Xcode's `<Source>To<Destination>`.
  package static func defaultName(_ e: EntityMappingElement) -> String {
    switch (e.source?.value, e.destination?.value) {
    case (let s?, let d?): "\(s)To\(d)"
    case (nil, let d?): d
    case (let s?, nil): s
    default: "EntityMapping"
    }
  }

  private mutating func mappingInfos() -> [String: TypeChecker.MappingInfo] {
    var infos: [String: TypeChecker.MappingInfo] = [:]
    var firstLocation: [String: SourceLocation] = [:]
    for e in document.entityMappings {
      let name = e.name?.value ?? Self.defaultName(e)
      let at = e.name?.location ?? e.location
      if let first = firstLocation[name] {
        error(
          "map-duplicate-mapping", "there is already an entity mapping named \(name)", at: at,
          notes: [Diagnostic.Note("first mapping named \(name) is here", at: first)])
        continue
      }
      firstLocation[name] = at
      infos[name] = TypeChecker.MappingInfo(
        name: name, source: e.source?.value, destination: e.destination?.value, fansOut: e.forEach != nil)
    }
    return infos
  }
}
