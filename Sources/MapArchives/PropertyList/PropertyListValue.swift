/// A property list value as Apple's binary (`bplist00`) and XML property lists hold it.
///
/// Dictionaries keep their entries in file order so that a value read and written again keeps
/// its shape. Keyed archives (`NSKeyedArchiver`) are property lists whose object references are
/// `uid` values; `KeyedArchive` (MapCompiler) reads them.
public indirect enum PropertyListValue: Sendable, Hashable {
  case string(String)
  case data([UInt8])
  case integer(Int64)
  case real(Double)
  case bool(Bool)
  /// Seconds since 2001-01-01 00:00:00 UTC, as Core Data and Foundation store dates.
  case date(Double)
  case array([PropertyListValue])
  case dictionary([Entry])
  /// An `NSKeyedArchiver` object reference (index into `$objects`).
  case uid(UInt64)
  /// The `null` marker of a binary property list (rare; `$null` in archives is a string).
  case null

  public struct Entry: Sendable, Hashable {
    public var key: String
    public var value: PropertyListValue
    public init(_ key: String, _ value: PropertyListValue) {
      self.key = key
      self.value = value
    }
  }
}

extension PropertyListValue {
  /// The value of `key` in a dictionary (the last entry with that key); nil otherwise.
  public subscript(key: String) -> PropertyListValue? {
    guard case .dictionary(let entries) = self else { return nil }
    return entries.last(where: { $0.key == key })?.value
  }

  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }
  public var integerValue: Int64? {
    if case .integer(let i) = self { return i }
    return nil
  }
  public var boolValue: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }
  public var dataValue: [UInt8]? {
    if case .data(let d) = self { return d }
    return nil
  }
  public var arrayValue: [PropertyListValue]? {
    if case .array(let a) = self { return a }
    return nil
  }
  public var dictionaryValue: [Entry]? {
    if case .dictionary(let d) = self { return d }
    return nil
  }
  public var uidValue: UInt64? {
    if case .uid(let u) = self { return u }
    return nil
  }
}

/// Why a property list could not be read: the byte offset and what was wrong there.
public struct PropertyListError: Error, Sendable, Hashable, CustomStringConvertible {
  public var offset: Int
  public var message: String
  /// True when the list is refused for what it would expand to (`ExpansionLimits.values`,
  /// `ExpansionLimits.bytes`): reported as `limit-expanded-size`.
  public var isExpansionLimit: Bool
  public init(offset: Int, message: String, isExpansionLimit: Bool = false) {
    self.offset = offset
    self.message = message
    self.isExpansionLimit = isExpansionLimit
  }
  public var description: String { "at byte \(offset): \(message)" }
}
