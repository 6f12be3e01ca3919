/// How a store format other than JSON fills a source graph: objects appended per entity,
/// values already of the attribute's type (`Value.int` for integers, `.double`, `.date` in
/// seconds since 2001, `.bool`, `.string(.native)`, `.decimal` in canonical text, `.data`),
/// relationships set by object. `finishBuilding()` makes the graph ready to migrate.
extension ObjectGraph {
  /// Adds an object of entity `entity` (every property nil) and returns it.
  package func appendObject(entity: Int) -> ObjectRef {
    ObjectRef(entity: entity, row: tables[entity].appendObject())
  }

  package func set(_ object: ObjectRef, property: Int, _ value: Value) {
    tables[Int(object.entity)].columns[property].set(Int(object.row), value)
  }

  package func setToOne(_ object: ObjectRef, property: Int, _ target: ObjectRef?) {
    (tables[Int(object.entity)].columns[property] as! ToOneColumn).setTarget(Int(object.row), target)
  }

  /// Adds `target` to a to-many relationship (once; the order of adding is kept).
  package func addToMany(_ object: ObjectRef, property: Int, _ target: ObjectRef) {
    (tables[Int(object.entity)].columns[property] as! ToManyColumn).add(Int(object.row), target)
  }

  /// Pads every column and replaces the input bytes (which `.transformable` values and
  /// metadata slices refer to), whose Transformable payloads `transformableCodec` reads.
  package func finishBuilding(input: InputBytes?, transformableCodec: (any TransformableCodec.Type)?) {
    if let input { replaceInput(input) }
    self.transformableCodec = transformableCodec
    finalize()
  }
}

/// How a store format other than JSON reads a graph's values for writing.
extension ObjectGraph {
  /// The text of a string value; slices are of `input` (the source graph's bytes).
  package static func string(_ t: Text, input: InputBytes?) -> String {
    switch t {
    case .native(let s): return s
    case .slice(let s): return input?.decodeString(s) ?? ""
    }
  }
}
