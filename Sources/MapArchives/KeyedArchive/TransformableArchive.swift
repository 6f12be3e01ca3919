#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `NSKeyedArchiver` archives of property-list values, as Core Data stores a Transformable
/// attribute with the default or the secure-unarchive transformer
/// (`archivedData(withRootObject:requiringSecureCoding:)`): read into an `ArchivedValue`
/// (`decode`, in `+Reading`) and written back (`encode`) in the layout Foundation writes, so
/// that an archive read and written again keeps its bytes. The layout and what was decided
/// without Apple's frameworks: Specs/sqlite-store.md §5.1.
public enum TransformableArchive {
  /// Nesting of arrays and dictionaries (NSKeyedUnarchiver recurses; so does mapc).
  public static let maximumDepth = 256
  /// Values in one archive (every path to a shared object counted when reading).
  public static let maximumObjects = ExpansionLimits.values
  /// Bytes of one archive.
  public static let maximumBytes = 256 << 20

  /// The archive of `value`, byte for byte as `NSKeyedArchiver` lays it out:
  /// - `$objects[0]` is `$null`; each object is numbered when its encoding starts (so a
  ///   container comes before its contents); strings, numbers and data equal to one already
  ///   archived, and `NSNull`, are archived once;
  /// - an instance is a dictionary of its fields (`NS.objects` for NSArray, `NS.keys` then
  ///   `NS.objects` for NSDictionary, `NS.time` for NSDate) followed by `$class`; its class
  ///   dictionary `{$classname, $classes}` is added after the first instance of that class
  ///   has been encoded with everything in it;
  /// - the top dictionary is `{$version: 100000, $objects, $archiver: "NSKeyedArchiver",
  ///   $top: {root}}`;
  /// - the binary property list as CoreFoundation writes it: objects numbered depth-first from
  ///   the top (a dictionary's keys, then its values), equal strings, numbers and data written
  ///   once except the class names of class dictionaries longer than 7 bytes (not `NSObject`),
  ///   which are written at each place; every UID is its own object; references and offsets in
  ///   the fewest bytes that hold them.
  ///
  /// Deeper than `maximumDepth`, more than `maximumObjects` archived objects or more than
  /// `maximumBytes` bytes is an error; so is a NaN or infinite number.
  public static func encode(_ value: ArchivedValue) throws(ArchivedValueError) -> [UInt8] {
    var archiver = Archiver()
    let root = try archiver.encode(value, depth: 0)
    var writer = PlistWriter()
    writer.archive(archiver.entries, root: root)
    let bytes = writer.bytes()
    guard bytes.count <= maximumBytes else {
      throw ArchivedValueError("the archive would take \(bytes.count) bytes, more than the limit of \(maximumBytes)")
    }
    return bytes
  }

  /// One object of `$objects`.
  enum Entry {
    case null
    /// A plain string, number, boolean or data.
    case scalar(ArchivedValue)
    case instance(fields: [(key: String, value: Field)], classUID: Int)
    case classDictionary(name: String, chain: [String])
  }

  enum Field {
    case references([Int])
    case real(Double)
  }

  struct Archiver {
    var entries: [Entry] = [.null]
    var shared = Sharing()
    var classes: [String: Int] = [:]
    var nullUID: Int?

    mutating func add(_ e: Entry) throws(ArchivedValueError) -> Int {
      guard entries.count < TransformableArchive.maximumObjects else {
        throw ArchivedValueError(
          "more than \(TransformableArchive.maximumObjects) archived objects (the limit of an archive)")
      }
      entries.append(e)
      return entries.count - 1
    }

    mutating func classUID(_ name: String) throws(ArchivedValueError) -> Int {
      if let u = classes[name] { return u }
      let u = try add(.classDictionary(name: name, chain: KeyedArchiveBuilder.classes(of: name)))
      classes[name] = u
      return u
    }

    mutating func encode(_ v: ArchivedValue, depth: Int) throws(ArchivedValueError) -> Int {
      guard depth <= TransformableArchive.maximumDepth else {
        throw ArchivedValueError(
          "nested deeper than \(TransformableArchive.maximumDepth) levels (the limit of an archive)")
      }
      switch v {
      case .string, .integer, .bool, .data: break
      case .real(let d):
        guard d.isFinite else { throw ArchivedValueError("the number \(d) cannot be archived by mapc") }
      case .null:
        if let u = nullUID { return u }
        let slot = try add(.null)
        entries[slot] = .instance(fields: [], classUID: try classUID("NSNull"))
        nullUID = slot
        return slot
      case .date(let t):
        guard t.isFinite else { throw ArchivedValueError("the date \(t) cannot be archived") }
        let slot = try add(.null)
        entries[slot] = .instance(fields: [("NS.time", .real(t))], classUID: try classUID("NSDate"))
        return slot
      case .array(let items):
        let slot = try add(.null)
        var refs: [Int] = []
        refs.reserveCapacity(items.count)
        for x in items { refs.append(try encode(x, depth: depth + 1)) }
        entries[slot] = .instance(fields: [("NS.objects", .references(refs))], classUID: try classUID("NSArray"))
        return slot
      case .dictionary(let pairs):
        let slot = try add(.null)
        var keys: [Int] = []
        var values: [Int] = []
        keys.reserveCapacity(pairs.count)
        values.reserveCapacity(pairs.count)
        for p in pairs { keys.append(try encode(.string(p.key), depth: depth + 1)) }
        for p in pairs { values.append(try encode(p.value, depth: depth + 1)) }
        entries[slot] = .instance(
          fields: [("NS.keys", .references(keys)), ("NS.objects", .references(values))],
          classUID: try classUID("NSDictionary"))
        return slot
      }
      if let u = shared.find(v) { return u }
      let u = try add(.scalar(v))
      shared.add(v, u)
      return u
    }
  }

  /// Plain objects already written, by value (strings by their UTF-8 bytes, reals by their bit
  /// patterns): a list while small (most archives), a dictionary beyond.
  struct Sharing {
    var list: [(value: ArchivedValue, number: Int)] = []
    var map: [PropertyListScalarIdentity: Int]? = nil

    static func identity(_ v: ArchivedValue) -> PropertyListScalarIdentity {
      switch v {
      case .string(let s): .string(Array(s.utf8))
      case .integer(let i): .integer(i)
      case .real(let d): .real(d.bitPattern)
      case .bool(let b): .bool(b)
      case .data(let d): .data(d)
      default: preconditionFailure("not a plain archived object")
      }
    }

    static func same(_ a: ArchivedValue, _ b: ArchivedValue) -> Bool {
      switch (a, b) {
      case (.string(var x), .string(var y)):
        x.withUTF8 { p in
          y.withUTF8 { q in p.count == q.count && (p.count == 0 || memcmp(p.baseAddress!, q.baseAddress!, p.count) == 0)
          }
        }
      case (.integer(let x), .integer(let y)): x == y
      case (.real(let x), .real(let y)): x.bitPattern == y.bitPattern
      case (.bool(let x), .bool(let y)): x == y
      case (.data(let x), .data(let y)): x == y
      default: false
      }
    }

    func find(_ v: ArchivedValue) -> Int? {
      if let map { return map[Self.identity(v)] }
      for e in list where Self.same(e.value, v) { return e.number }
      return nil
    }

    mutating func add(_ v: ArchivedValue, _ number: Int) {
      if map != nil {
        map![Self.identity(v)] = number
        return
      }
      list.append((v, number))
      if list.count > 32 {
        var m: [PropertyListScalarIdentity: Int] = [:]
        for e in list { m[Self.identity(e.value)] = e.number }
        map = m
        list = []
      }
    }
  }

  /// The binary property list of an archive, numbered and uniqued as CoreFoundation does.
  struct PlistWriter {
    enum Object {
      case scalar(ArchivedValue)
      case uid(Int)
      case array([Int])
      case dictionary(keys: [Int], values: [Int])
    }
    var objects: [Object] = []
    var shared = Sharing()

    mutating func reserve() -> Int {
      objects.append(.array([]))
      return objects.count - 1
    }

    mutating func scalar(_ v: ArchivedValue, share: Bool = true) -> Int {
      if share, let n = shared.find(v) { return n }
      objects.append(.scalar(v))
      if share { shared.add(v, objects.count - 1) }
      return objects.count - 1
    }

    mutating func string(_ s: String, share: Bool = true) -> Int { scalar(.string(s), share: share) }

    mutating func uid(_ u: Int) -> Int {
      objects.append(.uid(u))
      return objects.count - 1
    }

    mutating func archive(_ entries: [Entry], root: Int) {
      let top = reserve()
      let keys = ["$version", "$objects", "$archiver", "$top"].map { string($0) }
      let version = scalar(.integer(100_000))
      let list = reserve()
      var refs: [Int] = []
      refs.reserveCapacity(entries.count)
      for e in entries { refs.append(entry(e)) }
      objects[list] = .array(refs)
      let archiver = string("NSKeyedArchiver")
      let topDictionary = reserve()
      let rootKey = string("root")
      let rootUID = uid(root)
      objects[topDictionary] = .dictionary(keys: [rootKey], values: [rootUID])
      objects[top] = .dictionary(keys: keys, values: [version, list, archiver, topDictionary])
    }

    mutating func entry(_ e: Entry) -> Int {
      switch e {
      case .null:
        return string("$null")
      case .scalar(let v):
        // The archiver shared equal plain objects already, so one can only equal an object
        // this writer adds itself: the top's and instances' keys and class names (strings
        // starting with "$" or "NS", and "root"), `$version`'s 100000, and `NS.time` reals.
        switch v {
        case .string(var t):
          let structural = t.withUTF8 { u in
            u.first == UInt8(ascii: "$") || (u.count >= 2 && u[0] == UInt8(ascii: "N") && u[1] == UInt8(ascii: "S"))
              || (u.count == 4 && u[0] == UInt8(ascii: "r") && u[1] == UInt8(ascii: "o") && u[2] == UInt8(ascii: "o")
                && u[3] == UInt8(ascii: "t"))
          }
          if structural { return scalar(v) }
        case .integer(let i) where i == 100_000: return scalar(v)
        case .real: return scalar(v)
        default: break
        }
        objects.append(.scalar(v))
        return objects.count - 1
      case .instance(let fields, let classUID):
        let d = reserve()
        var keys = fields.map { string($0.key) }
        keys.append(string("$class"))
        var values: [Int] = []
        for f in fields {
          switch f.value {
          case .references(let refs):
            let a = reserve()
            objects[a] = .array(refs.map { uid($0) })
            values.append(a)
          case .real(let t):
            values.append(scalar(.real(t)))
          }
        }
        values.append(uid(classUID))
        objects[d] = .dictionary(keys: keys, values: values)
        return d
      case .classDictionary(let name, let chain):
        let d = reserve()
        let keys = [string("$classname"), string("$classes")]
        let nameRef = string(name, share: Self.isShared(name))
        let a = reserve()
        objects[a] = .array(chain.map { string($0, share: Self.isShared($0)) })
        objects[d] = .dictionary(keys: keys, values: [nameRef, a])
        return d
      }
    }

    /// Class names written once: up to 7 bytes, and `NSObject` (the one real archive with a
    /// longer class name, `NSDictionary`, has it twice; Specs/sqlite-store.md §5.1).
    static func isShared(_ name: String) -> Bool { name.utf8.count <= 7 || name == "NSObject" }

    func bytes() -> [UInt8] {
      BinaryPropertyListWriter.objectTable(count: objects.count) { n in
        switch objects[n] {
        case .scalar(let v):
          switch v {
          case .string(let s): .scalar(.string(s))
          case .integer(let i): .scalar(.integer(i))
          case .real(let d): .scalar(.real(d))
          case .bool(let b): .scalar(.bool(b))
          case .data(let d): .scalar(.data(d))
          default: preconditionFailure("not a plain property list object")
          }
        case .uid(let u): .scalar(.uid(UInt64(u)))
        case .array(let refs): .array(refs[...])
        case .dictionary(let keys, let values): .dictionary(keys: keys[...], values: values[...])
        }
      }
    }
  }
}
