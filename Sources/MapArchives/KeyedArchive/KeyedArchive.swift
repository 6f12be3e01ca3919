/// An `NSKeyedArchiver` archive, read: its `$objects` table and the reference of its root.
///
/// The archive is a graph (objects refer back to their owners), so it is not turned into a tree:
/// readers ask for one object at a time by reference (`object(_:)`) and follow the fields they
/// need. Every reference is checked against the table; a value of the wrong kind is an error
/// naming the object and field. Readers that walk the graph recursively bound their depth with
/// `maximumDepth`. Format and limits: `Specs/xcmappingmodel-archives.md`.
public struct KeyedArchive: Sendable {
  public static let maximumDepth = 256
  public static let maximumObjects = ExpansionLimits.values

  /// `$objects`.
  public let objects: [PropertyListValue]
  /// Index of `$top.root` in `objects`.
  public let root: Int

  public init(bytes: [UInt8]) throws(KeyedArchiveError) {
    let plist: PropertyListValue
    do {
      plist = try BinaryPropertyListReader.read(bytes)
    } catch {
      throw KeyedArchiveError(
        "the archive is not a readable binary property list: \(error.message) (byte \(error.offset))",
        isExpansionLimit: error.isExpansionLimit)
    }
    try self.init(plist: plist)
  }

  public init(plist: PropertyListValue) throws(KeyedArchiveError) {
    guard case .dictionary = plist else { throw KeyedArchiveError("the archive is not a dictionary") }
    guard plist["$archiver"]?.stringValue == "NSKeyedArchiver" else {
      throw KeyedArchiveError("the archive's $archiver is not NSKeyedArchiver")
    }
    guard let objects = plist["$objects"]?.arrayValue, !objects.isEmpty else {
      throw KeyedArchiveError("the archive has no $objects table")
    }
    guard objects.count <= Self.maximumObjects else {
      throw KeyedArchiveError(
        "the archive holds \(objects.count) objects, more than the limit of \(Self.maximumObjects)")
    }
    guard let top = plist["$top"], let rootUID = top["root"]?.uidValue else {
      throw KeyedArchiveError("the archive has no $top.root reference")
    }
    guard rootUID < UInt64(objects.count) else {
      throw KeyedArchiveError("$top.root refers to object \(rootUID), past the object table (\(objects.count) objects)")
    }
    self.objects = objects
    self.root = Int(rootUID)
  }

  /// Index of the object a UID value refers to.
  public func reference(_ value: PropertyListValue, _ context: @autoclosure () -> String) throws(KeyedArchiveError)
    -> Int
  {
    guard case .uid(let u) = value else { throw KeyedArchiveError("\(context()) is not an object reference") }
    guard u < UInt64(objects.count) else {
      throw KeyedArchiveError("\(context()) refers to object \(u), past the object table (\(objects.count) objects)")
    }
    return Int(u)
  }

  /// True when `value` is a reference to `$null` (or a missing field).
  public func isNull(_ value: PropertyListValue?) -> Bool {
    guard let value else { return true }
    if case .uid(let u) = value, u < UInt64(objects.count), objects[Int(u)] == .string("$null") { return true }
    return false
  }

  /// The object at `index` as an instance of a class: its class name and fields.
  public func object(_ index: Int) throws(KeyedArchiveError) -> ArchivedObject {
    guard index >= 0, index < objects.count else {
      throw KeyedArchiveError("object \(index) is past the object table (\(objects.count) objects)")
    }
    guard case .dictionary(let fields) = objects[index], let classRef = objects[index]["$class"] else {
      throw KeyedArchiveError("object \(index) is not a class instance")
    }
    let c = try reference(classRef, "the $class of object \(index)")
    guard case .dictionary = objects[c], let name = objects[c]["$classname"]?.stringValue else {
      throw KeyedArchiveError("the class of object \(index) (object \(c)) has no $classname")
    }
    let chain = objects[c]["$classes"]?.arrayValue?.compactMap(\.stringValue) ?? [name]
    return ArchivedObject(index: index, className: name, classes: chain, fields: fields.filter { $0.key != "$class" })
  }

  /// The plain value a field holds: a UID is followed once, `$null` is nil.
  public func resolve(_ value: PropertyListValue?, _ context: @autoclosure () -> String) throws(KeyedArchiveError)
    -> PropertyListValue?
  {
    guard let value else { return nil }
    guard case .uid = value else { return value }
    if isNull(value) { return nil }
    return objects[try reference(value, context())]
  }

  /// A string field: an inline string, or an `NSString` / `NSMutableString` object.
  public func string(_ value: PropertyListValue?, _ context: @autoclosure () -> String) throws(KeyedArchiveError)
    -> String?
  {
    guard let v = try resolve(value, context()) else { return nil }
    if case .string(let s) = v { return s }
    if case .uid = value, let index = try? reference(value!, ""), let o = try? object(index),
      o.classes.contains("NSString"), case .string(let s)? = try resolve(o["NS.string"], "\(context()).NS.string")
    {
      return s
    }
    throw KeyedArchiveError("\(context()) is not a string")
  }

  /// The elements of an `NSArray`, `NSSet` or `NSOrderedSet` field (references or inline values).
  public func array(_ value: PropertyListValue?, _ context: @autoclosure () -> String) throws(KeyedArchiveError)
    -> [PropertyListValue]?
  {
    guard let value, !isNull(value) else { return nil }
    let o = try object(try reference(value, context()))
    guard let items = o["NS.objects"]?.arrayValue else {
      throw KeyedArchiveError("\(context()) (\(o.className), object \(o.index)) is not an array")
    }
    return items
  }

  /// The entries of an `NSDictionary` field, in archive order (keys resolved to strings).
  public func dictionary(_ value: PropertyListValue?, _ context: @autoclosure () -> String) throws(KeyedArchiveError)
    -> [(key: String, value: PropertyListValue)]?
  {
    guard let value, !isNull(value) else { return nil }
    let o = try object(try reference(value, context()))
    guard let keys = o["NS.keys"]?.arrayValue, let values = o["NS.objects"]?.arrayValue else {
      throw KeyedArchiveError("\(context()) (\(o.className), object \(o.index)) is not a dictionary")
    }
    guard keys.count == values.count else {
      throw KeyedArchiveError("\(context()) (object \(o.index)) has \(keys.count) keys but \(values.count) values")
    }
    var result: [(key: String, value: PropertyListValue)] = []
    result.reserveCapacity(keys.count)
    for (i, k) in keys.enumerated() {
      guard let key = try string(k, "key \(i) of \(context())") else {
        throw KeyedArchiveError("key \(i) of \(context()) is nil")
      }
      result.append((key, values[i]))
    }
    return result
  }
}

/// One class instance of a keyed archive.
public struct ArchivedObject: Sendable {
  public var index: Int
  public var className: String
  /// `$classes`: the class and its superclasses.
  public var classes: [String]
  public var fields: [PropertyListValue.Entry]

  public subscript(key: String) -> PropertyListValue? { fields.last(where: { $0.key == key })?.value }
}

/// Why a keyed archive could not be read.
public struct KeyedArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  /// True when the archive's property list is refused for what it expands to (`limit-expanded-size`).
  public var isExpansionLimit = false
  public init(_ message: String, isExpansionLimit: Bool = false) {
    self.message = message
    self.isExpansionLimit = isExpansionLimit
  }
  public var description: String { message }
}
