import MapRuntime

/// A parsed XML document as a small value tree, with exact source positions.
///
/// Namespaced as `XML.…` so the names do not clash with Foundation's `XMLElement`/`XMLNode`.
/// Produced by `XMLReader`; used by the model reader and the mapping reader.
public enum XML {
  /// A whole document: its root element and the comments and processing instructions that
  /// come before and after it.
  public struct Document: Sendable, Hashable {
    /// The path given to the reader; every location in the tree names it.
    public var path: String
    public var root: Element
    /// Comments and processing instructions outside the root element, in document order
    /// (the XML declaration and the DOCTYPE are not kept).
    public var prolog: [Node]
    public var epilog: [Node]

    public init(path: String, root: Element, prolog: [Node] = [], epilog: [Node] = []) {
      self.path = path
      self.root = root
      self.prolog = prolog
      self.epilog = epilog
    }
  }

  /// One child of an element.
  public enum Node: Sendable, Hashable {
    case element(Element)
    /// Character data: adjacent text and CDATA sections are merged into one node.
    case text(Text)
    case comment(Comment)
    case processingInstruction(ProcessingInstruction)
  }

  public struct Element: Sendable, Hashable {
    /// The qualified name as written (`prefix:local` when a prefix is used).
    public var name: String
    /// In document order.
    public var attributes: [Attribute]
    public var children: [Node]
    /// Where the start tag's `<` is.
    public var location: SourceLocation

    public init(
      name: String, attributes: [Attribute] = [], children: [Node] = [], location: SourceLocation
    ) {
      self.name = name
      self.attributes = attributes
      self.children = children
      self.location = location
    }

    /// The attribute with this name, if present.
    public func attribute(_ name: String) -> Attribute? {
      attributeIndex(name).map { attributes[$0] }
    }

    /// The value of the attribute with this name, if present.
    public subscript(attribute name: String) -> String? {
      // Only the value is copied, not the whole attribute with its position map.
      attributeIndex(name).map { attributes[$0].value }
    }

    private func attributeIndex(_ name: String) -> Int? {
      // Comparing UTF-8 lengths first skips most full string comparisons.
      let length = name.utf8.count
      for i in attributes.indices where attributes[i].name.utf8.count == length && attributes[i].name == name {
        return i
      }
      return nil
    }

    /// Child elements, in document order.
    public var elements: [Element] {
      children.compactMap { if case .element(let e) = $0 { e } else { nil } }
    }

    /// Child elements with this name, in document order.
    public func elements(named name: String) -> [Element] {
      // Only the matching elements are copied.
      children.compactMap { if case .element(let e) = $0, e.name == name { e } else { nil } }
    }

    /// The first child element with this name.
    public func firstElement(named name: String) -> Element? {
      for child in children {
        if case .element(let e) = child, e.name == name { return e }
      }
      return nil
    }

    /// The element's character data (text and CDATA children, not descendants), concatenated.
    public var text: String {
      textNodes.map(\.value).joined()
    }

    /// The element's text children, in document order.
    public var textNodes: [Text] {
      children.compactMap { if case .text(let t) = $0 { t } else { nil } }
    }

    /// Comments that are direct children, in document order.
    public var comments: [Comment] {
      children.compactMap { if case .comment(let c) = $0 { c } else { nil } }
    }
  }

  public struct Attribute: Sendable, Hashable {
    public var name: String
    /// The value after entity and character references are replaced and whitespace is
    /// normalised as XML requires (a literal tab or newline becomes a space).
    public var value: String
    /// Where the attribute's name starts.
    public var location: SourceLocation
    /// Where the value's first character is (just after the opening quote).
    public var valueLocation: SourceLocation
    /// Maps each character of `value` back to the file.
    public var valuePositions: TextPositionMap

    public init(
      name: String, value: String, location: SourceLocation, valueLocation: SourceLocation,
      valuePositions: TextPositionMap
    ) {
      self.name = name
      self.value = value
      self.location = location
      self.valueLocation = valueLocation
      self.valuePositions = valuePositions
    }
  }

  /// Character data. `positions` maps every character of `value` to its place in the file,
  /// across newlines, references (`&lt;` maps to its `&`) and CDATA sections.
  public struct Text: Sendable, Hashable {
    public var value: String
    public var positions: TextPositionMap

    public init(value: String, positions: TextPositionMap) {
      self.value = value
      self.positions = positions
    }

    /// Where the first character is.
    public var location: SourceLocation { positions.location(ofScalar: 0) }

    /// True when the text is only XML whitespace (space, tab, CR, LF).
    public var isWhitespace: Bool {
      value.unicodeScalars.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    }
  }

  public struct Comment: Sendable, Hashable {
    /// The text between `<!--` and `-->`.
    public var value: String
    /// Where `<!--` is.
    public var location: SourceLocation
    /// Maps each character of `value` back to the file.
    public var positions: TextPositionMap

    public init(value: String, location: SourceLocation, positions: TextPositionMap) {
      self.value = value
      self.location = location
      self.positions = positions
    }
  }

  public struct ProcessingInstruction: Sendable, Hashable {
    public var target: String
    public var data: String
    /// Where `<?` is.
    public var location: SourceLocation

    public init(target: String, data: String, location: SourceLocation) {
      self.target = target
      self.data = data
      self.location = location
    }
  }
}
