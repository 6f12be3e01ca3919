import MapJSONText
import MapRuntime

extension StoreReader {
  /// A problem with one property, reported once the object's id is known.
  struct PropertyProblem {
    var code: String
    var property: String
    var message: String
    var offset: Int
  }

  /// What reading the objects of one entity uses, looked up once per entity array: reading an
  /// object then takes no reference counts for the table, its layout or its columns.
  struct EntityReading {
    let entity: Int
    let table: EntityTable
    let layout: EntityLayout
    let names: [[UInt8]]
    let shapes: [PropertyShape]
    let columns: [Unmanaged<Column>]
    let ids: TextColumn
    /// The key that holds an object's id: `id`, or `@id` where the entity has a property
    /// named `id` (format version 2, `ObjectIdentityKey`).
    let identityKey: StaticString

    init(_ table: EntityTable) {
      self.table = table
      layout = table.layout
      entity = layout.index
      names = layout.propertyNameBytes
      shapes = layout.shapes
      columns = table.columns.map { Unmanaged.passUnretained($0) }
      ids = table.ids!
      identityKey = ObjectIdentityKey.key(for: layout)
    }
  }

  mutating func readObject(_ r: EntityReading, open: JSONToken) throws {
    let table = r.table
    let entityLayout = r.layout
    let e = r.entity
    let row = table.appendObject()
    let ref = ObjectRef(entity: e, row: row)
    var idToken: JSONToken?
    var problems: [PropertyProblem] = []
    var cursor = 0
    let names = r.names
    let shapes = r.shapes
    // Properties already read (JSON allows a key twice; a store must not have it).
    var seenMask: UInt64 = 0
    var seenMore: Set<Int> = []
    while let key = try scanner.nextKey() {
      // Keys usually come in the layout's (sorted) order: try the next expected one first.
      var p = -1
      if cursor < names.count && !key.hasEscapes && names[cursor].withUnsafeBytes({ scanner.stringEquals(key, $0) }) {
        p = cursor
      } else if scanner.string(key, equals: r.identityKey) || scanner.string(key, equals: ObjectIdentityKey.version2) {
        if idToken != nil {
          problems.append(duplicateKey(text(key), key))
          _ = try scanner.skipValue()
          continue
        }
        let t = try scanner.next()
        guard t.kind == .string else {
          try report("store-id", "an object id must be a string", at: quoteStart(t))
          try skipRest(t)
          continue
        }
        idToken = t
        continue
      } else {
        p = entityLayout.propertyIndex(text(key)) ?? -1
      }
      guard p >= 0 else {
        let name = text(key)
        problems.append(
          PropertyProblem(
            code: "store-unknown-property", property: name,
            message:
              "entity \(entityLayout.name) has no property \(name)\(Self.suggestion(name, entityLayout.properties.map(\.name)))",
            offset: quoteStart(key)))
        _ = try scanner.skipValue()
        continue
      }
      cursor = p + 1
      let repeated: Bool
      if p < 64 {
        repeated = seenMask & (1 << UInt64(p)) != 0
        seenMask |= 1 << UInt64(p)
      } else {
        repeated = !seenMore.insert(p).inserted
      }
      if repeated {
        problems.append(duplicateKey(entityLayout.properties[p].name, key))
        _ = try scanner.skipValue()
        continue
      }
      let problem = try r.columns[p]._withUnsafeGuaranteedRef { column in
        try readValue(table, column, row, p, shapes[p])
      }
      if let problem { problems.append(problem) }
    }
    guard let idToken else {
      try report(
        "store-missing-id", "an \(entityLayout.name) object has no \"\(r.identityKey)\"", at: open.start)
      return
    }
    let idSlice = ByteSlice(start: idToken.start, count: idToken.end - idToken.start, hasEscapes: idToken.hasEscapes)
    if TextColumn.fitsPacked(idSlice) {
      r.ids.set(row, .string(.slice(idSlice)))
    } else {
      r.ids.set(row, .string(.native(text(idToken))))
    }
    let hash =
      idToken.hasEscapes
      ? Array(text(idToken).utf8).withUnsafeBytes { IDIndex.hash($0) } : IDIndex.hash(scanner.rawBytes(idToken))
    if indexesIDs {
      let offset = quoteStart(idToken)
      try index(ref, hash: hash) { offset }
    } else {
      idHashes.append(hash)
      if keepsIDOffsets { idOffsets.append(quoteStart(idToken)) }
    }
    if !problems.isEmpty {
      let idText = text(idToken)
      for problem in problems {
        try report(problem.code, "\(idText).\(problem.property): \(problem.message)", at: problem.offset)
      }
    }
  }

  /// Adds an object's id, whose bytes hash to `hash`, to the id index; `store-duplicate-id`
  /// (at the offset `offset` gives, looked up only then) when it is taken.
  mutating func index(_ ref: ObjectRef, hash: UInt64, offset: () -> Int) throws {
    let existing = ids.insert(hash: hash, ref, in: graph)
    if let existing {
      let other = graph.objectLocationHint(existing)
      try report(
        "store-duplicate-id",
        "duplicate id \(graph.idText(ref)): an \(graph.table(ref).layout.name) object uses the id of \(other); ids must be unique in a store",
        at: offset())
    }
  }

  /// `store-duplicate-key` for the second `key` named `name` in one object.
  private func duplicateKey(_ name: String, _ key: JSONToken) -> PropertyProblem {
    PropertyProblem(
      code: "store-duplicate-key", property: name, message: "\"\(name)\" appears twice in one object",
      offset: quoteStart(key))
  }

  /// Reads one property value into its column; returns a problem instead of throwing for
  /// values of the wrong type or out of range.
  mutating func readValue(_ table: EntityTable, _ column: Column, _ row: Int, _ p: Int, _ shape: PropertyShape) throws
    -> PropertyProblem?
  {
    func problem(_ code: String, _ message: String, _ t: JSONToken) -> PropertyProblem {
      PropertyProblem(code: code, property: table.layout.properties[p].name, message: message, offset: quoteStart(t))
    }
    var name: String { table.layout.properties[p].name }
    switch shape {
    case .relationship(let isToMany):
      let t = try scanner.next()
      if t.kind == .null {
        if isToMany {
          return problem("store-wrong-type", "a to-many relationship is an array of ids (use [] for none), not null", t)
        }
        return nil
      }
      let owner = ObjectRef(entity: table.layout.index, row: row)
      if isToMany {
        guard t.kind == .beginArray else {
          try skipRest(t)
          return problem("store-wrong-type", "\(name) is a to-many relationship: write an array of ids", t)
        }
        while true {
          let x = try scanner.next()
          if x.kind == .endArray { break }
          guard x.kind == .string else {
            // Skip the element, then the rest of the array: reading goes on after it.
            try skipRest(x)
            try skipRest(t)
            return problem(
              "store-wrong-type", "\(name) holds ids, which are strings, not \(JSONScanner.describe(x.kind))", x)
          }
          pending.append(PendingReference(owner: owner, column: Int32(p), target: slice(x)))
        }
        return nil
      }
      guard t.kind == .string else {
        try skipRest(t)
        return problem("store-wrong-type", "\(name) is a to-one relationship: write the target's id or null", t)
      }
      pending.append(PendingReference(owner: owner, column: Int32(p), target: slice(t)))
      return nil
    case .attribute(let type):
      switch type {
      case .transformable, .undefined, .objectID, .composite:
        let range = try scanner.skipValue()
        if range.count == 4 && bytes[range.lowerBound] == UInt8(ascii: "n") { return nil }
        column.set(row, .transformable(ByteSlice(start: range.lowerBound, count: range.count, hasEscapes: true)))
        return nil
      default:
        break
      }
      let t = try scanner.next()
      if t.kind == .null { return nil }
      switch type {
      case .integer16, .integer32, .integer64:
        guard t.kind == .number else {
          try skipRest(t)
          return problem(
            "store-wrong-type", "\(type.rawValue) attribute needs an integer, not \(JSONScanner.describe(t.kind))", t)
        }
        do {
          (column as! IntColumn).setInt(row, try IntegerRangeCheck.parse(scanner.rawBytes(t), as: type))
        } catch {
          return problem(error.code.rawValue, error.message, t)
        }
      case .double, .float:
        guard t.kind == .number, let d = scanner.double(t) else {
          try skipRest(t)
          return problem(
            "store-wrong-type", "\(type.rawValue) attribute needs a number, not \(JSONScanner.describe(t.kind))", t)
        }
        column.set(row, .double(d))
      case .boolean:
        guard t.kind == .true || t.kind == .false else {
          try skipRest(t)
          return problem(
            "store-wrong-type", "Boolean attribute needs true or false, not \(JSONScanner.describe(t.kind))", t)
        }
        column.set(row, .bool(t.kind == .true))
      case .string, .uri, .uuid:
        guard t.kind == .string else {
          try skipRest(t)
          return problem(
            "store-wrong-type", "\(type.rawValue) attribute needs a string, not \(JSONScanner.describe(t.kind))", t)
        }
        if type == .uuid, !UUIDText.isValid(text(t)) {
          return problem("store-invalid-uuid", "\"\(text(t))\" is not a UUID", t)
        }
        let s = slice(t)
        column.set(row, TextColumn.fitsPacked(s) ? .string(.slice(s)) : .string(.native(text(t))))
      case .date:
        if t.kind == .beginObject {
          // {"$date": seconds since 2001}: a date outside the years an ISO 8601 text holds.
          guard let key = try scanner.nextKey(), scanner.string(key, equals: "$date") else {
            try skipRest(t)
            return problem("store-wrong-type", "a Date attribute's object form is {\"$date\": seconds since 2001}", t)
          }
          let n = try scanner.next()
          if n.kind == .beginObject || n.kind == .beginArray { try skipRest(n) }
          guard n.kind == .number, let seconds = scanner.double(n), seconds.isFinite,
            try scanner.nextKey() == nil
          else {
            try skipRest(t)
            return problem("store-wrong-type", "a Date attribute's object form is {\"$date\": seconds since 2001}", t)
          }
          column.set(row, .date(seconds))
          return nil
        }
        guard t.kind == .string else {
          try skipRest(t)
          return problem(
            "store-wrong-type", "Date attribute needs an ISO 8601 string, not \(JSONScanner.describe(t.kind))", t)
        }
        do {
          let seconds =
            t.hasEscapes ? try ISO8601DateCodec.parse(text(t)) : try ISO8601DateCodec.parse(scanner.rawBytes(t))
          column.set(row, .date(seconds))
        } catch {
          return problem(error.code.rawValue, error.message, t)
        }
      case .decimal:
        guard t.kind == .string else {
          try skipRest(t)
          return problem(
            "store-wrong-type",
            "Decimal attribute needs a string holding the exact decimal, not \(JSONScanner.describe(t.kind))", t)
        }
        do {
          column.set(row, .decimal(try DecimalText.canonical(text(t))))
        } catch {
          return problem(error.code.rawValue, error.message, t)
        }
      case .binary:
        guard t.kind == .string else {
          try skipRest(t)
          return problem(
            "store-wrong-type", "Binary attribute needs a base64 string, not \(JSONScanner.describe(t.kind))", t)
        }
        do {
          column.set(
            row, .data(t.hasEscapes ? try Base64Codec.decode(text(t)) : try Base64Codec.decode(scanner.rawBytes(t))))
        } catch {
          return problem(error.code.rawValue, error.message, t)
        }
      default:
        try skipRest(t)
      }
      return nil
    }
  }

  @inline(__always) func slice(_ t: JSONToken) -> ByteSlice {
    ByteSlice(start: t.start, count: t.end - t.start, hasEscapes: t.hasEscapes)
  }

  // MARK: - References

  /// The message of `store-dangling-id`: `owner`'s `property` names `id`, which no object has
  /// (also `ChunkReader.checkIDs`, for links out of a chunk).
  static func dangling(_ owner: String, _ property: String, _ id: String) -> String {
    "\(owner).\(property) refers to \(id), which is not in the store"
  }

  /// Points every relationship at its target and fills in inverses the store left out.
  mutating func resolveReferences() {
    guard errors.isEmpty else { return }
    let inverses = InverseTable(layout: layout)
    do {
      for ref in pending {
        let key = input.decodeString(ref.target)
        let owner = graph.tables[Int(ref.owner.entity)]
        let column = Int(ref.column)
        let prop = owner.layout.properties[column]
        let ownerID = graph.idText(ref.owner)
        let graph = self.graph
        let target: ObjectRef? =
          ref.target.hasEscapes
          ? Array(key.utf8).withUnsafeBytes { k in ids.find(k, in: graph) }
          : ids.find(input.buffer(ref.target), in: graph)
        guard let target else {
          try report("store-dangling-id", Self.dangling(ownerID, prop.name, key), at: ref.target.start - 1)
          continue
        }
        try setReference(ref, to: target, key: key, ownerID: ownerID, inverses)
      }
      try completeInverses(inverses)
    } catch {}
  }

  /// Sets the reference `ref` (to `key`, from the object `ownerID`) to `target`, which must be
  /// an object the relationship holds (`store-wrong-entity`) and, in a to-many, not one it
  /// lists already (`store-duplicate-reference`); returns whether it was set. (The whole-store
  /// reader, and a chunk's `ChunkLinks`.)
  @discardableResult
  mutating func setReference(
    _ ref: PendingReference, to target: ObjectRef, key: String, ownerID: String, _ inverses: InverseTable
  ) throws -> Bool {
    let owner = graph.tables[Int(ref.owner.entity)]
    let column = Int(ref.column)
    let prop = owner.layout.properties[column]
    guard let entry = inverses.entry(ref.owner.entity, column), entry.destinationKinds.contains(Int(target.entity))
    else {
      try report(
        "store-wrong-entity",
        "\(ownerID).\(prop.name) refers to \(key), a \(graph.tables[Int(target.entity)].layout.name), but holds \(prop.relationship?.destinationEntity ?? "?") objects",
        at: ref.target.start - 1)
      return false
    }
    if let many = owner.columns[column] as? ToManyColumn {
      guard many.add(Int(ref.owner.row), target) else {
        try report(
          "store-duplicate-reference", "\(ownerID).\(prop.name) lists \(key) twice", at: ref.target.start - 1)
        return false
      }
    } else {
      (owner.columns[column] as! ToOneColumn).setTarget(Int(ref.owner.row), target)
    }
    return true
  }

  /// A store may write only one side of a relationship; the other side is filled in. Two sides
  /// that contradict each other are an error.
  mutating func completeInverses(_ inverses: InverseTable) throws {
    try Self.completeInverses(graph, inverses) { owner, property, target, ic, current in
      let name = graph.tables[Int(target.entity)].layout.properties[ic].name
      let message =
        "\(graph.idText(owner)).\(property) includes \(graph.idText(target)), but \(graph.idText(target)).\(name) is \(graph.idText(current)); the two sides of the relationship disagree"
      // Placed at the to-one side's reference (looked up only now: this is rare).
      if let ref = pending.first(where: { $0.owner == target && Int($0.column) == ic }) {
        errors.append(error("store-inverse-mismatch", message, at: ref.target.start - 1))
      } else {
        errors.append(MigrationError("store-inverse-mismatch", message, file: input.path))
      }
      if errors.count >= maxErrors { throw Stop() }
    }
  }

  /// The inverse completion of `Specs/store-format.md` B.4 over `graph`, whose relationships
  /// hold what a store listed: entity by entity in model order, object by object, each target's
  /// inverse gets its owner, at the end of a to-many that lacks it, or in a to-one that is
  /// empty. A to-one that names another object (`current`) is a contradiction, told to
  /// `mismatch` (the owner, the relationship's name, the target, the inverse's column) and left
  /// as it is. The reader's, and `HandedObjects`', which hands a JSON store on as it reads back.
  static func completeInverses(
    _ graph: ObjectGraph, _ inverses: InverseTable,
    mismatch: (_ owner: ObjectRef, _ property: String, _ target: ObjectRef, _ inverseColumn: Int, _ current: ObjectRef)
      throws -> Void
  ) rethrows {
    for (e, table) in graph.tables.enumerated() {
      for (c, prop) in table.layout.properties.enumerated() {
        guard let entry = inverses.entries[e][c], prop.relationship?.inverseName != nil else { continue }
        for row in 0..<table.count {
          let owner = ObjectRef(entity: e, row: row)
          let targets: [ObjectRef]
          if let many = table.columns[c] as? ToManyColumn {
            targets = many.targets(row)
          } else if let t = (table.columns[c] as! ToOneColumn).target(row) {
            targets = [t]
          } else {
            targets = []
          }
          for target in targets {
            let ic = entry.inverseColumn[Int(target.entity)]
            guard ic >= 0 else { continue }
            let inverse = graph.tables[Int(target.entity)].columns[ic]
            if let many = inverse as? ToManyColumn {
              many.add(Int(target.row), owner)
            } else if let one = inverse as? ToOneColumn {
              if let current = one.target(Int(target.row)), current != owner {
                try mismatch(owner, prop.name, target, ic, current)
              } else {
                one.setTarget(Int(target.row), owner)
              }
            }
          }
        }
      }
    }
  }
}

extension ObjectGraph {
  /// "the Records object at row 3" style description for messages.
  func objectLocationHint(_ ref: ObjectRef) -> String {
    "an earlier \(tables[Int(ref.entity)].layout.name) object (number \(ref.row + 1) in objects.\(tables[Int(ref.entity)].layout.name))"
  }
}
