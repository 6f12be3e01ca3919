import MapArchives
import MapRuntime

/// The field-level reading of a model snapshot: class checks, required fields, typed values,
/// stereotype values. Every failure names the object index, its class and the field.
struct SnapshotDecoder {
  let archive: KeyedArchive

  /// Runs a keyed-archive read, turning its error into a snapshot error.
  func k<T>(_ body: () throws(KeyedArchiveError) -> T) throws(ModelSnapshotError) -> T {
    do {
      return try body()
    } catch {
      throw ModelSnapshotError(error.message)
    }
  }

  static func describe(_ o: ArchivedObject) -> String { "object \(o.index) (\(o.className))" }

  /// The instance a reference field designates; its class must be one of `classes` (or, with
  /// `kindOf`, have one of them in its `$classes` chain).
  func instance(
    _ value: PropertyListValue?, _ context: @autoclosure () -> String, classes: Set<String>,
    kindOf: Bool = false
  ) throws(ModelSnapshotError) -> ArchivedObject {
    guard let value, !archive.isNull(value) else {
      throw ModelSnapshotError("\(context()) is missing or null")
    }
    let index = try k { () throws(KeyedArchiveError) in try archive.reference(value, context()) }
    let o = try k { () throws(KeyedArchiveError) in try archive.object(index) }
    let matches = kindOf ? !classes.isDisjoint(with: o.classes) : classes.contains(o.className)
    guard matches else {
      let expected = classes.sorted().joined(separator: " or ")
      throw ModelSnapshotError("\(context()) is \(Self.describe(o)), expected \(expected)")
    }
    return o
  }

  /// A field that must be present.
  func field(_ o: ArchivedObject, _ key: String) throws(ModelSnapshotError) -> PropertyListValue {
    guard let v = o[key] else { throw ModelSnapshotError("\(Self.describe(o)) has no '\(key)' field") }
    return v
  }

  /// The `_name` of a UML element: a non-null string.
  func name(_ o: ArchivedObject) throws(ModelSnapshotError) -> String {
    let v = try field(o, XDPM.name)
    let s = try k { () throws(KeyedArchiveError) in try archive.string(v, "\(Self.describe(o)) field '_name'") }
    guard let s else { throw ModelSnapshotError("\(Self.describe(o)) field '_name' is null") }
    return s
  }

  /// The entries of a dictionary field (empty when the field is absent and `required` is false).
  func dictionary(_ o: ArchivedObject, _ key: String, required: Bool = true) throws(ModelSnapshotError)
    -> [(key: String, value: PropertyListValue)]
  {
    guard let v = o[key] else {
      if required { throw ModelSnapshotError("\(Self.describe(o)) has no '\(key)' field") }
      return []
    }
    let entries = try k { () throws(KeyedArchiveError) in
      try archive.dictionary(v, "\(Self.describe(o)) field '\(key)'")
    }
    guard let entries else {
      if required { throw ModelSnapshotError("\(Self.describe(o)) field '\(key)' is null") }
      return []
    }
    return entries
  }

  /// The elements of an array field (empty when absent or null).
  func array(_ o: ArchivedObject, _ key: String) throws(ModelSnapshotError) -> [PropertyListValue] {
    try k { () throws(KeyedArchiveError) in try archive.array(o[key], "\(Self.describe(o)) field '\(key)'") } ?? []
  }

  /// The stereotypes of an element: stereotype name → its values.
  func stereotypes(of o: ArchivedObject, _ what: String) throws(ModelSnapshotError) -> [String: Stereotype] {
    var result: [String: Stereotype] = [:]
    for entry in try dictionary(o, XDPM.stereotypes) {
      let context = "stereotype '\(entry.key)' of \(what) (\(Self.describe(o)))"
      let s = try instance(entry.value, context, classes: [XDPM.stereotype])
      guard try name(s) == entry.key else {
        throw ModelSnapshotError("\(context): \(Self.describe(s)) is named '\(try name(s))'")
      }
      var values: [String: Stereotype.Value] = [:]
      for p in try dictionary(s, XDPM.ownedAttributes) {
        let holder = try instance(p.value, "\(p.key) of \(what)", classes: [XDPM.stereotypeProperty])
        let raw = try field(holder, XDPM.defaultValue)
        values[p.key] = Stereotype.Value(holder: holder, raw: archive.isNull(raw) ? nil : raw)
      }
      guard result.updateValue(Stereotype(decoder: self, what: what, values: values), forKey: entry.key) == nil
      else { throw ModelSnapshotError("\(context) appears twice") }
    }
    return result
  }

  /// A stereotype that an element must have.
  func stereotype(_ name: String, in all: [String: Stereotype], of o: ArchivedObject, _ what: String)
    throws(ModelSnapshotError) -> Stereotype
  {
    guard let s = all[name] else {
      throw ModelSnapshotError("\(what) (\(Self.describe(o))) has no '\(name)' stereotype")
    }
    return s
  }
}

/// The values of one stereotype of an element (`XD_PStereotype`, `XD_PPropStereotype`, …):
/// each key's `_default`, read as the type the key holds.
struct Stereotype {
  struct Value {
    /// The `XDUMLPropertyImp` holding the value, for messages.
    var holder: ArchivedObject
    /// `_default`; nil for `$null`.
    var raw: PropertyListValue?
  }

  let decoder: SnapshotDecoder
  /// What the stereotype belongs to, for messages (`attribute 'Post.color'`).
  let what: String
  let values: [String: Value]

  private func context(_ key: String) -> String {
    let at = values[key].map { SnapshotDecoder.describe($0.holder) + ", " } ?? ""
    return "\(at)\(key) of \(what)"
  }

  private func wrongType(_ key: String, _ expected: String, _ found: PropertyListValue) -> ModelSnapshotError {
    ModelSnapshotError("\(context(key)): expected \(expected), found \(Self.kind(found))")
  }

  static func kind(_ v: PropertyListValue) -> String {
    switch v {
    case .string: "a string"
    case .data: "data"
    case .integer: "an integer"
    case .real: "a real number"
    case .bool: "a boolean"
    case .date: "a date"
    case .array: "an array"
    case .dictionary: "an object"
    case .uid: "a reference"
    case .null: "null"
    }
  }

  /// The value a key holds with one reference followed; nil when absent or null.
  private func resolved(_ key: String) throws(ModelSnapshotError) -> PropertyListValue? {
    guard let raw = values[key]?.raw else { return nil }
    let d = decoder
    return try d.k { () throws(KeyedArchiveError) in try d.archive.resolve(raw, context(key)) }
  }

  /// A boolean; `fallback` when absent or null (an error when there is no fallback).
  func flag(_ key: String, _ fallback: Bool?) throws(ModelSnapshotError) -> Bool {
    switch try resolved(key) {
    case nil:
      guard let fallback else { throw ModelSnapshotError("\(context(key)) is missing") }
      return fallback
    case .bool(let b)?: return b
    case .integer(let i)? where i == 0 || i == 1: return i == 1
    case let other?: throw wrongType(key, "a boolean", other)
    }
  }

  /// An integer; `fallback` when absent or null (an error when there is no fallback).
  func integer(_ key: String, _ fallback: Int64?) throws(ModelSnapshotError) -> Int64 {
    switch try resolved(key) {
    case nil:
      guard let fallback else { throw ModelSnapshotError("\(context(key)) is missing") }
      return fallback
    case .integer(let i)?: return i
    case .real(let r)? where r.rounded() == r && abs(r) < 9e15: return Int64(r)
    case let other?: throw wrongType(key, "an integer", other)
    }
  }

  /// A string; nil when absent or null. Numbers are accepted as their decimal text when
  /// `numbers` is true (validation bounds).
  func text(_ key: String, numbers: Bool = false) throws(ModelSnapshotError) -> String? {
    guard let raw = values[key]?.raw else { return nil }
    let d = decoder
    switch try resolved(key) {
    case nil: return nil
    case .integer(let i)? where numbers: return String(i)
    case .real(let r)? where numbers: return String(r)
    case .string(let s)?: return s
    case .dictionary?:
      let s = try d.k { () throws(KeyedArchiveError) in try d.archive.string(raw, context(key)) }
      return s
    case let other?: throw wrongType(key, "a string", other)
    }
  }

  /// The instance a reference value designates (nil when absent or null).
  func object(_ key: String, classes: Set<String>) throws(ModelSnapshotError) -> ArchivedObject? {
    guard let raw = values[key]?.raw else { return nil }
    return try decoder.instance(raw, context(key), classes: classes)
  }

  /// A list of lists of strings (compound indexes, uniqueness constraints); empty when absent.
  func stringLists(_ key: String) throws(ModelSnapshotError) -> [[String]] {
    guard let raw = values[key]?.raw else { return [] }
    let d = decoder
    let outer = try d.k { () throws(KeyedArchiveError) in try d.archive.array(raw, context(key)) } ?? []
    var result: [[String]] = []
    for (i, item) in outer.enumerated() {
      let inner = try d.k { () throws(KeyedArchiveError) in
        try d.archive.array(item, "element \(i) of \(context(key))")
      }
      var names: [String] = []
      for (j, element) in (inner ?? []).enumerated() {
        let s = try d.k { () throws(KeyedArchiveError) in
          try d.archive.string(element, "element \(j) of element \(i) of \(context(key))")
        }
        guard let s else { throw ModelSnapshotError("element \(j) of element \(i) of \(context(key)) is null") }
        names.append(s)
      }
      result.append(names)
    }
    return result
  }

  /// A user-info dictionary of strings; empty when absent.
  func userInfo(_ key: String) throws(ModelSnapshotError) -> UserInfo {
    guard let raw = values[key]?.raw else { return UserInfo() }
    let d = decoder
    let entries = try d.k { () throws(KeyedArchiveError) in try d.archive.dictionary(raw, context(key)) } ?? []
    var result: [UserInfo.Entry] = []
    for e in entries {
      let v = try d.k { () throws(KeyedArchiveError) in
        try d.archive.string(e.value, "value of '\(e.key)' in \(context(key))")
      }
      result.append(UserInfo.Entry(key: e.key, value: v ?? ""))
    }
    return UserInfo(result)
  }

  /// The elements of an array value, unread (empty when absent).
  func arrayCount(_ key: String) throws(ModelSnapshotError) -> Int {
    guard let raw = values[key]?.raw else { return 0 }
    let d = decoder
    return try d.k { () throws(KeyedArchiveError) in try d.archive.array(raw, context(key)) }?.count ?? 0
  }
}
