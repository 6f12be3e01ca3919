/// Where a comparison of two stores too large for memory keeps each object's texts
/// (`StreamingComparison`): on disk, looked up by entity and id, walked in each store's order.
/// The Core Data SQLite module gives one (a scratch SQLite database, `Specs/limits.md`
/// "Memory").
package protocol ComparisonSpill: AnyObject {
  /// Keeps object `id`, the `position`th object of entity `entity` (a layout index) in the store
  /// of `side`, with the text of each of its properties in the layout's order. Positions of an
  /// entity come in order, from 0; an id comes at most once per entity and side.
  func add(
    _ side: ComparisonSide, entity: Int, position: Int, id: String, texts: [String]
  ) throws(MigrationFailure)

  /// Each object of `entity` in the expected store, in its order: its id, its texts and those
  /// of the object with its id in the other store (nil: none there). `body` returns false to stop.
  func eachExpected(entity: Int, _ body: (String, [String], [String]?) -> Bool) throws(MigrationFailure)

  /// The id of each object of `entity` that is only in the other store, in that store's order.
  /// `body` returns false to stop.
  func eachUnexpected(entity: Int, _ body: (String) -> Bool) throws(MigrationFailure)
}

/// Which store of a comparison an object comes from.
package enum ComparisonSide: Int, Sendable {
  case expected = 0
  case got = 1
}
