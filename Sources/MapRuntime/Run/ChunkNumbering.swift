/// The numbers of a streamed entity's objects in a conversion or an inferred step a chunk at a
/// time (`StreamingConversion`, `StreamingRun`), where the format's chunks do not carry the
/// whole store's (`ChunkedStoreFormat.keepsObjectKeysInChunks`: a JSON store, whose ids give
/// them only when every id of the entity has the form `Entity/number`). Each entity is taken
/// as its first chunk says: its ids' numbers, or (some id has none) its objects numbered
/// from 1 in order, as a writer numbers a whole graph's objects that have none. A later
/// chunk with an id without a number starts the conversion over with that entity numbered
/// anew (`anew`). What the store's metadata can deny is checked at the end; a conversion
/// that would then differ from the one in memory is refused (`run-memory-limit`), before
/// anything is written.
struct ChunkNumbering {
  let layout: StoreLayout
  let path: String
  /// Per entity (layout index) that has had objects in chunks: whether its ids' numbers are
  /// kept.
  var keyed: [Int: Bool] = [:]
  /// Objects per entity so far, and the highest number kept.
  var given: [Int: Int] = [:]
  var highest: [Int: Int64] = [:]
  /// Entities numbered anew whatever their first chunk says.
  let anew: Set<Int>

  init(layout: StoreLayout, path: String, anew: Set<Int>) {
    self.layout = layout
    self.path = path
    self.anew = anew
  }

  /// Numbers the chunk's objects; returns an entity that must be numbered anew from its
  /// first object (nothing of the chunk numbered then). A chunk's stubs (`EntityTable
  /// .stubsFrom`) carry the numbers their ids give (`ChunkLinks`), so an entity that has had
  /// stubs keeps its ids' numbers or refuses the run (`run-memory-limit`): the chunks that
  /// referred to its objects were numbered so.
  mutating func number(_ chunk: ObjectGraph) throws(MigrationFailure) -> Int? {
    // (The part read whole is numbered by the writer, as in memory.)
    guard chunk.isStreamedChunk else { return nil }
    chunk.resolveObjectKeys()
    for (e, t) in chunk.tables.enumerated() where t.count > 0 {
      let hasNumbers = t.objectKeys.count >= t.count
      if t.stubsFrom != nil { stubbed.insert(e) }
      let kept = !anew.contains(e) && (keyed[e] ?? hasNumbers)
      keyed[e] = kept
      let before = given[e, default: 0]
      if kept {
        guard hasNumbers else {
          if stubbed.contains(e) { throw stubsDenied(e) }
          return e
        }
        highest[e] = max(highest[e] ?? 0, t.objectKeys[0..<t.count].max() ?? 0)
      } else {
        if stubbed.contains(e) { throw stubsDenied(e) }
        t.objectKeys = (0..<t.count).map { Int64(before + $0 + 1) }
      }
      given[e] = before + t.realCount
    }
    return nil
  }

  /// Entities (layout indexes) some chunk has held stubs of.
  private var stubbed: Set<Int> = []

  private func stubsDenied(_ e: Int) -> MigrationFailure {
    let name = layout.entities[e].name
    return refused(
      "objects of other chunks refer to \(name) objects by the numbers in their ids, but not every id of \(name) is of the form \(name)/number, so its objects are numbered anew"
    )
  }

  /// Once the store's highest numbers (`mapcObjectKeyMax`) are known: objects numbered anew
  /// are numbered from 1 only when their entity has none, and numbers kept are not so high
  /// that a writer would number them all anew (`CoreDataWriter`).
  func check(_ keyHighWater: [String: Int64]) throws(MigrationFailure) {
    for (e, kept) in keyed.sorted(by: { $0.key < $1.key }) {
      let name = layout.entities[e].name
      let recorded = keyHighWater[name] ?? 0
      if !kept && recorded > 0 {
        throw refused(
          "the ids of \(name) are not all of the form \(name)/number, and the store records \(recorded) as its highest number, after which the objects would be numbered"
        )
      }
      if kept && max(highest[e] ?? 0, recorded) > Int64.max - Int64(given[e] ?? 0) {
        throw refused("the numbers in the ids of \(name) leave no room for new ones below 2^63")
      }
    }
  }

  /// Why entity `e`, numbered by its first chunk's ids, cannot be in a run that cannot start
  /// over (`StreamingRun`).
  func deniedByALaterId(_ e: Int) -> MigrationFailure {
    let name = layout.entities[e].name
    return refused(
      "some ids of \(name) after the first \(given[e] ?? 0) are not of the form \(name)/number, so its objects are numbered anew, which the objects written before cannot be"
    )
  }

  private func refused(_ why: String) -> MigrationFailure {
    MigrationFailure([
      MigrationError(
        "run-memory-limit",
        "the store cannot go a chunk at a time: \(why); give a --memory-limit that holds it whole",
        file: path)
    ])
  }
}
