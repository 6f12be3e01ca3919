/// Collections and descriptions of objects and values, for every part of the interpreter.
extension MigrationContext {
  /// The elements of a collection; nil gives none; any other value is a one-element collection.
  /// A Transformable value mapc cannot read is an error (`lookInside`): it may be a collection
  /// of any size on the device.
  func elements(_ v: Value) throws(MigrationError) -> [Value] {
    switch v {
    case .null: return []
    case .array(let a): return a
    case .transformable(let s):
      if case .array(let a) = try lookInside(s) { return a }
      return [v]
    default: return [v]
    }
  }

  /// "DayRecord/2 (created by RecordsToDayRecord from Records/2)".
  func objectDescription(_ ref: ObjectRef, origin: ObjectRef?, mapping: EntityMapping) -> String {
    var text = destinationID(ref)
    if let origin {
      text += " (created by \(mapping.name) from \(sourceID(origin)))"
    } else {
      text += " (created by \(mapping.name))"
    }
    return text
  }

  /// A short description of a value for error messages.
  func describe(_ v: Value) -> String {
    switch v {
    case .null: return "nil"
    case .bool(let b): return b ? "YES" : "NO"
    case .int(let i): return "the number \(i)"
    case .double(let d): return "the number \(d)"
    case .decimal(let s): return "the decimal \(s)"
    case .string(let t):
      let s = string(t)
      return "the string \"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
    case .date(let t): return "the date \(ISO8601.format(t))"
    case .data(let d): return "\(d.count) bytes of data"
    case .transformable: return "a Transformable value"
    case .sourceObject(let r): return "source object \(sourceID(r))"
    case .destinationObject(let r): return "destination object \(destinationID(r))"
    case .array(let a): return "a collection of \(a.count)"
    case .dictionary: return "a dictionary"
    case .special(let s):
      switch s {
      case .manager: return "$manager"
      case .sourceContext: return "the source context"
      case .destinationContext: return "the destination context"
      case .entityPolicy: return "$entityPolicy"
      case .entityMapping: return "an entity mapping"
      case .propertyMapping: return "a property mapping"
      case .fetchRequest(let f): return "a fetch request for \(f.entity)"
      case .userInfo: return "a userInfo dictionary"
      }
    }
  }
}
