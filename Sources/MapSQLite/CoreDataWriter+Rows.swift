import MapRuntime

extension CoreDataWriter {
  /// What one column of an entity table holds for the rows of one entity, worked out once per
  /// entity so the per-row loop only reads values and binds them.
  enum Cell {
    /// Another entity's column of the same table: NULL.
    case none
    /// An attribute: its property index, and its slot in `Slots.attributes`.
    case attribute(property: Int, slot: Int)
    /// One element of a Composite attribute: the composite's property index, and the element's
    /// slot in `Slots.elements`.
    case element(property: Int, slot: Int)
    /// A to-one's foreign key (the destination's `Z_PK`).
    case foreignKey(property: Int)
    /// A to-one's entity column (the destination's `Z_ENT`).
    case entityKey(property: Int)
    /// An ordered member's position (`Z_FOK_`), from `Slots.orders[column]`.
    case order(column: Int)
    /// The owner key of a to-many without inverse, from `Slots.hiddenOwner[column]`.
    case hiddenKey(column: Int)
  }

  /// One table's per-column data: positions, hidden owners, attributes.
  struct Slots {
    var orders: [[[Int64]]] = []
    var hiddenOwner: [[ObjectRef: ObjectRef]] = []
    var attributes: [AttributeDescription] = []
    var elements: [Element] = []

    /// One element column of a Composite attribute; `first`: the composite's first, where its
    /// value's keys are checked once.
    struct Element {
      var owner: String
      var composite: AttributeDescription
      var path: [String]
      var element: AttributeDescription
      var first: Bool
    }
  }

  /// Rows bound into one `INSERT` (a multi-row `VALUES`): stepping a statement has a cost of its
  /// own (its cursor is opened and closed), which 16 rows share; the rows are inserted in order.
  static let batchRows = 16
  /// Bound parameters per statement at most (SQLite's oldest default limit).
  static let maximumParameters = 999

  /// Inserts the rows of every entity table, in the schema's order: each entity's rows with
  /// statements that hold its `Z_ENT` as a constant, and `Z_OPT` 1 unless its objects carry
  /// their store's versions, in batches, and the rows after its last whole batch one by one.
  mutating func writeRows(_ db: SQLiteDatabase) throws {
    let layout = graph.layout
    let entityNumbers = layout.entities.map { Int64(schema.number($0.name)) }
    var written = 0
    for table in schema.tables() {
      let slots = slots(of: table)
      let names = ["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map(\.name)
      for e in schema.hierarchy(table.root) {
        let entity = layout.entities[e.index]
        if let rows = streamed[e.index] {
          // Rows rendered as chunks came (`CoreDataWriter+Scratch.swift`), with their errors.
          errors += rows.columnErrors.prefix(20) + (streamedErrors[e.index] ?? [])
          try insertStreamed(rows, db, table: table, entity: e, names: names, written: &written)
          continue
        }
        let values = graph.tables[e.index]
        guard values.count > 0 else { continue }
        let ids = graph  // the objects' ids, for messages (not `self`, which the rows change)
        // Rows whose objects carry their store's versions bind Z_OPT too; others hold 1.
        let versioned = !values.objectVersions.isEmpty
        let cells = cells(of: table, for: e, entity: entity)
        let inserts = try RowInserts(
          db, table: table, number: e.number, names: names, versioned: versioned, count: values.count)
        let source = RowSource(
          table: values, cells: cells, slots: slots, keys: keys, entityNumbers: entityNumbers, entity: e.index,
          input: input)
        let entityKeys = keys[e.index]
        try Self.pipelined(source, count: values.count) { chunk in
          var i = 0
          for row in chunk.rows {
            let (insert, base) = inserts.slot(row)
            try insert.bindInteger(base, entityKeys[row])
            if versioned { try insert.bindInteger(base + 1, max(1, values.objectVersion(row))) }
            for c in cells.indices {
              let column = base + inserts.first + c
              switch chunk.kinds[i] {
              case .null: try insert.bindNull(column)
              case .integer: try insert.bindInteger(column, chunk.payloads[i])
              case .real: try insert.bindReal(column, Double(bitPattern: UInt64(bitPattern: chunk.payloads[i])))
              case .text: try insert.bindTextNoCopy(column, chunk.texts[Int(chunk.payloads[i])])
              case .string: try insert.bindText(column, chunk.strings[Int(chunk.payloads[i])])
              case .slow:
                try insert.bind(
                  column,
                  slowValue(cells[c], values, row, slots, object: ids.idText(ObjectRef(entity: e.index, row: row))))
              }
              i += 1
            }
            try inserts.finish(row)
          }
          written += chunk.rows.count
          progress?(written)
        }
      }
    }
  }

  /// The value of a cell `RowSource` left to the writing thread (`RowChunk.Kind.slow`), as Core
  /// Data stores it (reference §4.2): an attribute through `encode`, a Composite's element
  /// through `compositeElement`, which report what cannot be stored, naming the object by
  /// `object` (its id as the input wrote it, else `Entity/n`); any other cell NULL.
  mutating func slowValue(
    _ cell: Cell, _ values: EntityTable, _ row: Int, _ slots: Slots, object: @autoclosure () -> String
  ) -> SQLiteValue {
    switch cell {
    case .element(let p, let k):
      let e = slots.elements[k]
      return compositeElement(values.value(row, p), e) {
        "\(object()).\(e.composite.name).\(e.path.joined(separator: "."))"
      }
    case .attribute(let p, let k):
      return encode(values.value(row, p), slots.attributes[k], at: "\(object()).\(slots.attributes[k].name)")
    default:
      return .null
    }
  }

  /// Positions and hidden owners of a table's columns, computed once for the table.
  mutating func slots(of table: CoreDataSchema.Table) -> Slots {
    let layout = graph.layout
    var slots = Slots()
    slots.orders = [[[Int64]]](repeating: [], count: table.columns.count)
    slots.hiddenOwner = [[ObjectRef: ObjectRef]](repeating: [:], count: table.columns.count)
    for (c, column) in table.columns.enumerated() {
      switch column.role {
      case .order(_, let r):
        slots.orders[c] = positions(r.destinationEntity, r.inverseName!)
      case .hiddenOrder(let owner, let r):
        slots.orders[c] = positions(owner, r.name)
      case .hiddenKey(let owner, let r):
        var map: [ObjectRef: ObjectRef] = [:]
        for o in objects(ofKind: owner) {
          guard let p = layout.entities[Int(o.entity)].propertyIndex(r.name) else { continue }
          for m in members(o, p) {
            if map[m] != nil {
              errors.append(
                "\(graph.idText(m)) is a member of \(owner).\(r.name) of two objects; without an inverse Core Data stores one owner (column \(table.name).\(column.name))"
              )
            }
            map[m] = o
          }
        }
        slots.hiddenOwner[c] = map
      case .attribute(_, let a):
        slots.attributes.append(a)
      case .element(let owner, let composite, let path, let element):
        let first = !slots.elements.contains { $0.owner == owner && $0.composite.name == composite.name }
        slots.elements.append(.init(owner: owner, composite: composite, path: path, element: element, first: first))
      default: break
      }
    }
    return slots
  }

  /// What each column of `table` holds for entity `e`'s rows.
  func cells(
    of table: CoreDataSchema.Table, for e: CoreDataSchema.Entity, entity: EntityLayout
  ) -> [Cell] {
    let model = graph.layout.model
    var attribute = 0
    var element = 0
    return table.columns.enumerated().map { c, column in
      switch column.role {
      case .element(let owner, let composite, _, _):
        defer { element += 1 }
        guard model.isKind(e.name, of: owner), let p = entity.propertyIndex(composite.name) else { return .none }
        return .element(property: p, slot: element)
      case .attribute(let owner, let a):
        defer { attribute += 1 }
        guard model.isKind(e.name, of: owner), let p = entity.propertyIndex(a.name) else { return .none }
        return .attribute(property: p, slot: attribute)
      case .foreignKey(let owner, let r):
        guard model.isKind(e.name, of: owner), let p = entity.propertyIndex(r.name) else { return .none }
        return .foreignKey(property: p)
      case .entityKey(let owner, let r):
        guard model.isKind(e.name, of: owner), let p = entity.propertyIndex(r.name) else { return .none }
        return .entityKey(property: p)
      case .order(let owner, _):
        return model.isKind(e.name, of: owner) ? .order(column: c) : .none
      case .hiddenOrder(_, let r):
        return model.isKind(e.name, of: r.destinationEntity) ? .order(column: c) : .none
      case .hiddenKey(_, let r):
        return model.isKind(e.name, of: r.destinationEntity) ? .hiddenKey(column: c) : .none
      }
    }
  }

}
