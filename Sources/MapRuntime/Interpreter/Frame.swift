/// The variables an expression sees while it is evaluated (Core Data's context dictionary).
public struct Frame {
  /// `$source` (nil in add mappings and source fetches).
  public var source: Value = .null
  /// `$destination`.
  public var destination: Value = .null
  /// `$item` and `$index` inside a `forEach` mapping.
  public var item: Value = .null
  public var index: Value = .null
  /// `SELF`: the object a predicate is tested against.
  public var evaluated: Value = .null
  /// Index of the entity mapping being run.
  public var mapping: Int
  /// Index of the property mapping being evaluated in its mapping's `propertyNames`, or -1.
  public var propertyIndex = -1
  /// `SUBQUERY` variables and `$x := …` assignments, innermost last.
  var locals: [(String, Value)] = []

  public init(mapping: Int) { self.mapping = mapping }

  /// Makes the frame as new for another object, keeping its storage.
  @inline(__always) mutating func reset(mapping: Int, source: Value) {
    self.mapping = mapping
    self.source = source
    destination = .null
    item = .null
    index = .null
    evaluated = .null
    propertyIndex = -1
    if !locals.isEmpty { locals.removeAll(keepingCapacity: true) }
  }

  func local(_ name: String) -> Value? {
    for (n, v) in locals.reversed() where n == name { return v }
    return nil
  }
}

/// A linked expression: evaluates against a frame of the run given. Made once per plan by
/// `Linker`; the context is a parameter, so the closures it keeps hold no reference back to it.
typealias LinkedCode = (MigrationContext, inout Frame) throws(MigrationError) -> Value
typealias Test = (MigrationContext, inout Frame) throws(MigrationError) -> Bool
