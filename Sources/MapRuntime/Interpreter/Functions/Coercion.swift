/// Conversions from expression results to attribute types, as Core Data's key-value coding and
/// NSNumber bridging do them. A value that cannot become the type is an error.
enum Coercion {
  static func coerce(_ v: Value, to type: AttributeType, manager: MigrationContext) throws(MigrationError) -> Value {
    if case .null = v { return .null }
    func mismatch() -> MigrationError {
      MigrationError("run-type-mismatch", "\(manager.describe(v)) cannot be stored in a \(type.rawValue) attribute")
    }
    switch type {
    case .integer16, .integer32, .integer64:
      let n: Int64
      switch v {
      case .int(let x): n = x
      case .bool(let b): n = b ? 1 : 0
      case .double(let d):
        // Strictly inside ±2^63: integer arithmetic that overflows Int64 yields a Double
        // (Specs/limits.md), and -2^63 - 1 rounds to exactly -2^63, which must not become Int64.min.
        guard d.isFinite, d > -9.223372036854775808e18, d < 9.223372036854775808e18 else {
          throw MigrationError(
            "run-integer-range",
            "\(NumberText.decimalText(d)) is out of range for \(type.rawValue) (an integer result that overflowed 64 bits becomes a double)"
          )
        }
        n = Int64(d)  // truncates toward zero, as NSNumber's integer accessors do
      case .decimal(let s):
        guard let d = Double(s), d.isFinite, d >= -9.223372036854775808e18, d < 9.223372036854775808e18 else {
          throw MigrationError("run-integer-range", "\(s) is out of range for \(type.rawValue)")
        }
        n = Int64(d)
      default: throw mismatch()
      }
      guard let range = type.integerRange, range.contains(n) else {
        throw MigrationError("run-integer-range", "\(n) is out of range for \(type.rawValue)")
      }
      return .int(n)
    case .double, .float:
      switch v {
      case .double: return v
      case .int(let x): return .double(Double(x))
      case .bool(let b): return .double(b ? 1 : 0)
      case .decimal(let s):
        guard let d = Double(s) else { throw mismatch() }
        return .double(d)
      default: throw mismatch()
      }
    case .decimal:
      switch v {
      case .decimal: return v
      case .int(let x): return .decimal(String(x))
      case .double(let d):
        guard d.isFinite else { throw mismatch() }
        // Only a number Core Data's decimal holds (DecimalText): a larger one would be written
        // and could not be read back.
        let text = NumberText.decimalText(d)
        guard (try? DecimalText.canonical(text)) != nil else {
          throw MigrationError(
            "run-type-mismatch",
            "\(manager.describe(v)) cannot be stored in a Decimal attribute: Core Data's decimal holds about 1e-128 to 1e165"
          )
        }
        return .decimal(text)
      case .bool(let b): return .decimal(b ? "1" : "0")
      default: throw mismatch()
      }
    case .boolean:
      switch v {
      case .bool: return v
      case .int(let x): return .bool(x != 0)
      case .double(let d): return .bool(d != 0)
      default: throw mismatch()
      }
    case .string, .uri:
      if case .string = v { return v }
      throw mismatch()
    case .uuid:
      guard case .string(let t) = v else { throw mismatch() }
      let s = manager.string(t)
      guard UUIDText.isValid(s) else {
        throw MigrationError("run-type-mismatch", "\"\(s)\" is not a UUID")
      }
      return v
    case .date:
      if case .date = v { return v }
      throw mismatch()
    case .binary:
      if case .data = v { return v }
      // A reference to a file that is missing, carried as it is to a store of its format.
      if case .transformable(let s) = v, manager.unreadable(s) != nil { return v }
      throw mismatch()
    case .transformable, .undefined, .composite, .objectID:
      try manager.requireReadable(v)
      switch v {
      case .sourceObject, .destinationObject, .special:
        throw MigrationError(
          "run-type-mismatch", "\(manager.describe(v)) cannot be stored in a \(type.rawValue) attribute")
      default: return v
      }
    }
  }
}

extension Coercion {
  /// Stores an expression's value in a destination column after converting it to the
  /// attribute's type (see `Coercion`). The common case, a value already of the column's kind,
  /// skips the general conversion.
  @inline(__always)
  static func setCoerced(
    _ column: Column, _ row: Int, _ value: Value, _ type: AttributeType, manager: MigrationContext
  ) throws(MigrationError) {
    switch column.kind {
    case .int:
      if case .int(let n) = value, type == .integer64 || (type.integerRange?.contains(n) ?? false) {
        unsafeDowncast(column, to: IntColumn.self).setInt(row, n)
        return
      }
    case .text:
      let c = unsafeDowncast(column, to: TextColumn.self)
      switch value {
      case .string(.slice(let s)) where type != .uuid:
        c.setPacked(
          row, TextColumn.fitsPacked(s) ? TextColumn.packSlice(s) : c.pack(.native(manager.string(.slice(s)))))
        return
      case .string(let t) where type != .uuid:
        c.setPacked(row, c.pack(t))
        return
      case .null:
        c.setPacked(row, 0)
        return
      default:
        break
      }
    default:
      break
    }
    try setCoercedGenerally(column, row, value, type, manager)
  }

  /// `setCoerced` through the general conversion.
  @inline(never)
  private static func setCoercedGenerally(
    _ column: Column, _ row: Int, _ value: Value, _ type: AttributeType, _ manager: MigrationContext
  ) throws(MigrationError) {
    var coerced = try coerce(value, to: type, manager: manager)
    if case .string(.slice(let s)) = coerced, !TextColumn.fitsPacked(s) {
      coerced = .string(.native(manager.string(.slice(s))))
    }
    column.set(row, coerced)
  }
}
