import MapArchives
import MapRuntime
import MapSyntax

/// Reads the `NSKeyedArchiver` archives Xcode stores in `.xcmappingmodel/xcmapping.xml`: a
/// customised attribute value expression (`valueexpressiondata`), a predicate, and an entity
/// mapping's user info (`userinfodata`).
///
/// Each archived class is mapped onto mapc's tree exactly as the parser maps the text Foundation
/// prints for it: `$source.color` becomes a key path on the variable `source`, a function sent to
/// the class `_NSPredicateUtilities` becomes `.function`, any other target `.selector`. The
/// classes, keys and mappings are listed in `Specs/xcmappingmodel-expressions.md`.
///
/// Archives are untrusted: an unknown class, a field of the wrong kind, a reference past the
/// object table, an object that contains itself, nesting deeper than `KeyedArchive.maximumDepth`
/// objects, a tree higher than `ExpressionParser.maxDepth` or larger than `maximumNodes` nodes
/// are errors naming the object and its class. Every object is decoded at most once.
public enum ExpressionArchiveReader {
  /// The most nodes a decoded tree may have (an archive may share one object between many
  /// owners, so a small archive can stand for a very large tree).
  public static let maximumNodes = 100_000

  /// The `NSExpression` at the root of an archive.
  public static func expression(_ bytes: [UInt8]) throws(ExpressionArchiveError) -> Expression {
    var decoder = try ExpressionArchiveDecoder(bytes)
    return try decoder.expression(at: decoder.archive.root, depth: 0).node
  }

  /// The `NSPredicate` at the root of an archive.
  public static func predicate(_ bytes: [UInt8]) throws(ExpressionArchiveError) -> Predicate {
    var decoder = try ExpressionArchiveDecoder(bytes)
    return try decoder.predicate(at: decoder.archive.root, depth: 0).node
  }

  /// The `NSDictionary` at the root of an archive, in archive order.
  ///
  /// Keys must be strings. A string value is kept as it is; any other value is written as
  /// Foundation's `description` prints it (`ExpressionArchiveDecoder.describe`): numbers in
  /// decimal (`42`, `0.5`, a double with up to 16 significant digits), booleans as `1` / `0`,
  /// dates as `2001-01-01 00:00:00 +0000`, data as `{length = 2, bytes = 0x0102}`, arrays and
  /// dictionaries in the old-style property-list layout Foundation prints.
  public static func userInfo(_ bytes: [UInt8]) throws(ExpressionArchiveError) -> UserInfo {
    var decoder = try ExpressionArchiveDecoder(bytes)
    return try decoder.userInfo(at: decoder.archive.root)
  }
}

/// A decoded node with the measures the limits need: its height as the parser counts it (a
/// constant, variable or `SELF` is 1, every other node one more than its highest child) and its
/// number of nodes.
struct DecodedNode<Node> {
  var node: Node
  var height: Int
  var size: Int
}

/// The walk over one archive: objects by reference, each decoded once (`expressions`,
/// `predicates`), the objects being decoded (`inProgress`) to find cycles.
struct ExpressionArchiveDecoder {
  let archive: KeyedArchive
  var expressions: [Int: DecodedNode<Expression>] = [:]
  var predicates: [Int: DecodedNode<Predicate>] = [:]
  var inProgress: Set<Int> = []
  /// Values and bytes of text the user info has expanded to so far (every path to a shared
  /// object counted), bounded by `Limits.expandedValues` and `Limits.expandedBytes`.
  var expanded = (values: 0, bytes: 0)

  init(_ bytes: [UInt8]) throws(ExpressionArchiveError) {
    do {
      archive = try KeyedArchive(bytes: bytes)
    } catch {
      throw ExpressionArchiveError(error.message, isExpansionLimit: error.isExpansionLimit)
    }
  }

  /// Counts one more value of `bytes` bytes in the expansion, failing past the limits.
  mutating func spend(bytes: Int) throws(ExpressionArchiveError) {
    expanded.values += 1
    expanded.bytes += bytes
    guard expanded.values <= Limits.expandedValues, expanded.bytes <= Limits.expandedBytes else {
      throw ExpressionArchiveError(
        "the archive expands to more than \(Limits.expandedValues) values or \(Limits.expandedBytes) bytes "
          + "(an object referred to from several places counts at each)",
        isExpansionLimit: true)
    }
  }

  /// Marks `index` as being decoded, or fails on a cycle or on nesting too deep.
  mutating func enter(_ index: Int, depth: Int) throws(ExpressionArchiveError) {
    guard depth <= KeyedArchive.maximumDepth else {
      throw ExpressionArchiveError(
        "object \(index) is nested more than \(KeyedArchive.maximumDepth) objects deep",
        objectIndex: index, className: try? instance(index).className)
    }
    guard inProgress.insert(index).inserted else {
      let name = (try? instance(index).className) ?? "?"
      throw ExpressionArchiveError(
        "object \(index) (\(name)) contains itself (the archive has a cycle)",
        objectIndex: index, className: name)
    }
  }

  /// The object at `index`, decoded once by `decode` (given the object and the depth of its
  /// children) and kept in `cache`: expressions and predicates share the cycle and depth checks.
  mutating func decodeOnce<Node>(
    _ index: Int, depth: Int, cache: WritableKeyPath<ExpressionArchiveDecoder, [Int: DecodedNode<Node>]>,
    _ decode: (inout ExpressionArchiveDecoder, ArchivedObject, Int) throws(ExpressionArchiveError) -> DecodedNode<Node>
  ) throws(ExpressionArchiveError) -> DecodedNode<Node> {
    if let done = self[keyPath: cache][index] { return done }
    try enter(index, depth: depth)
    defer { inProgress.remove(index) }
    let o = try instance(index)
    let decoded = try decode(&self, o, depth + 1)
    self[keyPath: cache][index] = decoded
    return decoded
  }

  /// The object at `index` as a class instance.
  func instance(_ index: Int) throws(ExpressionArchiveError) -> ArchivedObject {
    do {
      return try archive.object(index)
    } catch {
      throw ExpressionArchiveError(error.message, objectIndex: index)
    }
  }

  /// An error about object `o`.
  func failure(_ o: ArchivedObject, _ message: String) -> ExpressionArchiveError {
    ExpressionArchiveError(
      "object \(o.index) (\(o.className)): \(message)", objectIndex: o.index, className: o.className)
  }

  /// Runs a `KeyedArchive` accessor, naming `o` in its error.
  func within<T>(_ o: ArchivedObject, _ body: () throws(KeyedArchiveError) -> T)
    throws(ExpressionArchiveError) -> T
  {
    do {
      return try body()
    } catch {
      throw failure(o, error.message)
    }
  }

  /// The object a field refers to; nil when the field is missing or `$null`.
  func reference(_ o: ArchivedObject, _ key: String) throws(ExpressionArchiveError) -> Int? {
    guard let value = o[key], !archive.isNull(value) else { return nil }
    return try within(o) { () throws(KeyedArchiveError) in try archive.reference(value, key) }
  }

  /// The object a field refers to, which must be there.
  func requiredReference(_ o: ArchivedObject, _ key: String) throws(ExpressionArchiveError) -> Int {
    guard let index = try reference(o, key) else { throw failure(o, "\(key) is missing") }
    return index
  }

  /// An integer field (`encodeInteger:`); a boolean counts as 0 or 1. Nil when missing.
  func integer(_ o: ArchivedObject, _ key: String) throws(ExpressionArchiveError) -> Int64? {
    switch o[key] {
    case nil: return nil
    case .integer(let value)?: return value
    case .bool(let value)?: return value ? 1 : 0
    default: throw failure(o, "\(key) is not an integer")
    }
  }

  /// A boolean field (`encodeBool:`); an integer counts as false when 0. Nil when missing.
  func bool(_ o: ArchivedObject, _ key: String) throws(ExpressionArchiveError) -> Bool? {
    switch o[key] {
    case nil: return nil
    case .bool(let value)?: return value
    case .integer(let value)?: return value != 0
    default: throw failure(o, "\(key) is not a boolean")
    }
  }

  /// A string field (inline, or an `NSString` object); nil when missing or `$null`.
  func string(_ o: ArchivedObject, _ key: String) throws(ExpressionArchiveError) -> String? {
    try within(o) { () throws(KeyedArchiveError) in try archive.string(o[key], key) }
  }

  /// A string field that must be there.
  func requiredString(_ o: ArchivedObject, _ key: String) throws(ExpressionArchiveError) -> String {
    guard let value = try string(o, key) else { throw failure(o, "\(key) is missing") }
    return value
  }

  /// The objects of an `NSArray` / `NSSet` field, each a reference to a non-null object; nil
  /// when the field is missing or `$null`.
  func objectList(_ o: ArchivedObject, _ key: String) throws(ExpressionArchiveError) -> [Int]? {
    let list: [PropertyListValue]?
    do {
      list = try archive.array(o[key], key)
    } catch {
      throw failure(o, "\(key) is not an array (\(error.message))")
    }
    guard let items = list else { return nil }
    var result: [Int] = []
    result.reserveCapacity(items.count)
    for (i, item) in items.enumerated() {
      guard !archive.isNull(item) else { throw failure(o, "element \(i) of \(key) is nil") }
      result.append(
        try within(o) { () throws(KeyedArchiveError) in try archive.reference(item, "element \(i) of \(key)") })
    }
    return result
  }

  /// The node built from `kind` over `children`, checked against the height and size limits.
  func measured<Node>(_ node: Node, in o: ArchivedObject, heights: [Int], sizes: [Int])
    throws(ExpressionArchiveError) -> DecodedNode<Node>
  {
    let height = 1 + (heights.max() ?? 0)
    guard height <= ExpressionParser.maxDepth else {
      throw failure(o, "the tree is more than \(ExpressionParser.maxDepth) levels high, mapc's limit")
    }
    var size = 1
    for s in sizes {
      size += s
      guard size <= ExpressionArchiveReader.maximumNodes else {
        throw failure(o, "the tree has more than \(ExpressionArchiveReader.maximumNodes) nodes")
      }
    }
    return DecodedNode(node: node, height: height, size: size)
  }
}
