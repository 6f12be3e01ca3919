/// A value of Foundation's property-list classes as an `NSKeyedArchiver` archive holds it: what
/// a Transformable attribute with the default (or secure-unarchive) transformer stores in a
/// Core Data SQLite store. `TransformableArchive` reads and writes such archives;
/// Specs/sqlite-store.md §5.1 says which archives are read and how they look in JSON.
public indirect enum ArchivedValue: Sendable, Hashable {
  /// NSString (archived as a plain string).
  case string(String)
  /// NSNumber holding an integer (a plain integer).
  case integer(Int64)
  /// NSNumber holding a double (a plain 8-byte real).
  case real(Double)
  /// NSNumber holding a boolean (a plain boolean).
  case bool(Bool)
  /// NSDate: seconds since 2001-01-01 00:00:00 UTC (`NS.time`).
  case date(Double)
  /// NSData (a plain data object).
  case data([UInt8])
  /// NSNull (inside arrays and dictionaries).
  case null
  /// NSArray (`NS.objects`).
  case array([ArchivedValue])
  /// NSDictionary with string keys (`NS.keys`, `NS.objects`), in archive order.
  case dictionary([Entry])

  public struct Entry: Sendable, Hashable {
    public var key: String
    public var value: ArchivedValue
    public init(_ key: String, _ value: ArchivedValue) {
      self.key = key
      self.value = value
    }
  }
}

/// Why a value cannot be archived (too deep, too many objects, a JSON value with no archived
/// form); the message says which.
public struct ArchivedValueError: Error, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
