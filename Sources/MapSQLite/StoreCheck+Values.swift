import Foundation
import MapArchives
import MapRuntime

/// The value checks: each stored value decoded as Core Data decodes its attribute's type
/// (`CoreDataValues`), archives read as keyed archives, external data references resolved to
/// their files. One row at a time.
extension StoreCheck {
  mutating func values() throws(MigrationFailure) {
    let folder = ExternalData.dataFolder(ofStore: store.path)
    for t in schema.tables() {
      for c in t.columns {
        let entity: String
        let a: AttributeDescription
        let name: String
        switch c.role {
        case .attribute(let e, let x) where !x.isTransient: (entity, a, name) = (e, x, x.name)
        case .element(let e, let composite, let path, let x):
          (entity, a, name) = (e, x, composite.name + "." + path.joined(separator: "."))
        default: continue
        }
        guard has(t.name, ["Z_PK", "Z_ENT", c.name]) else { continue }
        let sql =
          "SELECT Z_PK, Z_ENT, \(Self.q(c.name)) FROM \(Self.q(t.name)) WHERE \(Self.q(c.name)) IS NOT NULL AND Z_ENT IN \(kinds(entity)) ORDER BY Z_PK"
        try Self.each(store, sql, what: "\(t.name).\(c.name)") { row in
          guard let problem = Self.problem(row[2], a, folder: folder) else { return }
          let missing = problem.missing
          sink.add(
            StoreFinding(
              missing ? "check-external-missing" : "check-value-undecodable", .error,
              "\(entity).\(name): \(problem.message)", table: t.name, column: c.name, row: row[0].integer,
              entity: entityName(row[1]),
              repair: a.isOptional
                ? "set to NULL with --allow-drop \(entity).\(name) (the value is already lost)"
                : "none: the attribute is mandatory",
              fix: a.isOptional ? .withConsent(name: "\(entity).\(name)") : .none))
        }
      }
    }
  }

  /// Why Core Data cannot read `v` as a value of `a`, or nil.
  static func problem(_ v: SQLiteValue, _ a: AttributeDescription, folder: String) -> (
    message: String, missing: Bool
  )? {
    if a.type == .binary && a.allowsExternalBinaryDataStorage, case .blob(let b) = v {
      do throws(CoreDataValues.Mismatch) {
        if case .missing(let uuid) = try CoreDataValues.external(b, folder: folder) {
          return (ExternalData.missingMessage(folder: folder, uuid), true)
        }
        return nil
      } catch {
        return (error.message, false)
      }
    }
    if a.type == .transformable && CoreDataValues.isArchive(a) {
      guard case .blob(let b) = v else {
        return ("an archived value is \(CoreDataValues.describe(v)), not bytes", false)
      }
      return isKeyedArchive(b)
        ? nil : ("the \(b.count) bytes are not a keyed archive NSKeyedUnarchiver can read", false)
    }
    do throws(CoreDataValues.Mismatch) {
      _ = try CoreDataValues.decode(v, a, externalFolder: folder)
      return nil
    } catch {
      return (error.message, false)
    }
  }

  /// Whether `bytes` are a binary property list holding a keyed archive (`$objects`, `$top`).
  static func isKeyedArchive(_ bytes: [UInt8]) -> Bool {
    guard let plist = try? BinaryPropertyListReader.read(bytes) else { return false }
    return plist["$objects"]?.arrayValue != nil && plist["$top"]?.dictionaryValue != nil
  }
}
