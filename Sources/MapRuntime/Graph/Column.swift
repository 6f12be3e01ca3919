/// Storage of one property for all objects of an entity. Subclasses store one Swift type per
/// attribute type so that large stores stay small (8 bytes or less per value for scalars,
/// strings and to-one relationships).
public class Column: @unchecked Sendable {
  public final var count: Int { rows }
  final var rows = 0

  func appendNull() { rows += 1 }
  func reserve(_ n: Int) {}
  /// The stored value, with strings as slices where possible.
  func get(_ row: Int) -> Value { .null }
  /// The value as expressions see it: relationship columns give objects of the graph's side.
  func read(_ row: Int) -> Value { get(row) }
  /// Stores an already coerced value (see `Coercion`).
  func set(_ row: Int, _ value: Value) {}
  func isNull(_ row: Int) -> Bool { get(row).isNull }
}

final class IntColumn: Column, @unchecked Sendable {
  var values: [Int64] = []
  var present: [Bool] = []
  override func appendNull() {
    values.append(0)
    present.append(false)
    rows += 1
  }
  override func reserve(_ n: Int) {
    values.reserveCapacity(n)
    present.reserveCapacity(n)
  }
  override func get(_ row: Int) -> Value { present[row] ? .int(values[row]) : .null }
  override func isNull(_ row: Int) -> Bool { !present[row] }
  override func set(_ row: Int, _ value: Value) {
    switch value {
    case .int(let v):
      values[row] = v
      present[row] = true
    default:
      present[row] = false
    }
  }
}

/// Double, Float and Date attributes (dates as seconds since the reference date).
final class DoubleColumn: Column, @unchecked Sendable {
  let isDate: Bool
  var values: [Double] = []
  var present: [Bool] = []
  init(isDate: Bool) { self.isDate = isDate }
  override func appendNull() {
    values.append(0)
    present.append(false)
    rows += 1
  }
  override func reserve(_ n: Int) {
    values.reserveCapacity(n)
    present.reserveCapacity(n)
  }
  override func get(_ row: Int) -> Value {
    guard present[row] else { return .null }
    return isDate ? .date(values[row]) : .double(values[row])
  }
  override func isNull(_ row: Int) -> Bool { !present[row] }
  override func set(_ row: Int, _ value: Value) {
    switch value {
    case .double(let v), .date(let v):
      values[row] = v
      present[row] = true
    default:
      present[row] = false
    }
  }
}

final class BoolColumn: Column, @unchecked Sendable {
  /// 0 false, 1 true, 2 nil.
  var values: [UInt8] = []
  override func appendNull() {
    values.append(2)
    rows += 1
  }
  override func reserve(_ n: Int) { values.reserveCapacity(n) }
  override func get(_ row: Int) -> Value {
    switch values[row] {
    case 0: .bool(false)
    case 1: .bool(true)
    default: .null
    }
  }
  override func isNull(_ row: Int) -> Bool { values[row] == 2 }
  override func set(_ row: Int, _ value: Value) {
    if case .bool(let b) = value { values[row] = b ? 1 : 0 } else { values[row] = 2 }
  }
}

/// String, UUID and URI attributes: each value is 8 bytes, a slice of the input or an index
/// into a side table of native strings.
final class TextColumn: Column, @unchecked Sendable {
  var values: [UInt64] = []
  var arena: [String] = []

  override func appendNull() {
    values.append(0)
    rows += 1
  }
  override func reserve(_ n: Int) { values.reserveCapacity(n) }
  override func isNull(_ row: Int) -> Bool { values[row] == 0 }
  override func get(_ row: Int) -> Value {
    let v = values[row]
    if v == 0 { return .null }
    return .string(text(v))
  }
  @inline(__always) func text(_ v: UInt64) -> Text {
    if v & 1 == 1 {
      return .slice(ByteSlice(start: Int(v >> 26), count: Int((v >> 2) & 0xFF_FFFF), hasEscapes: v & 2 != 0))
    }
    return .native(arena[Int(v >> 1) - 1])
  }
  override func set(_ row: Int, _ value: Value) {
    guard case .string(let t) = value else {
      values[row] = 0
      return
    }
    values[row] = pack(t)
  }
  @inline(__always) func pack(_ t: Text) -> UInt64 {
    switch t {
    case .slice(let s) where s.start < (1 << 38) && s.count < (1 << 24):
      return UInt64(s.start) << 26 | UInt64(s.count) << 2 | (s.hasEscapes ? 2 : 0) | 1
    case .slice:
      // Too large for the packed form: the caller materialises such slices as native text.
      preconditionFailure("oversized slice must be stored as native text")
    case .native(let s):
      arena.append(s)
      return UInt64(arena.count) << 1
    }
  }
  static func fitsPacked(_ s: ByteSlice) -> Bool { s.start < (1 << 38) && s.count < (1 << 24) }
}

/// Everything else: Decimal, Binary, Transformable, and the rarely used types.
final class ValueColumn: Column, @unchecked Sendable {
  var values: [Value] = []
  override func appendNull() {
    values.append(.null)
    rows += 1
  }
  override func reserve(_ n: Int) { values.reserveCapacity(n) }
  override func get(_ row: Int) -> Value { values[row] }
  override func set(_ row: Int, _ value: Value) { values[row] = value }
}

final class ToOneColumn: Column, @unchecked Sendable {
  var values: [UInt64] = []
  let isSource: Bool
  init(isSource: Bool) { self.isSource = isSource }
  override func read(_ row: Int) -> Value {
    let v = values[row]
    if v == 0 { return .null }
    return isSource ? .sourceObject(ObjectRef(packed: v)) : .destinationObject(ObjectRef(packed: v))
  }
  override func appendNull() {
    values.append(0)
    rows += 1
  }
  override func reserve(_ n: Int) { values.reserveCapacity(n) }
  override func isNull(_ row: Int) -> Bool { values[row] == 0 }
  @inline(__always) func target(_ row: Int) -> ObjectRef? {
    let v = values[row]
    return v == 0 ? nil : ObjectRef(packed: v)
  }
  @inline(__always) func setTarget(_ row: Int, _ ref: ObjectRef?) {
    values[row] = ref?.packed ?? 0
  }
}

final class ToManyColumn: Column, @unchecked Sendable {
  var values: [[UInt64]] = []
  let isSource: Bool
  init(isSource: Bool) { self.isSource = isSource }
  override func read(_ row: Int) -> Value {
    let side = isSource
    return .array(values[row].map { side ? .sourceObject(ObjectRef(packed: $0)) : .destinationObject(ObjectRef(packed: $0)) })
  }
  /// Membership sets for large relationships, so adding stays O(1).
  var large: [Int: Set<UInt64>] = [:]
  static let linearLimit = 24

  override func appendNull() {
    values.append([])
    rows += 1
  }
  override func reserve(_ n: Int) { values.reserveCapacity(n) }
  override func isNull(_ row: Int) -> Bool { false }

  func contains(_ row: Int, _ ref: ObjectRef) -> Bool {
    let p = ref.packed
    if let set = large[row] { return set.contains(p) }
    return values[row].contains(p)
  }

  /// Appends unless present; returns whether it was added.
  @discardableResult
  func add(_ row: Int, _ ref: ObjectRef) -> Bool {
    let p = ref.packed
    if large[row] != nil {
      guard large[row]!.insert(p).inserted else { return false }
    } else {
      if values[row].contains(p) { return false }
      if values[row].count >= ToManyColumn.linearLimit {
        var set = Set(values[row])
        set.insert(p)
        large[row] = set
      }
    }
    values[row].append(p)
    return true
  }

  @discardableResult
  func remove(_ row: Int, _ ref: ObjectRef) -> Bool {
    let p = ref.packed
    guard let i = values[row].firstIndex(of: p) else { return false }
    values[row].remove(at: i)
    large[row]?.remove(p)
    return true
  }

  func targets(_ row: Int) -> [ObjectRef] { values[row].map { ObjectRef(packed: $0) } }
}
