internal import CLibXML2
import Foundation
import MapRuntime

/// Walks libxml2's tree in document order, consuming the raw scanner's events in step.
struct TreeBuilder {
  let source: SourceText
  let events: [RawScanner.Event]
  let scanComplete: Bool
  var cursor = 0
  let decoder: RawDecoder
  /// The line of the last position looked up: positions are looked up in file order.
  var lineHint = 0

  init(source: SourceText, events: [RawScanner.Event], scanComplete: Bool) {
    self.source = source
    self.events = events
    self.scanComplete = scanComplete
    self.decoder = RawDecoder(source: source)
  }

  mutating func document(_ doc: xmlDocPtr) throws(DiagnosticsError) -> XML.Document {
    var root: XML.Element?
    var prolog: [XML.Node] = []
    var epilog: [XML.Node] = []
    var child = doc.pointee.children
    while let node = child {
      child = node.pointee.next
      switch node.pointee.type {
      case XML_ELEMENT_NODE:
        skipTextEvents()
        root = try element(node)
      case XML_COMMENT_NODE, XML_PI_NODE:
        skipTextEvents()
        let item = try self.node(node)
        if root == nil { prolog.append(item) } else { epilog.append(item) }
      default:
        continue  // DTD node, and nothing else at this level
      }
    }
    guard let root else {
      throw DiagnosticsError([
        .error("xml-syntax", "the document has no root element", at: source.endLocation)
      ])
    }
    return XML.Document(path: source.path, root: root, prolog: prolog, epilog: epilog)
  }

  private mutating func skipTextEvents() {
    while cursor < events.count, case .text = events[cursor] { cursor += 1 }
  }

  private mutating func nextEvent() -> RawScanner.Event? {
    guard cursor < events.count else { return nil }
    defer { cursor += 1 }
    return events[cursor]
  }

  private func internalError(_ what: String, near node: xmlNodePtr) -> DiagnosticsError {
    let line = Int(xmlGetLineNo(node))
    return DiagnosticsError([
      .error(
        "xml-internal",
        "internal error: could not locate \(what) in the file"
          + (scanComplete ? "" : " (the file could not be tokenized)"),
        at: SourceLocation(file: source.path, line: max(line, 1), column: 1))
    ])
  }

  private mutating func location(_ offset: Int) -> SourceLocation {
    let (line, column) = lineColumn(offset)
    return SourceLocation(file: source.path, line: line, column: column)
  }

  private mutating func lineColumn(_ offset: Int) -> (line: Int, column: Int) {
    var hint = lineHint
    let result = source.lineColumn(ofByte: offset, lineHint: &hint)
    lineHint = hint
    return result
  }

  private mutating func decode(_ start: Int, _ end: Int, _ mode: RawDecoder.Mode) throws(DiagnosticsError)
    -> TextPositionMap
  {
    do {
      let (line, column) = lineColumn(start)
      return try decoder.decode(from: start, to: end, mode: mode, line: line, column: column)
    } catch {
      switch error {
      case .undefinedEntity(let name, let offset):
        throw DiagnosticsError([
          .error(
            "xml-undefined-entity",
            "entity '\(name)' is not defined (only &lt; &gt; &amp; "
              + "&apos; &quot; and character references are allowed)",
            at: location(offset))
        ])
      }
    }
  }

  /// Keeps the decoded map when it agrees with libxml2's value; otherwise trusts libxml2's
  /// value and maps every character to where the run starts.
  private func reconcile(_ map: TextPositionMap, with value: String, start: Int) -> TextPositionMap {
    if map.text == value { return map }
    let (line, column) = source.lineColumn(ofByte: start)
    var fallback = TextPositionMap(file: source.path, line: line, column: column)
    for scalar in value.unicodeScalars {
      fallback.append(scalar, line: line, column: column, literal: false)
    }
    fallback.setEnd(line: map.endLine, column: map.endColumn)
    return fallback
  }

  private static func string(_ chars: UnsafePointer<xmlChar>?) -> String {
    chars.map { String(cString: $0) } ?? ""
  }

  private static func qualifiedName(_ node: xmlNodePtr) -> String {
    let local = string(node.pointee.name)
    if let ns = node.pointee.ns, let prefix = ns.pointee.prefix {
      return string(prefix) + ":" + local
    }
    return local
  }

  /// Whether `chars` (NUL-terminated; nil for none) are the bytes of `utf8` from `offset` on;
  /// if so, moves `offset` past them.
  private static func match(
    _ chars: UnsafePointer<xmlChar>?, in utf8: UnsafeBufferPointer<UInt8>, at offset: inout Int
  ) -> Bool {
    guard let chars else { return true }
    let count = Int(xmlStrlen(chars))
    guard count <= utf8.count - offset else { return false }
    if count > 0, memcmp(utf8.baseAddress! + offset, chars, count) != 0 { return false }
    offset += count
    return true
  }

  /// Whether the NUL-terminated `chars` are exactly the UTF-8 of `text`.
  private static func spell(_ text: String, _ chars: UnsafePointer<xmlChar>?) -> Bool {
    var text = text
    return text.withUTF8 { utf8 in
      var offset = 0
      return match(chars, in: utf8, at: &offset) && offset == utf8.count
    }
  }

  /// Whether the values of the node list `parts` (an attribute's children), one after the
  /// other, are exactly the UTF-8 of `text`.
  private static func spell(_ text: String, parts: xmlNodePtr?) -> Bool {
    var text = text
    return text.withUTF8 { utf8 in
      var offset = 0
      var part = parts
      while let p = part {
        guard match(p.pointee.content, in: utf8, at: &offset) else { return false }
        part = p.pointee.next
      }
      return offset == utf8.count
    }
  }

  private static func isASCII(_ chars: UnsafePointer<xmlChar>?) -> Bool {
    guard var c = chars else { return true }
    while c.pointee != 0 {
      if c.pointee >= 0x80 { return false }
      c += 1
    }
    return true
  }

  /// The name of a libxml2 attribute as written (`prefix:local` when a prefix is used).
  private static func attributeName(_ a: xmlAttrPtr) -> String {
    let name = string(a.pointee.name)
    if let ns = a.pointee.ns, let prefix = ns.pointee.prefix { return string(prefix) + ":" + name }
    return name
  }

  /// Whether the libxml2 attribute is the one named `name` (equal as a `String`): its bytes
  /// spell `name`, or, when either name is not ASCII, the two names are equal as strings.
  private static func attribute(_ a: xmlAttrPtr, isNamed name: String, nameIsASCII: Bool) -> Bool {
    let prefix = a.pointee.ns?.pointee.prefix
    var name = name
    let spelled = name.withUTF8 { utf8 in
      var offset = 0
      if prefix != nil {
        guard match(prefix, in: utf8, at: &offset), offset < utf8.count,
          utf8[offset] == UInt8(ascii: ":")
        else { return false }
        offset += 1
      }
      return match(a.pointee.name, in: utf8, at: &offset) && offset == utf8.count
    }
    if spelled { return true }
    if nameIsASCII, isASCII(a.pointee.name), isASCII(prefix) { return false }
    return attributeName(a) == name
  }

  /// Replaces `map` as `reconcile` does when libxml2's value of the attribute named `name`
  /// (namespace declarations are not in libxml2's list) differs from its text.
  /// libxml2's list is in the text's order, so the search starts at `cursor` (after the
  /// previous attribute found) and only wraps around to the start when the name is not after it:
  /// an element's attributes are matched in linear time, not quadratic.
  private func reconcile(
    _ map: inout TextPositionMap, withAttributeOf node: xmlNodePtr, named name: String, start: Int,
    cursor: inout xmlAttrPtr?
  ) {
    let nameIsASCII = name.utf8.allSatisfy { $0 < 0x80 }
    var attr = cursor ?? node.pointee.properties
    var wrapped = cursor == nil
    while true {
      guard let a = attr else {
        if wrapped { return }
        wrapped = true
        attr = node.pointee.properties
        continue
      }
      attr = a.pointee.next
      guard Self.attribute(a, isNamed: name, nameIsASCII: nameIsASCII) else { continue }
      cursor = a.pointee.next
      // The usual case: libxml2's value is, byte for byte, the decoded text.
      if Self.spell(map.text, parts: a.pointee.children) { return }
      var value = ""
      var part = a.pointee.children
      while let p = part {
        value += Self.string(p.pointee.content)
        part = p.pointee.next
      }
      map = reconcile(map, with: value, start: start)
      return
    }
  }

  /// `reconcile` with libxml2's content of a text, CDATA or comment node.
  private func reconcile(_ map: TextPositionMap, withContentOf node: xmlNodePtr, start: Int) -> TextPositionMap {
    if Self.spell(map.text, node.pointee.content) { return map }
    return reconcile(map, with: Self.string(node.pointee.content), start: start)
  }

  private mutating func element(_ node: xmlNodePtr) throws(DiagnosticsError) -> XML.Element {
    let name = Self.qualifiedName(node)
    guard case .startTag(let offset, let rawName, let rawAttributes, let selfClosing)? = nextEvent(),
      rawName == name
    else { throw internalError("<\(name)>", near: node) }
    let elementLocation = location(offset)

    var attributes: [XML.Attribute] = []
    attributes.reserveCapacity(rawAttributes.count)
    var cursor: xmlAttrPtr? = nil
    for raw in rawAttributes {
      let nameLocation = location(raw.nameOffset)
      var map = try decode(raw.valueStart, raw.valueEnd, .attributeValue)
      reconcile(&map, withAttributeOf: node, named: raw.name, start: raw.valueStart, cursor: &cursor)
      attributes.append(
        XML.Attribute(
          name: raw.name, value: map.text, location: nameLocation,
          valueLocation: map.location(ofScalar: 0), valuePositions: map))
    }

    var children: [XML.Node] = []
    var count = 0
    var child = node.pointee.children
    while let c = child {
      count += 1
      child = c.pointee.next
    }
    children.reserveCapacity(count)
    child = node.pointee.children
    while let c = child {
      child = c.pointee.next
      let item = try self.node(c)
      // Adjacent text and CDATA become one text node.
      if case .text(let next) = item, let last = children.indices.last, case .text(var previous) = children[last] {
        previous.positions.append(contentsOf: next.positions)
        previous.value = previous.positions.text
        children[last] = .text(previous)
      } else {
        children.append(item)
      }
    }
    if !selfClosing {
      guard case .endTag? = nextEvent() else { throw internalError("</\(name)>", near: node) }
    }
    return XML.Element(
      name: name, attributes: attributes, children: children, location: elementLocation)
  }

  private mutating func node(_ node: xmlNodePtr) throws(DiagnosticsError) -> XML.Node {
    switch node.pointee.type {
    case XML_ELEMENT_NODE:
      return .element(try element(node))
    case XML_TEXT_NODE:
      guard case .text(let start, let end)? = nextEvent() else {
        throw internalError("text", near: node)
      }
      let decoded = try decode(start, end, .text)
      let map = reconcile(decoded, withContentOf: node, start: start)
      return .text(XML.Text(value: map.text, positions: map))
    case XML_CDATA_SECTION_NODE:
      guard case .cdata(_, let start, let end)? = nextEvent() else {
        throw internalError("CDATA section", near: node)
      }
      let decoded = try decode(start, end, .literal)
      let map = reconcile(decoded, withContentOf: node, start: start)
      return .text(XML.Text(value: map.text, positions: map))
    case XML_COMMENT_NODE:
      guard case .comment(let offset, let start, let end)? = nextEvent() else {
        throw internalError("comment", near: node)
      }
      let commentLocation = location(offset)
      let decoded = try decode(start, end, .literal)
      let map = reconcile(decoded, withContentOf: node, start: start)
      return .comment(XML.Comment(value: map.text, location: commentLocation, positions: map))
    case XML_PI_NODE:
      guard case .processingInstruction(let offset, _, _, _)? = nextEvent() else {
        throw internalError("processing instruction", near: node)
      }
      return .processingInstruction(
        XML.ProcessingInstruction(
          target: Self.string(node.pointee.name), data: Self.string(node.pointee.content),
          location: location(offset)))
    case XML_ENTITY_REF_NODE:
      // Only produced for an undeclared entity; decoding the raw text reports it precisely.
      if case .text(let start, let end)? = nextEvent() {
        _ = try decode(start, end, .text)
      }
      throw DiagnosticsError([
        .error(
          "xml-undefined-entity",
          "entity '\(Self.string(node.pointee.name))' is not defined",
          at: SourceLocation(file: source.path, line: Int(xmlGetLineNo(node)), column: 1))
      ])
    default:
      throw internalError("a node of type \(node.pointee.type.rawValue)", near: node)
    }
  }
}
