import MapRuntime

extension Diagram {
  /// The destination model of `diff` as an entity-relationship diagram, every entity and
  /// property marked with its change; removed entities and properties are drawn too, marked
  /// removed.
  public static func of(_ diff: ModelDiff) -> Diagram {
    var taken = Set<String>()
    var ids: [String: String] = [:]
    var nodes: [Node] = []
    let model = diff.destination
    let changes = Dictionary(diff.entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    for e in model.entities {
      let id = identifier(e.name, taken: &taken)
      ids[e.name] = id
      let change = changes[e.name]
      let props = Dictionary((change?.properties ?? []).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
      var rows: [Row] = e.attributes.map { a in
        let p = props[a.name]
        return Row(
          name: a.name, detail: a.type.rawValue + (a.isOptional ? "?" : ""), mark: mark(p?.kind ?? .unchanged),
          note: p.flatMap(note))
      }
      // Relationships are lines; those whose change is worth a word are rows too.
      for r in e.relationships {
        if let p = props[r.name], p.kind != .unchanged, p.kind != .added {
          rows.append(
            Row(
              name: r.name, detail: (r.isToMany ? "to-many " : "to-one ") + r.destinationEntity, mark: mark(p.kind),
              note: note(p)))
        }
      }
      for p in change?.properties ?? [] where p.kind == .removed {
        rows.append(Row(name: p.name, detail: p.summary, mark: .removed, note: "removed"))
      }
      var entityNote: String? = nil
      if let change {
        switch change.kind {
        case .renamed: entityNote = "renamed from \(change.renamedFrom ?? "?")"
        case .changed where !change.changes.isEmpty: entityNote = change.changes.joined(separator: "; ")
        default: break
        }
      }
      nodes.append(
        Node(
          id: id, title: e.name, mark: mark(change?.kind ?? .unchanged), note: entityNote, rows: rows, column: 0))
    }
    for removed in diff.entities where removed.kind == .removed {
      let id = identifier(removed.name, taken: &taken)
      nodes.append(
        Node(
          id: id, title: removed.name, mark: .removed, note: nil,
          rows: removed.properties.map { Row(name: $0.name, detail: $0.summary, mark: .removed, note: nil) }, column: 0)
      )
    }
    var edges: [Edge] = []
    var drawn = Set<String>()
    for e in model.entities {
      let props = Dictionary((changes[e.name]?.properties ?? []).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
      for r in e.relationships {
        guard let from = ids[e.name], let to = ids[r.destinationEntity] else { continue }
        // An inverse pair is one line, drawn from the side that comes first.
        let key = [e.name + "." + r.name, r.destinationEntity + "." + (r.inverseName ?? "")].sorted().joined(
          separator: "|")
        if r.inverseName != nil && drawn.contains(key) { continue }
        drawn.insert(key)
        let inverse = r.inverseName.flatMap { model.entity(named: r.destinationEntity)?.relationship(named: $0) }
        edges.append(
          Edge(
            from: from, to: to, label: r.name + (inverse.map { " / " + $0.name } ?? ""),
            mark: mark(props[r.name]?.kind ?? .unchanged), fromCardinality: inverse.map(cardinality) ?? .zeroOrMore,
            toCardinality: cardinality(r)))
      }
    }
    return Diagram(
      kind: .entityRelationship, title: "\(diff.from) → \(diff.to)", nodes: nodes, edges: edges)
  }

  static func mark(_ kind: ModelDiff.Kind) -> Mark {
    switch kind {
    case .added: .added
    case .removed: .removed
    case .renamed: .renamed
    case .changed: .changed
    case .unchanged: .none
    }
  }

  static func note(_ p: ModelDiff.PropertyChange) -> String? {
    switch p.kind {
    case .added: return "added"
    case .removed: return "removed"
    case .renamed: return (["renamed from \(p.renamedFrom ?? "?")"] + p.changes).joined(separator: "; ")
    case .changed: return p.changes.joined(separator: "; ")
    case .unchanged: return nil
    }
  }

  static func cardinality(_ r: RelationshipDescription) -> Cardinality {
    if r.isToMany { return r.minCount > 0 && !r.isOptional ? .oneOrMore : .zeroOrMore }
    return r.isOptional ? .zeroOrOne : .exactlyOne
  }

  /// A mapping: its source entities (left), its entity mappings with their value expressions
  /// (middle), its destination entities (right); a line from each source to the mappings that
  /// read it and from each mapping to the entity it makes.
  public static func of(_ plan: MigrationPlan) -> Diagram {
    var taken = Set<String>()
    var nodes: [Node] = []
    var edges: [Edge] = []
    var sourceIDs: [String: String] = [:]
    var destinationIDs: [String: String] = [:]
    for e in plan.sourceModel.entities where plan.entityMappings.contains(where: { $0.sourceEntity == e.name }) {
      let id = identifier(e.name, prefix: "src_", taken: &taken)
      sourceIDs[e.name] = id
      nodes.append(
        Node(
          id: id, title: e.name, mark: .none, note: "source",
          rows: e.attributes.map { Row(name: $0.name, detail: $0.type.rawValue, mark: .none, note: nil) }, column: 0))
    }
    for e in plan.destinationModel.entities {
      let id = identifier(e.name, prefix: "dst_", taken: &taken)
      destinationIDs[e.name] = id
      let made = plan.entityMappings.contains { $0.destinationEntity == e.name }
      nodes.append(
        Node(
          id: id, title: e.name, mark: made ? .none : .added,
          note: made ? "destination" : "destination, made by no mapping",
          rows: e.attributes.map { Row(name: $0.name, detail: $0.type.rawValue, mark: .none, note: nil) }, column: 2))
    }
    for m in plan.entityMappings {
      let id = identifier(m.name, prefix: "map_", taken: &taken)
      var rows = m.attributeMappings.map { p in
        Row(
          name: p.name, detail: p.valueExpression.map { String(describing: $0.expression) } ?? "(no expression)",
          mark: .none, note: nil)
      }
      rows += m.relationshipMappings.map { p in
        Row(
          name: p.name, detail: p.valueExpression.map { String(describing: $0.expression) } ?? "(no expression)",
          mark: .none, note: nil)
      }
      let mark: Mark =
        switch m.type {
        case .add: .added
        case .remove: .removed
        default: .none
        }
      nodes.append(Node(id: id, title: m.name, mark: mark, note: "\(m.type)", rows: rows, column: 1))
      if let s = m.sourceEntity, let from = sourceIDs[s] {
        edges.append(
          Edge(from: from, to: id, label: "", mark: .none, fromCardinality: .exactlyOne, toCardinality: .exactlyOne))
      }
      if let d = m.destinationEntity, let to = destinationIDs[d] {
        edges.append(
          Edge(from: id, to: to, label: "", mark: mark, fromCardinality: .exactlyOne, toCardinality: .exactlyOne))
      }
    }
    return Diagram(kind: .mapping, title: plan.name, nodes: nodes, edges: edges)
  }
}
