import Foundation
import MapJSONText
import MapRuntime
import MapTools

/// The table `mapc migrate --plan` prints per step (`Specs/migrate.md` §6): each source entity
/// with its objects and what happens to it and its properties, each destination entity with
/// where its objects come from, and what the step would drop. `counts` is nil for a step whose
/// input does not exist yet (counted when it runs).
package struct StepTable {
  package var analysis: StepAnalysis
  package var counts: StoreCounts?
  package var consent: DropConsent

  package init(analysis: StepAnalysis, counts: StoreCounts?, consent: DropConsent) {
    self.analysis = analysis
    self.counts = counts
    self.consent = consent
  }

  package var losses: [DataLoss]? { counts.map { analysis.losses($0) } }

  /// Indented lines, after the step's own line.
  package var lines: [String] {
    var result: [String] = []
    for e in analysis.sourceEntities where !e.isAbstract {
      let objects = counts.map { c in ", " + Self.plural(c.objects[e.name] ?? 0, "object") } ?? ""
      let fate: String
      switch e.fate {
      case .migrated(let mappings): fate = "by \(mappings.joined(separator: ", "))"
      case .removed(let mapping): fate = "removed by \(mapping)"
      case .dropped: fate = "dropped"
      }
      let properties = e.properties.map { p in
        // Links to objects whose removal was consented are said apart (not a loss).
        let key = e.name + "." + p.name
        let consented = counts?.consentedLinks[key].map { Self.plural($0, "link") + " to objects removed with consent" }
        let n = counts?.values[key].map { n in
          let counted = Self.plural(n, p.isRelationship ? "link" : "value")
          return " (\(consented.map { n == 0 ? $0 : counted + "; " + $0 } ?? counted))"
        }
        return "\(p.name) \(p.fate.label)\(n ?? "")"
      }
      result.append(
        "\(e.name)\(objects): \(fate)" + (properties.isEmpty ? "" : "; " + properties.joined(separator: ", ")))
    }
    for d in analysis.destinationEntities {
      let from = d.madeBy.map { m in m.source.map { "from \($0) (\(m.mapping))" } ?? "by \(m.mapping)" }
      result.append("→ \(d.name): \(from.isEmpty ? "left empty" : from.joined(separator: ", "))")
    }
    if let losses {
      let refused = consent.refused(losses)
      let accepted = losses.filter(consent.covers)
      if losses.isEmpty { result.append("drops nothing this store holds") }
      if !accepted.isEmpty { result.append("drops (accepted): \(DataLoss.describe(accepted))") }
      if !refused.isEmpty { result.append("drops without consent: \(DataLoss.describe(refused))") }
    } else {
      result.append("what it drops is counted when the step runs (its input is the step before's result)")
    }
    return result
  }

  package static func plural(_ n: Int, _ unit: String) -> String { "\(n) \(unit)\(n == 1 ? "" : "s")" }

  /// The step for `--format json`.
  package func json(from: String, to: String, mapping: String) -> Step {
    Step(
      from: from, to: to, mapping: mapping,
      sourceEntities: analysis.sourceEntities.filter { !$0.isAbstract }.map { e in
        let (fate, mappings): (String, [String]) =
          switch e.fate {
          case .migrated(let m): ("migrated", m)
          case .removed(let m): ("removed", [m])
          case .dropped: ("dropped", [])
          }
        return Entity(
          name: e.name, objects: counts?.objects[e.name] ?? (counts == nil ? nil : 0), fate: fate, mappings: mappings,
          properties: e.properties.map { p in
            Property(
              name: p.name, kind: p.isRelationship ? "relationship" : "attribute", fate: Self.fateName(p.fate),
              to: Self.target(p.fate), count: counts?.values[e.name + "." + p.name],
              consentedLinks: counts?.consentedLinks[e.name + "." + p.name])
          })
      },
      destinationEntities: analysis.destinationEntities.map { d in
        Destination(name: d.name, madeBy: d.madeBy.map { Maker(mapping: $0.mapping, source: $0.source) })
      },
      losses: losses.map { l in l.map { Loss(loss: $0, accepted: consent.covers($0)) } })
  }

  package static func fateName(_ f: StepAnalysis.PropertyFate) -> String {
    switch f {
    case .kept: "kept"
    case .renamed: "renamed"
    case .converted: "converted"
    case .defaulted: "defaulted"
    case .recomputed: "recomputed"
    case .read: "read"
    case .dropped: "dropped"
    }
  }

  package static func target(_ f: StepAnalysis.PropertyFate) -> String? {
    switch f {
    case .renamed(let t), .converted(let t), .defaulted(let t), .recomputed(let t): t
    default: nil
    }
  }

  package struct Plan: Encodable {
    package var store: String
    package var from: String
    package var to: String
    package var steps: [Step]

    package init(store: String, from: String, to: String, steps: [Step]) {
      self.store = store
      self.from = from
      self.to = to
      self.steps = steps
    }
  }

  package struct Step: Encodable {
    package var from, to, mapping: String
    package var sourceEntities: [Entity]
    package var destinationEntities: [Destination]
    /// Nil when the step's input is not counted yet.
    package var losses: [Loss]?
    /// The policy classes the step names that this mapc does not have registered (a run
    /// refuses the step); absent when none.
    package var missingPolicyClasses: [String]? = nil
    /// True for a step to an earlier version (absent otherwise).
    package var reverse: Bool? = nil
  }

  package struct Entity: Encodable {
    package var name: String
    package var objects: Int?
    package var fate: String
    package var mappings: [String]
    package var properties: [Property]
  }

  package struct Property: Encodable {
    package var name, kind, fate: String
    package var to: String?
    package var count: Int?
    /// Links to objects whose removal was consented, not in `count` (absent: none).
    package var consentedLinks: Int?
  }

  package struct Destination: Encodable {
    package var name: String
    package var madeBy: [Maker]
  }

  package struct Maker: Encodable {
    package var mapping: String
    package var source: String?
  }

  package struct Loss: Encodable {
    package var entity: String
    package var property: String?
    package var count: Int
    package var accepted: Bool

    package init(loss: DataLoss, accepted: Bool) {
      entity = loss.entity
      property = loss.property
      count = loss.count
      self.accepted = accepted
    }
  }

  /// Pretty JSON with sorted keys, ending with a newline: the layout of Foundation's
  /// JSON encoder (`.prettyPrinted, .sortedKeys, .withoutEscapingSlashes`), which wrote these
  /// files first.
  package static func encode(_ value: some Encodable) -> String {
    guard let json = try? JSONValue(encoding: value) else { return "\n" }
    return json.sortingKeys().foundationPretty() + "\n"
  }
}
