import MapRuntime

extension ObjectGraph {
  /// Adds a stub of the object `id` names (`EntityTable.stubsFrom`: stubs come after every other
  /// object of their table) to the table of entity `e`: an object with that id and nothing else,
  /// which a chunk's objects refer to (`ChunkLinks`) or which lists them (`MemberPlaces`).
  func appendStub(entity e: Int, id: String) -> ObjectRef {
    let table = tables[e]
    if table.stubsFrom == nil { table.stubsFrom = table.count }
    let row = table.appendObject()
    table.ids?.set(row, .string(.native(id)))
    return ObjectRef(entity: e, row: row)
  }
}
