import MapArchives
import MapJSONText
import MapRuntime

/// Arrays inside composite attributes (a `[String]` property of a SwiftData `Codable` struct):
/// SwiftData keeps each in its Binary element column as the bytes of Foundation's JSON encoder (compact,
/// `/` written `\/`, other characters as they are; read from the real store of
/// Specs/swiftdata-schema.md §7). mapc shows such bytes as the JSON array they hold, and writes
/// an array given for a Binary element back as those bytes (Specs/sqlite-store.md §5.2).
///
/// Only arrays of strings, numbers, booleans and nulls (and arrays of those) whose bytes mapc
/// writes back identically are shown as arrays: anything else stays base64, so that no byte
/// changes either way. Arrays of objects (a `[Struct]` property) stay base64 too: SwiftData's
/// encoder writes an object's keys in no fixed order, which mapc's values (keys sorted) cannot
/// give back.
enum CompositeArrayText {
  static let maximumDepth = 64

  /// The array `bytes` hold, when they are a JSON array that `encode` writes back identically.
  static func decode(_ bytes: [UInt8]) -> ArchivedValue? {
    guard bytes.first == 0x5B, bytes.last == 0x5D,
      let document = try? JSONDocument(bytes, file: "", maxDepth: maximumDepth)
    else { return nil }
    let value = archived(document.root)
    guard !holdsObject(value), encode(value) == bytes else { return nil }
    return value
  }

  private static func archived(_ node: JSONNode) -> ArchivedValue {
    switch node.content {
    case .null: .null
    case .bool(let b): .bool(b)
    case .int(let i): .integer(Int64(i))
    case .double(let d): .real(d)
    case .string(let s): .string(s)
    case .array(let items): .array(items.map(archived))
    case .object(let members): .dictionary(members.map { .init($0.key, archived($0.value)) })
    }
  }

  private static func holdsObject(_ v: ArchivedValue) -> Bool {
    switch v {
    case .dictionary: true
    case .array(let items): items.contains(where: holdsObject)
    default: false
    }
  }

  /// The compact JSON text of a value as Foundation's JSON encoder writes it (an object's keys sorted, as
  /// mapc's values hold them).
  static func encode(_ v: ArchivedValue) -> [UInt8] { json(v).foundationCompact() }

  private static func json(_ v: ArchivedValue) -> JSONValue {
    switch v {
    case .string(let s): .string(s)
    case .integer(let i): .int(Int(i))
    case .real(let d): .double(d)
    case .bool(let b): .bool(b)
    case .null, .date, .data: .null
    case .array(let items): .array(items.map(json))
    case .dictionary(let entries): .object(entries.sorted(by: { $0.key < $1.key }).map { ($0.key, json($0.value)) })
    }
  }

  /// A value a mapping or a JSON store gives for a Binary element, as the bytes to keep: an
  /// array (or object) as its JSON text; nil for anything else.
  static func bytes(_ v: Value, input: InputBytes?) -> [UInt8]? {
    switch v {
    case .array, .dictionary: archived(v, input: input, depth: 0).map(encode)
    default: nil
    }
  }

  private static func archived(_ v: Value, input: InputBytes?, depth: Int) -> ArchivedValue? {
    guard depth < maximumDepth else { return nil }
    switch v {
    case .null: return .null
    case .bool(let b): return .bool(b)
    case .int(let i): return .integer(i)
    case .double(let d) where d.isFinite: return .real(d)
    case .string(let t): return .string(ObjectGraph.string(t, input: input))
    case .decimal(let text): return .string(text)
    case .array(let items):
      var out: [ArchivedValue] = []
      for x in items {
        guard let a = archived(x, input: input, depth: depth + 1) else { return nil }
        out.append(a)
      }
      return .array(out)
    case .dictionary(let pairs):
      var out: [ArchivedValue.Entry] = []
      for (k, x) in pairs {
        guard let a = archived(x, input: input, depth: depth + 1) else { return nil }
        out.append(.init(k, a))
      }
      return .dictionary(out)
    default: return nil
    }
  }
}
