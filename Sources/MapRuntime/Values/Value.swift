/// A value while a migration runs: what an expression evaluates to and what a property holds.
///
/// Strings read from a store are usually kept as slices of the input bytes (`Text.slice`), so
/// that copying them to the output costs no decoding. Objects are referred to by `ObjectRef`
/// together with the side (source or destination store) they live in.
public enum Value: Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  /// Exact decimal text (`Decimal` attributes), e.g. `"12.50"`.
  case decimal(String)
  case string(Text)
  /// Seconds since 2001-01-01T00:00:00Z.
  case date(Double)
  case data([UInt8])
  /// A Transformable attribute's value as the input store encodes it, kept unread (a slice of
  /// the source graph's input); read with the graph's `TransformableCodec` when an expression
  /// looks inside it.
  case transformable(ByteSlice)
  case sourceObject(ObjectRef)
  case destinationObject(ObjectRef)
  /// Arrays, sets and ordered sets (order is kept; sets are de-duplicated when built).
  case array([Value])
  /// An object (string keys) held by a Transformable attribute; keys sorted for determinism on
  /// output.
  case dictionary([(String, Value)])
  /// A value that only exists inside expressions: `$manager`, a fetch request, a context, …
  case special(Special)

  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }
}

/// Handles that expressions pass around but stores never hold.
public enum Special: Sendable {
  case manager
  case sourceContext
  case destinationContext
  case entityPolicy
  /// Index into the plan's entity mappings.
  case entityMapping(Int)
  /// Entity mapping index and property name.
  case propertyMapping(Int, String)
  /// A fetch request on the source or destination store: entity name and optional filter.
  case fetchRequest(FetchRequest)
  /// Core Data's userInfo dictionaries reached through key paths (`$entityMapping.userInfo`).
  case userInfo(UserInfo)
}

/// `fetchRequestForSourceEntityNamed:predicateString:`'s result.
public struct FetchRequest: Sendable {
  public var entity: String
  public var predicate: Predicate?
  public init(entity: String, predicate: Predicate?) {
    self.entity = entity
    self.predicate = predicate
  }
}

/// An object in a store: its entity (index into the store's entity tables) and row.
public struct ObjectRef: Sendable, Hashable {
  public var entity: UInt32
  public var row: UInt32
  @inlinable public init(entity: UInt32, row: UInt32) {
    self.entity = entity
    self.row = row
  }
  @inlinable public init(entity: Int, row: Int) {
    self.entity = UInt32(truncatingIfNeeded: entity)
    self.row = UInt32(truncatingIfNeeded: row)
  }
  /// Packed form stored in relationship columns (never 0, so 0 can mean nil).
  @inlinable package var packed: UInt64 { (UInt64(entity) << 32 | UInt64(row)) &+ 1 }
  @inlinable package init(packed: UInt64) {
    let v = packed &- 1
    self.entity = UInt32(truncatingIfNeeded: v >> 32)
    self.row = UInt32(truncatingIfNeeded: v)
  }
}
