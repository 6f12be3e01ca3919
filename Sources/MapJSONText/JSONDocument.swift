import MapRuntime

/// A JSON text read into values, each with where it starts, for the JSON files mapc reads
/// (`fixture.json`, lock files, manifests, baselines, reports): read by the store's strict
/// scanner (RFC 8259, at most `JSONScanner.defaultMaxDepth` levels), so that text that is not
/// JSON, and any value found wrong later, is reported at its line and column.
package struct JSONDocument: Sendable {
  /// One step of a path: an object member's key or an array's index.
  package enum Step: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case key(String)
    case index(Int)

    package init(stringLiteral value: String) { self = .key(value) }
    package init(integerLiteral value: Int) { self = .index(value) }
  }

  /// A JSON syntax error: its id (`json-…`), its message and where it is.
  package struct SyntaxError: Error, Sendable {
    package var id: String
    package var message: String
    package var location: SourceLocation

    /// A settings file that is not JSON: the diagnostic `id` at the offending byte, with the
    /// scanner's message (how a reader of `fixture.json`, a lock or a manifest reports it).
    package func diagnostics(id: String) -> DiagnosticsError {
      DiagnosticsError([.error(id, message, at: location, file: location.file)])
    }
  }

  /// The top-level value.
  package let root: JSONNode
  private let bytes: [UInt8]
  private let file: String
  /// The line of `file` the text starts on (a JSON Lines file's line, read on its own).
  private let firstLine: Int

  /// Reads `bytes` (one JSON value, whitespace around it; containers at most `maxDepth` deep);
  /// the first violation of JSON's grammar throws, with its line and column.
  package init(
    _ bytes: [UInt8], file: String, firstLine: Int = 1, maxDepth: Int = JSONScanner.defaultMaxDepth
  ) throws(SyntaxError) {
    self.bytes = bytes
    self.file = file
    self.firstLine = firstLine
    let result: Result<JSONNode, JSONSyntaxError> = bytes.withUnsafeBytes { raw in
      var scanner = JSONScanner(raw, maxDepth: maxDepth)
      do throws(JSONSyntaxError) {
        let node = try Self.node(try scanner.next(), &scanner)
        _ = try scanner.expect(.endOfInput)
        return .success(node)
      } catch {
        return .failure(error)
      }
    }
    switch result {
    case .success(let node): root = node
    case .failure(let error):
      let position = bytes.withUnsafeBytes { JSONTextPosition(of: error.byteOffset, in: $0) }
      throw SyntaxError(
        id: error.code.rawValue, message: error.message,
        location: SourceLocation(file: file, line: firstLine - 1 + position.line, column: position.column))
    }
  }

  /// The value `first` begins (the scanner stands after it); containers recurse, as deep as
  /// the scanner lets them.
  private static func node(_ first: JSONToken, _ scanner: inout JSONScanner) throws(JSONSyntaxError) -> JSONNode {
    let offset = first.rawRange.lowerBound
    switch first.kind {
    case .null: return JSONNode(.null, at: offset)
    case .true: return JSONNode(.bool(true), at: offset)
    case .false: return JSONNode(.bool(false), at: offset)
    case .string: return JSONNode(.string(scanner.decodeString(first)), at: offset)
    case .number:
      if let i = scanner.int64(first), let int = Int(exactly: i) { return JSONNode(.int(int), at: offset) }
      // Too large for a Double (`1e400`): infinite, as a number reader rounds it.
      let d = scanner.double(first) ?? (scanner.rawBytes(first).first == ASCII.minus ? -.infinity : .infinity)
      return JSONNode(.double(d), at: offset)
    case .beginArray:
      var items: [JSONNode] = []
      while true {
        let token = try scanner.next()
        if token.kind == .endArray { break }
        items.append(try node(token, &scanner))
      }
      return JSONNode(.array(items), at: offset)
    case .beginObject:
      var members: [(key: String, value: JSONNode)] = []
      while let key = try scanner.nextKey() {
        members.append((scanner.decodeString(key), try node(try scanner.next(), &scanner)))
      }
      return JSONNode(.object(members), at: offset)
    case .endObject, .endArray, .key, .endOfInput:
      // The scanner returns a value's first token here; it never gets here.
      throw JSONSyntaxError(.unexpectedCharacter, "expected a value", at: first.start)
    }
  }

  /// Where `node` (a value of this document) starts.
  package func location(of node: JSONNode) -> SourceLocation { place(of: node.offset) }

  /// Where the value at `path` starts (nil when the document does not hold it).
  package func location(of path: [Step]) -> SourceLocation? {
    var node = root
    for step in path {
      switch step {
      case .key(let key):
        guard let member = node[key] else { return nil }
        node = member
      case .index(let index):
        guard let items = node.array, items.indices.contains(index) else { return nil }
        node = items[index]
      }
    }
    return place(of: node.offset)
  }

  private func place(of offset: Int) -> SourceLocation {
    bytes.withUnsafeBytes { raw in
      let position = JSONTextPosition(of: offset, in: raw)
      return SourceLocation(file: file, line: firstLine - 1 + position.line, column: position.column)
    }
  }
}

/// A value of a `JSONDocument` and the byte offset it starts at. Numbers are `int` when written
/// without fraction or exponent and within `Int`, else `double`; an object keeps its members in
/// order, duplicates included (a lookup by key finds the last, as JSON readers do).
package struct JSONNode: Sendable {
  package enum Content: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONNode])
    case object([(key: String, value: JSONNode)])
  }

  package let content: Content
  /// The offset of the value's first byte in the document's text.
  package let offset: Int

  package init(_ content: Content, at offset: Int) {
    self.content = content
    self.offset = offset
  }

  /// The member `key` of an object (the last, when given twice); nil for other values.
  package subscript(key: String) -> JSONNode? {
    guard case .object(let members) = content else { return nil }
    return members.last { $0.key == key }?.value
  }

  /// The keys of an object, in order (duplicates once); nil for other values.
  package var keys: [String]? {
    guard case .object(let members) = content else { return nil }
    var seen = Set<String>()
    return members.map(\.key).filter { seen.insert($0).inserted }
  }

  package var isObject: Bool { keys != nil }
  package var isNull: Bool {
    if case .null = content { true } else { false }
  }

  package var string: String? {
    if case .string(let s) = content { s } else { nil }
  }

  package var bool: Bool? {
    if case .bool(let b) = content { b } else { nil }
  }

  package var array: [JSONNode]? {
    if case .array(let items) = content { items } else { nil }
  }

  /// An array of strings only; nil for anything else.
  package var strings: [String]? {
    guard let items = array else { return nil }
    var result: [String] = []
    for item in items {
      guard let s = item.string else { return nil }
      result.append(s)
    }
    return result
  }

  /// A number as a `Double` (an integer converted); nil for other values.
  package var number: Double? {
    switch content {
    case .int(let i): Double(i)
    case .double(let d): d
    default: nil
    }
  }

  /// The value without positions, for writing.
  package var value: JSONValue {
    switch content {
    case .null: .null
    case .bool(let b): .bool(b)
    case .int(let i): .int(i)
    case .double(let d): .double(d)
    case .string(let s): .string(s)
    case .array(let items): .array(items.map(\.value))
    case .object(let members): .object(members.map { ($0.key, $0.value.value) })
    }
  }
}
