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

  /// `Entity`, or `Entity_2` when another node has that name: letters, digits, `_` only.
  static func identifier(_ name: String, prefix: String = "", taken: inout Set<String>) -> String {
    var base =
      prefix
      + String(
        name.unicodeScalars.map { s in
          (s.properties.isAlphabetic && s.isASCII) || ("0"..."9").contains(s) || s == "_" ? Character(s) : "_"
        })
    if base.isEmpty || base.first!.isNumber { base = "E_" + base }
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
