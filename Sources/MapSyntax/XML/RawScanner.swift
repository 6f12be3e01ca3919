import MapRuntime

/// A lenient tokenizer over the raw bytes of an XML file that records *where* things are:
/// start tags, attribute names and values, text runs, CDATA, comments and processing
/// instructions, in document order.
///
/// libxml2 decides whether a document is well-formed and what it contains; its tree has line
/// numbers but no columns. `XMLReader` walks libxml2's tree and these events side by side, in
/// document order, to give every node, attribute and character an exact position.
///
/// The scanner also looks at the prolog before libxml2 runs, for what the reader refuses:
/// an encoding other than UTF-8 and any `<!ENTITY` declaration in the internal DTD subset.
/// It never fails: on malformed input it stops and sets `complete` to false.
struct RawScanner {
  struct Attribute {
    var name: String
    var nameOffset: Int
    /// Byte range of the value, between the quotes.
    var valueStart: Int
    var valueEnd: Int
  }

  enum Event {
    case startTag(offset: Int, name: String, attributes: [Attribute], selfClosing: Bool)
    case endTag(offset: Int, name: String)
    /// Character data between markup (may contain references).
    case text(start: Int, end: Int)
    /// The content between `<![CDATA[` and `]]>`.
    case cdata(offset: Int, start: Int, end: Int)
    /// The content between `<!--` and `-->`.
    case comment(offset: Int, start: Int, end: Int)
    case processingInstruction(offset: Int, target: String, dataStart: Int, dataEnd: Int)
  }

  struct Result {
    var events: [Event] = []
    /// Byte range of the XML declaration's `encoding` value, if any.
    var encodingValue: Range<Int>?
    /// Offsets of every `<!ENTITY` in the internal DTD subset.
    var entityDeclarations: [Int] = []
    /// The offset of the first start tag with more than `Limits.xmlAttributesPerElement`
    /// attributes.
    var crowdedElement: Int?
    /// False when the scanner met something it could not tokenize (libxml2 will report it).
    var complete = true
  }

  private let bytes: [UInt8]
  private var pos: Int
  private var result = Result()

  private init(bytes: [UInt8], start: Int) {
    self.bytes = bytes
    self.pos = start
    // About one event per 16 bytes in Xcode's files: one allocation instead of many.
    result.events.reserveCapacity(bytes.count / 16)
  }

  static func scan(_ bytes: [UInt8], from start: Int) -> Result {
    var scanner = RawScanner(bytes: bytes, start: start)
    scanner.run()
    return scanner.result
  }

  // MARK: - Helpers

  private func starts(with literal: StaticString, at offset: Int) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard offset + count <= bytes.count else { return false }
    return literal.withUTF8Buffer { lit in
      for k in 0..<count where bytes[offset + k] != lit[k] { return false }
      return true
    }
  }

  /// Offset of the first occurrence of `literal` at or after `from`, or nil.
  private func find(_ literal: StaticString, from: Int) -> Int? {
    var i = from
    while i < bytes.count {
      if starts(with: literal, at: i) { return i }
      i += 1
    }
    return nil
  }

  private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

  private mutating func skipSpace() {
    while pos < bytes.count, Self.isSpace(bytes[pos]) { pos += 1 }
  }

  /// Reads a name: everything up to whitespace or one of `/>=?` (lenient on purpose).
  private mutating func readName() -> String {
    let start = pos
    while pos < bytes.count {
      let b = bytes[pos]
      if Self.isSpace(b) || b == UInt8(ascii: "/") || b == UInt8(ascii: ">")
        || b == UInt8(ascii: "=") || b == UInt8(ascii: "?")
      {
        break
      }
      pos += 1
    }
    return String(decoding: bytes[start..<pos], as: UTF8.self)
  }

  // MARK: - Document

  private mutating func run() {
    while pos < bytes.count {
      if bytes[pos] == UInt8(ascii: "<") {
        let ok: Bool
        if starts(with: "<?", at: pos) {
          ok = processingInstruction()
        } else if starts(with: "<!--", at: pos) {
          ok = comment()
        } else if starts(with: "<![CDATA[", at: pos) {
          ok = cdata()
        } else if starts(with: "<!DOCTYPE", at: pos) {
          ok = doctype()
        } else if starts(with: "</", at: pos) {
          ok = endTag()
        } else {
          ok = startTag()
        }
        if !ok {
          result.complete = false
          return
        }
      } else {
        let start = pos
        while pos < bytes.count, bytes[pos] != UInt8(ascii: "<") { pos += 1 }
        result.events.append(.text(start: start, end: pos))
      }
    }
  }

  private mutating func processingInstruction() -> Bool {
    let offset = pos
    pos += 2
    let target = readName()
    guard let end = find("?>", from: pos) else { return false }
    if target == "xml" {
      xmlDeclaration(until: end)
    } else {
      var dataStart = pos
      while dataStart < end, Self.isSpace(bytes[dataStart]) { dataStart += 1 }
      result.events.append(
        .processingInstruction(offset: offset, target: target, dataStart: dataStart, dataEnd: end))
    }
    pos = end + 2
    return true
  }

  /// Reads the pseudo-attributes of `<?xml …?>`, keeping where `encoding`'s value is.
  private mutating func xmlDeclaration(until end: Int) {
    while pos < end {
      skipSpace()
      guard pos < end else { return }
      let name = readName()
      skipSpace()
      guard pos < end, bytes[pos] == UInt8(ascii: "=") else { return }
      pos += 1
      skipSpace()
      guard pos < end, bytes[pos] == UInt8(ascii: "\"") || bytes[pos] == UInt8(ascii: "'") else {
        return
      }
      let quote = bytes[pos]
      let valueStart = pos + 1
      var valueEnd = valueStart
      while valueEnd < end, bytes[valueEnd] != quote { valueEnd += 1 }
      if name == "encoding" { result.encodingValue = valueStart..<valueEnd }
      pos = valueEnd + 1
    }
  }

  private mutating func comment() -> Bool {
    let offset = pos
    guard let end = find("-->", from: pos + 4) else { return false }
    result.events.append(.comment(offset: offset, start: offset + 4, end: end))
    pos = end + 3
    return true
  }

  private mutating func cdata() -> Bool {
    let offset = pos
    let start = pos + 9
    guard let end = find("]]>", from: start) else { return false }
    result.events.append(.cdata(offset: offset, start: start, end: end))
    pos = end + 3
    return true
  }

  /// Skips a quoted literal starting at `pos`; false when it is not closed.
  private mutating func skipQuoted() -> Bool {
    let quote = bytes[pos]
    pos += 1
    while pos < bytes.count, bytes[pos] != quote { pos += 1 }
    guard pos < bytes.count else { return false }
    pos += 1
    return true
  }

  /// `<!DOCTYPE name ExternalID? [internal subset]? >`, noting every `<!ENTITY`.
  private mutating func doctype() -> Bool {
    pos += 9
    while pos < bytes.count {
      let b = bytes[pos]
      if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
        guard skipQuoted() else { return false }
      } else if b == UInt8(ascii: "[") {
        pos += 1
        guard internalSubset() else { return false }
      } else if b == UInt8(ascii: ">") {
        pos += 1
        return true
      } else {
        pos += 1
      }
    }
    return false
  }

  /// The internal subset up to and including its `]`.
  private mutating func internalSubset() -> Bool {
    while pos < bytes.count {
      if bytes[pos] == UInt8(ascii: "]") {
        pos += 1
        return true
      } else if starts(with: "<!--", at: pos) {
        guard let end = find("-->", from: pos + 4) else { return false }
        pos = end + 3
      } else if starts(with: "<?", at: pos) {
        guard let end = find("?>", from: pos + 2) else { return false }
        pos = end + 2
      } else if starts(with: "<!", at: pos) {
        if starts(with: "<!ENTITY", at: pos) { result.entityDeclarations.append(pos) }
        pos += 2
        // A markup declaration: up to `>`, skipping quoted literals.
        while pos < bytes.count, bytes[pos] != UInt8(ascii: ">") {
          if bytes[pos] == UInt8(ascii: "\"") || bytes[pos] == UInt8(ascii: "'") {
            guard skipQuoted() else { return false }
          } else {
            pos += 1
          }
        }
        guard pos < bytes.count else { return false }
        pos += 1
      } else {
        pos += 1
      }
    }
    return false
  }

  private mutating func endTag() -> Bool {
    let offset = pos
    pos += 2
    let name = readName()
    while pos < bytes.count, bytes[pos] != UInt8(ascii: ">") { pos += 1 }
    guard pos < bytes.count else { return false }
    pos += 1
    result.events.append(.endTag(offset: offset, name: name))
    return true
  }

  private mutating func startTag() -> Bool {
    let offset = pos
    pos += 1
    let name = readName()
    guard !name.isEmpty else { return false }
    var attributes: [Attribute] = []
    attributes.reserveCapacity(4)
    while true {
      skipSpace()
      guard pos < bytes.count else { return false }
      if attributes.count > Limits.xmlAttributesPerElement, result.crowdedElement == nil {
        result.crowdedElement = offset
      }
      if bytes[pos] == UInt8(ascii: ">") {
        pos += 1
        result.events.append(
          .startTag(offset: offset, name: name, attributes: attributes, selfClosing: false))
        return true
      }
      if starts(with: "/>", at: pos) {
        pos += 2
        result.events.append(
          .startTag(offset: offset, name: name, attributes: attributes, selfClosing: true))
        return true
      }
      let nameOffset = pos
      let attributeName = readName()
      guard !attributeName.isEmpty else { return false }
      skipSpace()
      guard pos < bytes.count, bytes[pos] == UInt8(ascii: "=") else { return false }
      pos += 1
      skipSpace()
      guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") || bytes[pos] == UInt8(ascii: "'")
      else { return false }
      let quote = bytes[pos]
      let valueStart = pos + 1
      pos = valueStart
      while pos < bytes.count, bytes[pos] != quote { pos += 1 }
      guard pos < bytes.count else { return false }
      attributes.append(
        Attribute(
          name: attributeName, nameOffset: nameOffset, valueStart: valueStart, valueEnd: pos))
      pos += 1
    }
  }
}
