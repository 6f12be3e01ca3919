import Foundation

/// `mapc run` with `--memory-limit`, for a store larger than the limit allows in memory: the
/// store is read a chunk of objects at a time (`ChunkedStoreFormat`), the plan runs over each
/// chunk as over a store of its own, and each chunk's destination objects are numbered on from
/// the previous chunk's and written out before the next chunk is read. `StreamingPlan` says
/// which entities may go this way; what it allows gives the bytes the run over the whole store
/// gives (`Specs/limits.md` "Memory").
enum StreamingRun {
  /// Memory a run takes besides its store: the program, its tables, buffers.
  static let baseline = 48 << 20

  /// The summary of a run in chunks, or nil when the store fits the limit in memory (the usual
  /// run then goes on). Throws `run-memory-limit` when it fits neither way.
  static func runIfNeeded(
    plan: MigrationPlan, storePath: String, options: MigrationRun.Options, limit: Int, phases: PhaseTimer
  ) throws(MigrationFailure) -> MigrationRun.Summary? {
    // A store handed on in memory by a chain's previous step is in memory already
    // (`StoreFormat.readBack`; under a limit a step hands on no more objects than it read).
    let format = options.storeFormat
    guard options.handedIn == nil, let size = StoreFootprint.of(storePath, format: format, limit: limit),
      size.expectedPeak > limit
    else { return nil }
    func refuse(_ why: String) -> MigrationFailure { tooLarge(size, limit: limit, storePath, why) }
    guard let chunked = format as? any ChunkedStoreFormat else {
      throw refuse("the \(format.name) format cannot be read a chunk at a time yet")
    }
    // (A step of a chain that could hand its result on in memory writes it instead: the next
    // step reads it from that file, a chunk at a time too.)
    if options.checkSource != nil && (options.checkSourcePart == nil || options.checkSourceParts == nil) {
      throw refuse("this run's data-loss check cannot add up chunks")
    }
    var problems: [MigrationError] = []
    let policies = MappingPolicies.make(plan, &problems)
    // Objects that keep their numbers can refer out of their chunk, to stubs.
    // (Numbers a format's chunks do not carry, a JSON store's ids give: `ChunkNumbering`.)
    let stubs = options.keepObjectKeys && chunked.readsReferencesAsStubs
    let streaming = StreamingPlan(
      plan, usesDefaultPolicy: policies.policies.map { $0 is DefaultEntityMigrationPolicy }, stubs: stubs,
      listsMembers: chunked.listsToManyMembers,
      sourceCheck: { chunked.cannotStream(source: $0, in: plan.sourceModel) },
      destinationCheck: { chunked.cannotStream(destination: $0, in: plan.destinationModel) })
    let budget = MemoryBudget(limit: limit)
    try refuseIfNothingFits(streaming, size: size, limit: limit, storePath)
    // An object made by a fan-out (`forEach`) shares its source's number with its siblings:
    // the run in memory then numbers them all anew, which only the whole entity can say.
    if options.keepObjectKeys,
      let m = plan.entityMappings.first(where: {
        $0.forEach != nil && $0.sourceEntity.map(streaming.streamed.contains) == true
      })
    {
      throw refuse(
        "the mapping \(m.name) makes several objects of each source object (forEach) in a step that keeps the objects' numbers"
      )
    }
    do throws(MigrationFailure) {
      return try run(
        plan: plan, storePath: storePath, options: options, format: chunked, streaming: streaming,
        budget: budget, phases: phases)
    } catch {
      throw explained(error, streaming, size: size, limit: limit, storePath)
    }
  }

  private static func run(
    plan: MigrationPlan, storePath: String, options: MigrationRun.Options, format: any ChunkedStoreFormat,
    streaming: StreamingPlan, budget: MemoryBudget, phases: PhaseTimer
  ) throws(MigrationFailure) -> MigrationRun.Summary {
    let clock = ContinuousClock()
    let start = clock.now
    if let peek = try? format.peekMetadata(storePath), let hashes = peek.entityVersionHashes {
      var recorded = StoreMetadata()
      recorded.entityVersionHashes = hashes.map { ($0.key, $0.value) }
      let differing = recorded.entitiesWithDifferentHashes(plan.sourceEntityHashes)
      if !differing.isEmpty { throw mismatch(differing, storePath) }
    }
    let sourceLayout = StoreLayout.of(plan.sourceModel, reusing: options.layouts.source)
    let destinationLayout = StoreLayout.of(plan.destinationModel, reusing: options.layouts.destination)
    let streamed = Set(sourceLayout.entities.filter { streaming.streamed.contains($0.name) }.map(\.index))
    // What the run keeps on disk (the format's files of chunks written, its spills), removed
    // however the run ends (SIGINT, SIGTERM and SIGHUP included).
    let scratch = try ScratchFolder(name: "mapc-chunks")
    defer { scratch.remove() }
    let reader = try format.openChunks(
      storePath, layout: sourceLayout, streamed: streamed, stubs: !streaming.stubbed.isEmpty,
      positionsOnly: format.positions(streaming.positionsOnly, forWriterListingMembers: format.listsToManyMembers),
      budget: budget, maxErrors: options.maxErrors, scratch: scratch.path)
    let target: String?
    let backup: String?
    switch options.output {
    case .file(let path): (target, backup) = (path, nil)
    case .inPlace(let b): (target, backup) = (storePath, b)
    case .none: (target, backup) = (nil, nil)
    case .replace(let t, let b): (target, backup) = (t, b)
    }
    let writer = try format.openChunkWriter(
      layout: destinationLayout, target: target, scratch: scratch.path, budget: budget)
    writer.expect(
      {
        guard let (forecast, keys) = format.metadataForecast(storePath, layout: sourceLayout) else { return nil }
        let metadata = StoreWriteMetadata(
          modelVersionIdentifiers: plan.destinationModel.versionIdentifiers,
          entityHashes: plan.destinationEntityHashes, extra: forecast.extra, generated: options.generatedMetadata)
        // (The objects' highest numbers go on with them when they keep them.)
        return (metadata, options.keepObjectKeys ? keys : [:])
      }, durable: options.durable)
    var committed = false
    defer { if !committed { writer.discard() } }

    var numbered = [Int](repeating: 0, count: destinationLayout.entities.count)
    var read: [String: Int] = [:]
    var made: [String: Int] = [:]
    var parallel: [String] = []
    var mappingCounts: [MigrationManager.MappingCount] = []
    var keyHighWater: [String: Int64] = [:]
    // An inferred step's objects keep their numbers: where the chunks do not carry the whole
    // store's (a JSON store's ids), each streamed entity is numbered as a conversion numbers it,
    // and a later id that denies its first chunk refuses the run (it cannot start over: the
    // data-loss check has counted the chunks).
    let numbersFromIds = options.keepObjectKeys && !format.keepsObjectKeysInChunks
    var numbers = ChunkNumbering(layout: sourceLayout, path: storePath, anew: [])
    var sourceHighWater: [String: Int64] = [:]
    var chunks = 0
    // Progress: the read phase in bytes (or rows) of the store, as chunks are taken (the passes of each
    // chunk are not reported: they would start over for every chunk).
    let total = reader.progressTotal
    let phase: MigrationRun.IOPhase = reader.countsRows ? .readRows : .read
    options.ioProgress?(phase, 0, total)
    var consumed = 0
    // A chunk of streamed objects runs the mappings over its entities; the part read whole
    // runs every other mapping, once (one without a source entity makes objects of its own).
    let streamedMappings = Set(
      plan.entityMappings.indices.filter {
        plan.entityMappings[$0].sourceEntity.map(streaming.streamed.contains) ?? false
      })
    let wholeMappings = Set(plan.entityMappings.indices).subtracting(streamedMappings)
    // The mappings over the entities a chunk holds stubs of run in every chunk too.
    let stubMappings = Set(
      plan.entityMappings.indices.filter {
        plan.entityMappings[$0].sourceEntity.map(streaming.stubbed.contains) ?? false
      })
    // (The mapping that made each destination object, for the positions a chunk gives.)
    let soleMappings = streaming.positions.isEmpty ? [:] : StreamingPlan.soleMappings(plan).mapValues(\.name)
    let prefetch = ChunkPrefetch(reader)
    defer { prefetch.stop() }
    func migrate(_ chunk: ObjectGraph) throws(MigrationFailure) {
      chunks += 1
      try options.checkSourcePart?(chunk)
      if numbersFromIds {
        if let e = try numbers.number(chunk) { throw numbers.deniedByALaterId(e) }
        sourceHighWater.merge(chunk.keyHighWater, uniquingKeysWith: max)
      }
      var managerOptions = MigrationManager.Options(
        maxErrors: options.maxErrors, now: options.now, parallelMinimum: options.parallelMinimum,
        destinationLayout: destinationLayout)
      managerOptions.destinationNumbersBefore = numbered
      managerOptions.skippedMappings =
        chunk.isStreamedChunk ? wholeMappings.subtracting(stubMappings) : streamedMappings
      let manager = try MigrationManager(plan: plan, source: chunk, options: managerOptions)
      try manager.migrate()
      // An inferred step's objects keep their numbers: a streamed entity's are unique and
      // positive in its table (`keepsObjectKeysInChunks`), so the whole run keeps them too.
      if options.keepObjectKeys { manager.keepSourceObjectKeys() }
      for d in options.elementDrops {
        manager.destination.removeElement(d.path, of: d.attribute, entity: d.entity, source: chunk)
      }
      let destination = manager.destination
      carryPositions(of: chunk, to: manager, soleMappings, streaming.positions)
      for (e, t) in destination.tables.enumerated() where t.realCount > 0 {
        if !options.keepObjectKeys { t.objectKeys = (0..<t.count).map { Int64(numbered[e] + $0 + 1) } }
        numbered[e] += t.realCount
        made[t.layout.name, default: 0] += t.realCount
      }
      keyHighWater.merge(destination.keyHighWater, uniquingKeysWith: max)
      for t in chunk.tables where t.realCount > 0 { read[t.layout.name, default: 0] += t.realCount }
      parallel += manager.parallelMappings.filter { !parallel.contains($0) }
      mappingCounts = merged(mappingCounts, manager.mappingCounts)
      try writer.append(destination, source: chunk)
      // The bytes (or rows) of the chunks taken so far (the reader is one ahead).
      consumed += reader.weight(of: chunk)
      options.ioProgress?(phase, min(consumed, total), total)
    }
    while let chunk = try prefetch.next() {
      do throws(MigrationFailure) {
        try migrate(chunk)
      } catch {
        // A run in memory reads the whole store and checks its losses before it migrates:
        // the store's own errors and a refused loss come first, so the rest is read (and
        // counted) for them before this chunk's failure is reported.
        while let rest = try prefetch.next() { try options.checkSourcePart?(rest) }
        let differing = try reader.finish().entitiesWithDifferentHashes(plan.sourceEntityHashes)
        if !differing.isEmpty { throw mismatch(differing, storePath) }
        try options.checkSourceParts?()
        throw error
      }
    }
    options.ioProgress?(phase, total, total)
    let metadata = try reader.finish()
    let differing = metadata.entitiesWithDifferentHashes(plan.sourceEntityHashes)
    if !differing.isEmpty { throw mismatch(differing, storePath) }
    try options.checkSourceParts?()
    if numbersFromIds { try numbers.check(sourceHighWater) }
    phases.mark("read, migrate and write chunks")
    let writerMetadata = StoreWriteMetadata(
      modelVersionIdentifiers: plan.destinationModel.versionIdentifiers,
      entityHashes: plan.destinationEntityHashes, extra: metadata.extra, generated: options.generatedMetadata)
    do throws(MigrationFailure) {
      try writer.commit(
        metadata: writerMetadata, keyHighWater: keyHighWater, backup: backup, durable: options.durable,
        bookkeepingFrom: nil,
        written: options.ioProgress.map { report in { @Sendable n in report(.write, n, nil) } })
      if let report = options.ioProgress, let target, let size = MigrationRun.fileSize(target) {
        report(.write, size, size)
      }
    } catch {
      throw MigrationRun.writeFailure(error, storePath)
    }
    committed = true
    phases.mark("write store")
    phases.report()
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    func sorted(_ counts: [String: Int], _ layout: StoreLayout) -> [(entity: String, count: Int)] {
      layout.entities.map { ($0.name, counts[$0.name] ?? 0) }.sorted { $0.0 < $1.0 }
    }
    var summary = MigrationRun.Summary(
      read: sorted(read, sourceLayout), created: sorted(made, destinationLayout), seconds: seconds,
      parallelMappings: parallel, splitEntities: [], writtenTo: target, mappings: mappingCounts)
    summary.chunks = chunks
    return summary
  }

  /// The indexes `chunk` gives its members of ordered relationships of stubs
  /// (`ObjectGraph.orderedPositions`), for their destinations in the destination relationships
  /// they carry over to (`StreamingPlan.positions`): each object's destination is the one the
  /// one mapping over its entity (`soleMappings`, by source entity) made of it. An owner or
  /// member with no destination object has no row to place.
  static func carryPositions(
    of chunk: ObjectGraph, to manager: MigrationManager, _ soleMappings: [String: String],
    _ positions: [String: [String: String]]
  ) {
    guard !chunk.orderedPositions.isEmpty else { return }
    let destination = manager.destination
    func made(_ ref: ObjectRef) -> ObjectRef? {
      guard let name = soleMappings[chunk.layout.entities[Int(ref.entity)].name] else { return nil }
      return (try? manager.destinationInstances(forEntityMappingNamed: name, sourceInstances: [ref]))?.first
    }
    for (k, index) in chunk.orderedPositions {
      let owner = chunk.layout.entities[Int(k.owner.entity)]
      guard let r = owner.properties[k.property].relationship, let carried = positions[owner.name]?[r.name],
        let o = made(k.owner), let m = made(k.member),
        let p = destination.layout.entities[Int(o.entity)].propertyIndex(carried)
      else { continue }
      destination.orderedPositions[OrderedMember(owner: o, property: p, member: m)] = index
    }
  }

  /// With no entity that streams, the whole store is the part read whole: it goes when its file
  /// fits that part's share of the limit (and the format's reader finds its tables within it),
  /// else the refusal says why no entity streams. (The file's size bounds what a JSON store
  /// holds, and a SQLite store's tables; a larger file is refused before anything is read.)
  static func refuseIfNothingFits(_ streaming: StreamingPlan, size: StoreFootprint, limit: Int, _ path: String)
    throws(MigrationFailure)
  {
    let held = MemoryBudget(limit: limit).held
    guard streaming.streamed.isEmpty && size.bytes > held else { return }
    throw tooLarge(
      size, limit: limit, path,
      "\(streaming.noneStreams), and the store is larger than the quarter of the limit the part read whole may take (\(held) bytes)"
    )
  }

  /// `failure` of a run (or conversion) in chunks; where no entity streams and it is the part
  /// read whole passing its share, said with why no entity streams.
  static func explained(
    _ failure: MigrationFailure, _ streaming: StreamingPlan, size: StoreFootprint, limit: Int, _ path: String
  ) -> MigrationFailure {
    guard streaming.streamed.isEmpty, failure.errors.count == 1, failure.errors[0].code == "run-memory-limit" else {
      return failure
    }
    return tooLarge(
      size, limit: limit, path, "\(streaming.noneStreams), so it is read whole, and \(failure.errors[0].message)")
  }

  /// `run-memory-limit` for the store at `path`, of `size`, which does not fit `limit` in
  /// memory, and `why` it cannot go a chunk at a time either.
  static func tooLarge(_ size: StoreFootprint, limit: Int, _ path: String, _ why: String) -> MigrationFailure {
    MigrationFailure([
      MigrationError(
        "run-memory-limit",
        "the store (\(size.bytes) bytes) needs about \(size.expectedPeak) bytes in memory, more than the --memory-limit of \(limit) bytes, and \(why)",
        file: path)
    ])
  }

  private static func mismatch(_ entities: [String], _ storePath: String) -> MigrationFailure {
    MigrationFailure([
      MigrationError(
        "run-store-model-mismatch",
        "the store does not match the plan's source model: entity version hashes differ for \(entities.joined(separator: ", ")) (Core Data: \"Mismatch between mapping and source model\")",
        file: storePath)
    ])
  }

  /// Per mapping, the counts of two runs added.
  private static func merged(
    _ a: [MigrationManager.MappingCount], _ b: [MigrationManager.MappingCount]
  ) -> [MigrationManager.MappingCount] {
    guard !a.isEmpty else { return b }
    return zip(a, b).map { x, y in
      var x = x
      x.read += y.read
      x.used += y.used
      x.made += y.made
      return x
    }
  }
}
