import Foundation
import MapJSONText
import MapRuntime
import MapSyntax

/// The lock file: JSON, written deterministically (two-space indentation, versions in chain
/// order, entities and properties by name), so that a change to it reads well in a review.
extension ModelLock {
  public func rendered() -> String {
    JSONValue.object(
      [
        ("format", .string(Self.format)),
        ("formatVersion", .int(1)),
        ("model", .string(model)),
        ("versions", .array(versions.map(Self.json))),
      ] + (steps.isEmpty ? [] : [("steps", .array(steps.map(Self.json)))])
    ).rendered()
  }

  static func json(_ s: Step) -> JSONValue {
    .object([("from", .string(s.from)), ("to", .string(s.to)), ("drops", .array(s.drops.map(JSONValue.string)))])
  }

  static func json(_ v: Version) -> JSONValue {
    .object([
      ("name", .string(v.name)),
      ("versionChecksum", .string(v.checksum)),
      ("entities", .array(v.entities.map(json))),
    ])
  }

  static func json(_ e: Entity) -> JSONValue {
    var members: [(String, JSONValue)] = [("name", .string(e.name)), ("versionHash", .string(e.hash))]
    if let parent = e.parent { members.append(("parent", .string(parent))) }
    if e.isAbstract { members.append(("abstract", .bool(true))) }
    if let m = e.hashModifier { members.append(("hashModifier", .string(m))) }
    if !e.uniquenessConstraints.isEmpty {
      members.append(("uniquenessConstraints", .array(e.uniquenessConstraints.map(JSONValue.string))))
    }
    members.append(
      (
        "properties",
        .array(
          e.properties.map {
            .object([("name", .string($0.name)), ("versionHash", .string($0.hash)), ("summary", .string($0.summary))])
          })
      ))
    return .object(members)
  }

  /// Reads a lock file; a file that is not one is a `lock-invalid` error naming it.
  public static func read(_ path: String) throws(DiagnosticsError) -> ModelLock {
    var document: JSONDocument? = nil
    // Every problem points at the value it is about (its line and column), or at the file.
    func invalid(_ message: String, at steps: [JSONDocument.Step] = []) -> DiagnosticsError {
      let location = steps.isEmpty ? nil : document?.location(of: steps)
      return DiagnosticsError([.error("lock-invalid", message, at: location, file: path)])
    }
    do {
      let input = try InputBytes(contentsOf: path, regularFileOnly: true, maxBytes: Limits.xmlFileBytes)
      document = try JSONDocument(input.withUnsafeBytes { Array($0) }, file: path)
    } catch let error as JSONDocument.SyntaxError {
      throw error.diagnostics(id: "lock-invalid")
    } catch {
      throw invalid("cannot read the lock file: \(SystemErrorText.describe(error))")
    }
    guard let json = document?.root, json.isObject, json["format"]?.string == format else {
      throw invalid("not a model lock (no \"format\": \"\(format)\"; `mapc lock` writes one)", at: ["format"])
    }
    // A number whose integer part is 1 (`1`, `1.0`), as the lock format has always read it.
    guard json["formatVersion"]?.number.map({ $0.rounded(.towardZero) }) == 1 else {
      let version = json["formatVersion"].map { $0.string ?? $0.value.line() } ?? "none"
      throw invalid("format version \(version) is not 1", at: ["formatVersion"])
    }
    guard let model = json["model"]?.string, let list = json["versions"]?.array, list.allSatisfy(\.isObject) else {
      throw invalid("a lock has \"model\" (a string) and \"versions\" (an array of objects)", at: ["versions"])
    }
    var versions: [Version] = []
    for (i, v) in list.enumerated() {
      guard let name = v["name"]?.string, let checksum = v["versionChecksum"]?.string,
        let entities = v["entities"]?.array, entities.allSatisfy(\.isObject)
      else {
        throw invalid(
          "versions[\(i)] lacks \"name\", \"versionChecksum\" or \"entities\"", at: ["versions", .index(i)])
      }
      var locked: [Entity] = []
      for (j, e) in entities.enumerated() {
        guard let entity = e["name"]?.string, let hash = e["versionHash"]?.string,
          let properties = e["properties"]?.array, properties.allSatisfy(\.isObject)
        else {
          throw invalid(
            "versions[\(i)].entities[\(j)] lacks \"name\", \"versionHash\" or \"properties\"",
            at: ["versions", .index(i), "entities", .index(j)])
        }
        var props: [Property] = []
        for (k, p) in properties.enumerated() {
          guard let n = p["name"]?.string, let h = p["versionHash"]?.string else {
            throw invalid(
              "a property of \(entity) in version '\(name)' lacks \"name\" or \"versionHash\"",
              at: ["versions", .index(i), "entities", .index(j), "properties", .index(k)])
          }
          props.append(Property(name: n, hash: h, summary: p["summary"]?.string ?? ""))
        }
        locked.append(
          Entity(
            name: entity, hash: hash, parent: e["parent"]?.string, isAbstract: e["abstract"]?.bool ?? false,
            hashModifier: e["hashModifier"]?.string,
            uniquenessConstraints: e["uniquenessConstraints"]?.strings ?? [], properties: props))
      }
      versions.append(Version(name: name, checksum: checksum, entities: locked))
    }
    var lock = ModelLock(model: model, versions: versions)
    if let list = json["steps"] {
      guard let steps = list.array, steps.allSatisfy(\.isObject) else {
        throw invalid("\"steps\" is an array of objects", at: ["steps"])
      }
      for (i, step) in steps.enumerated() {
        guard let from = step["from"]?.string, let to = step["to"]?.string, let drops = step["drops"]?.strings
        else {
          throw invalid(
            "steps[\(i)] lacks \"from\", \"to\" (strings) or \"drops\" (an array of strings)", at: ["steps", .index(i)])
        }
        lock.steps.append(Step(from: from, to: to, drops: drops))
      }
    }
    return lock
  }
}
