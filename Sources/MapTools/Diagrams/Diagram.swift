import MapRuntime

/// A picture of a model or a mapping (`mapc diff --format mermaid|svg|html`, `mapc dump
/// --format …`; Specs/model-diff.md §3): boxes with rows, and lines between them. Renderers turn
/// it into Mermaid, Graphviz DOT (laid out by `dot` into SVG) and HTML.
public struct Diagram: Sendable {
  public enum Mark: String, Sendable {
    case none, added, removed, renamed, changed
  }

  public enum Kind: Sendable {
    /// An entity-relationship diagram of one model.
    case entityRelationship
    /// A mapping: source entities on the left, destination entities on the right.
    case mapping
  }

  /// How many objects sit at one end of a relationship.
  public enum Cardinality: Sendable {
    case zeroOrOne, exactlyOne, zeroOrMore, oneOrMore
  }

  public struct Row: Sendable {
    public var name: String
    /// The type or, in a mapping, the value expression.
    public var detail: String
    public var mark: Mark
    public var note: String?
  }

  public struct Node: Sendable {
    /// Unique, made of letters, digits and `_` (a Mermaid and DOT identifier).
    public var id: String
    public var title: String
    public var mark: Mark
    public var note: String?
    public var rows: [Row]
    /// Mappings: 0 source side, 1 the entity mappings, 2 destination side.
    public var column: Int
  }

  public struct Edge: Sendable {
    public var from: String
    public var to: String
    public var label: String
    public var mark: Mark
    /// Relationships: how many `from` objects one `to` object has (its inverse), and the other way.
    public var fromCardinality: Cardinality
    public var toCardinality: Cardinality
  }

  public var kind: Kind
  public var title: String
  public var nodes: [Node]
  public var edges: [Edge]

  /// A node's id: the name itself when it is made of ASCII letters, digits and `_` and does not
  /// start with a digit; otherwise the name with every other character as `_`, then `_` and
  /// eight hex digits of a hash of the name (FNV-1a; `Café` is `Caf__…`, never `Caf_`, which is
  /// a name of its own; `E_` first when it would start with a digit). So an id depends on its name alone: adding or removing other entities does not
  /// change it. Two names whose ids would still be equal (a hash collision) get `_2`, `_3`.
  static func identifier(_ name: String, prefix: String = "", taken: inout Set<String>) -> String {
    func isWord(_ s: Unicode.Scalar) -> Bool {
      (s.properties.isAlphabetic && s.isASCII) || ("0"..."9").contains(s) || s == "_"
    }
    let plain =
      !name.isEmpty && name.unicodeScalars.allSatisfy(isWord) && !("0"..."9").contains(name.unicodeScalars.first!)
    var base = prefix
    if plain {
      base += name
    } else {
      var hash: UInt32 = 0x811C_9DC5
      for byte in name.utf8 {
        hash ^= UInt32(byte)
        hash = hash &* 0x0100_0193
      }
      let hex = String(hash, radix: 16)
      let sanitized = String(name.unicodeScalars.map { isWord($0) ? Character($0) : "_" })
      base +=
        (prefix.isEmpty && ("0"..."9").contains(name.unicodeScalars.first ?? "a") ? "E_" : "") + sanitized + "_"
        + String(repeating: "0", count: 8 - hex.count) + hex
    }
    var id = base
    var n = 2
    while taken.contains(id) {
      id = "\(base)_\(n)"
      n += 1
    }
    taken.insert(id)
    return id
  }
}
