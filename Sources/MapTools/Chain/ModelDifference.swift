import MapModelReader
import MapRuntime

/// What makes two models' entity version hashes differ, by entity and property: a model given
/// with `--model` against the model the store carries (`mapc store info`). Only what Core
/// Data's hash reads is compared (`VersionHasher`), so every line explains a hash that differs
/// and no differing hash goes without a line.
public enum ModelDifference {
  /// One line per difference (`Entity.property: …`), in entity then property name order; empty
  /// when every entity hashes alike. `a` and `b` name the two sides (`"the model"`, `"the store"`).
  public static func lines(_ left: ObjectModel, _ right: ObjectModel, a: String, b: String) -> [String] {
    let leftHashes = Dictionary(
      VersionHasher.entityHashes(of: left).map { ($0.entity, $0.hash) }, uniquingKeysWith: { x, _ in x })
    let rightHashes = Dictionary(
      VersionHasher.entityHashes(of: right).map { ($0.entity, $0.hash) }, uniquingKeysWith: { x, _ in x })
    var out: [String] = []
    let names = Set(leftHashes.keys).union(rightHashes.keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    for name in names {
      guard let l = left.entity(named: name) else {
        out.append("\(name): an entity only in \(b)")
        continue
      }
      guard let r = right.entity(named: name) else {
        out.append("\(name): an entity only in \(a)")
        continue
      }
      guard leftHashes[name] != rightHashes[name] else { continue }
      let before = out.count
      out += entityLines(l, in: left, r, in: right, a: a, b: b)
      if out.count == before { out.append("\(name): its super-entity's hash differs") }
    }
    return out
  }

  static func entityLines(
    _ l: EntityDescription, in left: ObjectModel, _ r: EntityDescription, in right: ObjectModel, a: String, b: String
  ) -> [String] {
    var out: [String] = []
    let name = l.name
    func differs<T: Equatable>(_ what: String, _ x: T, _ y: T, _ show: (T) -> String) {
      if x != y { out.append("\(name): \(what) \(show(x)) in \(a), \(show(y)) in \(b)") }
    }
    differs("abstract", l.isAbstract, r.isAbstract) { $0 ? "yes" : "no" }
    differs("parent", l.parentName, r.parentName) { $0.map { "'\($0)'" } ?? "none" }
    differs("version hash modifier", l.versionHashModifier, r.versionHashModifier) { $0.map { "\"\($0)\"" } ?? "none" }
    let constraints = { (e: EntityDescription) in
      e.uniquenessConstraints.map { $0.joined(separator: ".") }.filter { !$0.isEmpty }.sorted()
    }
    differs("uniqueness constraints", constraints(l), constraints(r)) {
      $0.isEmpty ? "none" : $0.map { "[\($0)]" }.joined(separator: ", ")
    }
    let lp = properties(l, in: left)
    let rp = properties(r, in: right)
    for p in Set(lp.keys).union(rp.keys).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
      switch (lp[p], rp[p]) {
      case (nil, _?): out.append("\(name).\(p): only in \(b)")
      case (_?, nil): out.append("\(name).\(p): only in \(a)")
      case (let x?, let y?) where x.hash != y.hash:
        let what = describe(x, y, a: a, b: b)
        out.append("\(name).\(p): \(what.isEmpty ? "its hash differs" : what.joined(separator: "; "))")
      default: break
      }
    }
    return out
  }

  /// A property as the hash sees it.
  struct Hashed {
    var hash: [UInt8]
    var facts: [(String, String)]
  }

  /// Stored (non-transient) properties, own and inherited, by name.
  static func properties(_ e: EntityDescription, in model: ObjectModel) -> [String: Hashed] {
    var out: [String: Hashed] = [:]
    for a in model.allAttributes(of: e) where !a.isTransient {
      out[a.name] = Hashed(hash: VersionHasher.attributeHash(a), facts: attributeFacts(a))
    }
    for r in model.allRelationships(of: e) where !r.isTransient {
      out[r.name] = Hashed(
        hash: VersionHasher.relationshipHash(r),
        facts: [
          ("kind", "a relationship"), ("destination", "'\(r.destinationEntity)'"),
          ("inverse", r.inverseName.map { "'\($0)'" } ?? "none"), ("optional", r.isOptional ? "yes" : "no"),
          ("minimum count", String(r.minCount)), ("maximum count", String(r.maxCount)),
          ("ordered", r.isOrdered ? "yes" : "no"), ("version hash modifier", r.versionHashModifier ?? "none"),
        ])
    }
    return out
  }

  static func attributeFacts(_ a: AttributeDescription) -> [(String, String)] {
    var facts: [(String, String)] = [("kind", "an attribute"), ("type", a.type.rawValue)]
    if a.type == .composite {
      facts.append(("elements", elementList(a)))
      return facts
    }
    facts += [
      ("optional", a.isOptional ? "yes" : "no"),
      ("external storage", a.allowsExternalBinaryDataStorage ? "yes" : "no"),
      ("kept in history on deletion", a.preservesValueInHistoryOnDeletion ? "yes" : "no"),
      ("version hash modifier", a.versionHashModifier ?? "none"),
      ("derived", a.isDerived ? (a.derivationExpression ?? "yes") : "no"),
    ]
    return facts
  }

  /// A composite's elements as its hash sees them, by name: `[id UUID optional, location
  /// Composite [latitude Double optional]]`.
  static func elementList(_ a: AttributeDescription) -> String {
    let elements = a.compositeElements.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    return "["
      + elements.map { e in
        var text = "\(e.name) \(e.type.rawValue)"
        if e.type == .composite { return text + " " + elementList(e) }
        if e.isOptional { text += " optional" }
        if e.allowsExternalBinaryDataStorage { text += " external storage" }
        if e.preservesValueInHistoryOnDeletion { text += " kept in history" }
        if let m = e.versionHashModifier { text += " modifier \"\(m)\"" }
        return text
      }.joined(separator: ", ") + "]"
  }

  static func describe(_ x: Hashed, _ y: Hashed, a: String, b: String) -> [String] {
    let right = Dictionary(y.facts, uniquingKeysWith: { v, _ in v })
    if let kind = right["kind"], kind != x.facts.first?.1 {
      return ["\(x.facts.first!.1) in \(a), \(kind) in \(b)"]
    }
    return x.facts.compactMap { key, value in
      guard let other = right[key], other != value else { return nil }
      return "\(key) \(value) in \(a), \(other) in \(b)"
    }
  }
}
