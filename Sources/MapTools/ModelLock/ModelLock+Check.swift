import Foundation
import MapRuntime
import MapSyntax

/// `mapc lint BUNDLE --lock FILE`: every locked (shipped) version must hash as it did when it
/// was locked (Specs/model-lock.md §3).
extension ModelLock {
  /// The findings for `bundle` against the lock at `lockPath`: `lock-version-changed` (error)
  /// for a locked version whose entity hashes changed, naming the entity and what changed in
  /// it; `lock-version-removed` (error) for a locked version the bundle no longer has;
  /// `lock-version-not-shipped` (note) for a version of the bundle the lock does not have yet.
  public static func check(bundle: String, lockPath: String) -> [Diagnostic] {
    let lock: ModelLock
    let versions: ModelVersions
    do {
      lock = try read(lockPath)
      versions = try ModelVersions.load(bundle: bundle)
    } catch {
      return error.diagnostics
    }
    return lock.check(versions, bundle: bundle, lockPath: lockPath)
  }

  public func check(_ versions: ModelVersions, bundle: String, lockPath: String) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    let byName = Dictionary(versions.versions.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    let locked = Set(self.versions.map(\.name))
    for shipped in self.versions {
      guard let now = byName[shipped.name] else {
        diagnostics.append(
          .error(
            "lock-version-removed",
            "the shipped version '\(shipped.name)' (locked in \(lockPath)) is no longer in the bundle: stores at it can no longer be opened or migrated; restore it",
            at: nil, file: bundle))
        continue
      }
      let current = Self.version(now)
      guard current.checksum != shipped.checksum else { continue }
      let changes = Self.changes(from: shipped, to: current)
      let file = now.model.path ?? bundle
      for (entity, what) in changes {
        let location = now.model.entities.first { $0.name == entity }?.location
        diagnostics.append(
          .error(
            "lock-version-changed",
            "entity \(entity) of the shipped version '\(shipped.name)' changed since it was locked: \(what.joined(separator: "; ")); stores written by the shipped app no longer match it (Core Data: \"Can't find model for source store\"): undo the edit and make a new model version instead",
            at: location, file: location == nil ? file : nil))
      }
      if changes.isEmpty {
        diagnostics.append(
          .error(
            "lock-version-changed",
            "the shipped version '\(shipped.name)' changed since it was locked (version checksum \(shipped.checksum), now \(current.checksum)); undo the edit and make a new model version instead",
            at: nil, file: file))
      }
    }
    for v in versions.versions where !locked.contains(v.name) {
      diagnostics.append(
        Diagnostic(
          .note, id: "lock-version-not-shipped",
          "version '\(v.name)' is not shipped yet (not in \(lockPath)); run `mapc lock` when it ships, and edit it freely until then",
          at: nil, file: v.model.path ?? bundle))
    }
    return diagnostics
  }

  /// Per entity whose hash changed, what changed: properties added, removed or changed (with
  /// their old and new summaries), parent, abstract, hash modifier, uniqueness constraints.
  static func changes(from old: Version, to new: Version) -> [(String, [String])] {
    let newEntities = Dictionary(new.entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    let oldNames = Set(old.entities.map(\.name))
    var result: [(String, [String])] = []
    for e in old.entities {
      guard let n = newEntities[e.name] else {
        result.append((e.name, ["the entity was removed"]))
        continue
      }
      guard n.hash != e.hash else { continue }
      var what: [String] = []
      let newProps = Dictionary(n.properties.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
      let oldProps = Set(e.properties.map(\.name))
      for p in e.properties {
        if let q = newProps[p.name] {
          if q.hash != p.hash { what.append("property \(p.name) changed (was \(p.summary); now \(q.summary))") }
        } else {
          what.append("property \(p.name) was removed (was \(p.summary))")
        }
      }
      for q in n.properties where !oldProps.contains(q.name) {
        what.append("property \(q.name) was added (\(q.summary))")
      }
      if e.parent != n.parent {
        what.append("its parent entity changed from \(e.parent ?? "none") to \(n.parent ?? "none")")
      }
      if e.isAbstract != n.isAbstract { what.append(n.isAbstract ? "it became abstract" : "it is no longer abstract") }
      if e.hashModifier != n.hashModifier {
        what.append("its hash modifier changed from '\(e.hashModifier ?? "")' to '\(n.hashModifier ?? "")'")
      }
      if e.uniquenessConstraints != n.uniquenessConstraints {
        what.append(
          "its uniqueness constraints changed from [\(e.uniquenessConstraints.joined(separator: "; "))] to [\(n.uniquenessConstraints.joined(separator: "; "))]"
        )
      }
      if what.isEmpty { what.append("an entity it inherits from changed") }
      result.append((e.name, what))
    }
    for n in new.entities where !oldNames.contains(n.name) { result.append((n.name, ["the entity was added"])) }
    return result
  }
}
