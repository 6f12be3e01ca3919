import Foundation

/// Key-value coding over a run's values (NSObject's `valueForKey:` and `valueForKeyPath:` as
/// expressions and policies use them): properties of objects, keys of strings, numbers, dates
/// and the migration manager, collection operators. Reads the run; owns nothing.
struct KeyValueCoding {
  let run: MigrationContext

  @inline(__always) init(_ run: MigrationContext) { self.run = run }

  /// Key-value coding: one key applied to a value. Key paths through nil give nil; a key
  /// applied to a collection is applied to every element (NSArray's `valueForKey:`).
  func value(of v: Value, key: String) throws(MigrationError) -> Value {
    switch v {
    case .null:
      return .null
    case .sourceObject(let ref):
      let t = run.source.table(ref)
      guard let p = t.layout.propertyIndex(key) else {
        throw MigrationError("run-unknown-key", "\(t.layout.name) has no property \(key)")
      }
      return t.columns[p].read(Int(ref.row))
    case .destinationObject(let ref):
      let t = run.destination.table(ref)
      guard let p = t.layout.propertyIndex(key) else {
        throw MigrationError("run-unknown-key", "\(t.layout.name) has no property \(key)")
      }
      return t.columns[p].read(Int(ref.row))
    case .array(let items):
      var out: [Value] = []
      out.reserveCapacity(items.count)
      for x in items { out.append(try value(of: x, key: key)) }
      return .array(out)
    case .transformable(let s):
      return try value(
        of: key == TransformablePayload.bytesKey ? run.transformableValue(s) : run.lookInside(s), key: key)
    case .dictionary(let pairs):
      return pairs.first { $0.0 == key }?.1 ?? .null
    case .string(let t):
      switch key {
      case "length": return .int(Int64(run.utf16Length(t)))
      case "uppercaseString": return .string(.native(run.string(t).uppercased()))
      case "lowercaseString": return .string(.native(run.string(t).lowercased()))
      case "capitalizedString": return .string(.native(run.string(t).capitalized))
      case "intValue", "integerValue", "longLongValue":
        return .int(NumberText.leadingInteger(run.string(t)))
      case "doubleValue", "floatValue": return .double(NumberText.leadingDouble(run.string(t)))
      case "boolValue": return .bool(NumberText.boolValue(run.string(t)))
      case "description", "self", "stringValue": return v
      default: break
      }
    case .int(let i):
      switch key {
      case "stringValue", "description": return .string(.native(String(i)))
      case "intValue", "integerValue", "longLongValue", "self": return v
      case "doubleValue", "floatValue": return .double(Double(i))
      case "boolValue": return .bool(i != 0)
      default: break
      }
    case .double(let d):
      switch key {
      case "stringValue", "description": return .string(.native(NumberText.shortest(d)))
      case "doubleValue", "floatValue", "self": return v
      case "intValue", "integerValue", "longLongValue":
        return .int(d.isFinite ? Int64(clamping: Int64(exactly: d.rounded(.towardZero)) ?? 0) : 0)
      case "boolValue": return .bool(d != 0)
      default: break
      }
    case .bool(let b):
      switch key {
      case "boolValue", "self": return v
      case "intValue", "integerValue": return .int(b ? 1 : 0)
      case "stringValue", "description": return .string(.native(b ? "1" : "0"))
      default: break
      }
    case .date(let t):
      switch key {
      case "timeIntervalSinceReferenceDate": return .double(t)
      case "timeIntervalSince1970": return .double(t + 978_307_200)
      case "description": return .string(.native(ISO8601.format(t)))
      case "self": return v
      default: break
      }
    case .data(let bytes):
      switch key {
      case "length": return .int(Int64(bytes.count))
      case "self": return v
      default: break
      }
    case .decimal(let s):
      switch key {
      case "stringValue", "description", "self": return key == "self" ? v : .string(.native(s))
      case "doubleValue": return .double(Double(s) ?? 0)
      default: break
      }
    case .special(let sp):
      if let r = try specialValue(sp, key: key) { return r }
    }
    throw MigrationError("run-unknown-key", "\(run.describe(v)) has no key \(key)")
  }

  private func specialValue(_ sp: Special, key: String) throws(MigrationError) -> Value? {
    switch sp {
    case .manager:
      switch key {
      case "sourceContext": return .special(.sourceContext)
      case "destinationContext": return .special(.destinationContext)
      case "currentEntityMapping": return .special(.entityMapping(run.currentMappingIndex))
      case "mappingModel": return .special(.userInfo(run.plan.userInfo))
      case "userInfo": return .special(.userInfo(run.plan.userInfo))
      case "migrationProgress": return .double(0)
      default: return nil
      }
    case .entityMapping(let i):
      let m = run.plan.entityMappings[i]
      switch key {
      case "name": return .string(.native(m.name))
      case "userInfo": return .special(.userInfo(m.userInfo))
      case "sourceEntityName": return m.sourceEntity.map { .string(.native($0)) } ?? .null
      case "destinationEntityName": return m.destinationEntity.map { .string(.native($0)) } ?? .null
      case "mappingType": return .int(Int64(m.type.coreDataCode))
      case "entityMigrationPolicyClassName": return m.policyName.map { .string(.native($0)) } ?? .null
      case "sourceEntityVersionHash":
        return run.plan.sourceEntityHashes.first { $0.entity == m.sourceEntity }.map { .data($0.hash) } ?? .null
      case "destinationEntityVersionHash":
        return run.plan.destinationEntityHashes.first { $0.entity == m.destinationEntity }.map { .data($0.hash) }
          ?? .null
      default: return nil
      }
    case .propertyMapping(_, let name):
      if key == "name" { return .string(.native(name)) }
      return nil
    case .userInfo(let u):
      return u[key].map { .string(.native($0)) } ?? .null
    case .fetchRequest(let f):
      if key == "entityName" { return .string(.native(f.entity)) }
      return nil
    default:
      return nil
    }
  }

  /// Applies a key path, with collection operators (`@count`, `@sum.x`, `@distinctUnionOfObjects.x`, …).
  func value(of v: Value, path: ArraySlice<String>) throws(MigrationError) -> Value {
    var current = v
    var i = path.startIndex
    while i < path.endIndex {
      let key = path[i]
      if key.hasPrefix("@") {
        let rest = path[(i + 1)...]
        return try collectionOperator(key, current, rest)
      }
      current = try value(of: current, key: key)
      i += 1
    }
    return current
  }

  private func collectionOperator(_ op: String, _ v: Value, _ rest: ArraySlice<String>) throws(MigrationError) -> Value
  {
    if v.isNull { return .null }
    let items = try run.elements(v)
    if op == "@count" {
      if rest.isEmpty { return .int(Int64(items.count)) }
    }
    var mapped: [Value] = []
    mapped.reserveCapacity(items.count)
    for x in items {
      mapped.append(rest.isEmpty ? x : try value(of: x, path: rest))
    }
    switch op {
    case "@count": return .int(Int64(mapped.count))
    case "@sum": return try Builtins.sum(mapped, run)
    case "@avg": return try Builtins.average(mapped, run)
    case "@min": return try Builtins.minimum(mapped, run)
    case "@max": return try Builtins.maximum(mapped, run)
    case "@unionOfObjects": return .array(mapped.filter { !$0.isNull })
    case "@distinctUnionOfObjects": return .array(distinct(mapped.filter { !$0.isNull }))
    case "@unionOfArrays", "@unionOfSets":
      var all: [Value] = []
      for m in mapped { all += try run.elements(m) }
      return .array(all)
    case "@distinctUnionOfArrays", "@distinctUnionOfSets":
      var all: [Value] = []
      for m in mapped { all += try run.elements(m) }
      return .array(distinct(all))
    default:
      throw MigrationError("run-unknown-key", "unknown collection operator \(op)")
    }
  }

  /// Removes later duplicates, keeping order.
  /// `items` without repeats, in order. Objects (by far the largest collections: a to-many's
  /// members) are compared through a set, so this is linear for them; other values pairwise.
  func distinct(_ items: [Value]) -> [Value] {
    var out: [Value] = []
    var others: [Value] = []
    var sources: Set<ObjectRef> = []
    var destinations: Set<ObjectRef> = []
    for x in items {
      switch x {
      case .sourceObject(let r): if sources.insert(r).inserted { out.append(x) }
      case .destinationObject(let r): if destinations.insert(r).inserted { out.append(x) }
      default:
        if !others.contains(where: { run.equal($0, x) }) {
          others.append(x)
          out.append(x)
        }
      }
    }
    return out
  }
}
