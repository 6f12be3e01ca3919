import MapJSON
import MapRuntime
import MapSyntax

/// Lines and columns for the JSON files mapc reads as settings (`fixture.json`, lock files):
/// their syntax checked by MapJSON's strict scanner, which knows where each byte is, and the
/// place of any value found by its path of keys and indices, so that an error about a value
/// points at it.
public struct JSONPlaces {
  /// One step of a path: an object member's key or an array's index.
  public enum Step: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case key(String)
    case index(Int)

    public init(stringLiteral value: String) { self = .key(value) }
    public init(integerLiteral value: Int) { self = .index(value) }
  }

  /// A JSON syntax error: its message and where it is.
  public struct SyntaxError: Error, Sendable {
    public var message: String
    public var location: SourceLocation
  }

  private let bytes: [UInt8]
  private let file: String
  /// The line of `file` the text starts on (a JSON Lines file's line, read on its own).
  private let firstLine: Int

  public init(_ bytes: [UInt8], file: String, firstLine: Int = 1) {
    self.bytes = bytes
    self.file = file
    self.firstLine = firstLine
  }

  /// Throws the first violation of JSON's grammar (RFC 8259), with its line and column.
  public func checkSyntax() throws(SyntaxError) {
    let failure = bytes.withUnsafeBytes { raw in Self.firstSyntaxError(raw) }
    if let failure {
      throw SyntaxError(message: failure.message, location: place(of: failure.byteOffset))
    }
  }

  /// The same, as the diagnostic `id` at the offending byte: how a settings file's reader
  /// reports text that is not JSON.
  public func checkSyntax(id: String) throws(DiagnosticsError) {
    do throws(SyntaxError) {
      try checkSyntax()
    } catch {
      throw DiagnosticsError([.error(id, error.message, at: error.location, file: file)])
    }
  }

  private static func firstSyntaxError(_ raw: UnsafeRawBufferPointer) -> JSONSyntaxError? {
    var scanner = JSONScanner(raw)
    do {
      while try scanner.next().kind != .endOfInput {}
      return nil
    } catch {
      return error
    }
  }

  /// Where the value at `path` starts (nil when the text does not hold it, or is not JSON).
  public func location(of path: [Step]) -> SourceLocation? {
    let offset = bytes.withUnsafeBytes { raw in Self.offset(of: path, in: raw) }
    return offset.map(place(of:))
  }

  private static func offset(of path: [Step], in raw: UnsafeRawBufferPointer) -> Int? {
    var scanner = JSONScanner(raw)
    do {
      for step in path {
        switch step {
        case .key(let key):
          guard try scanner.next().kind == .beginObject else { return nil }
          var found = false
          while let token = try scanner.nextKey() {
            if scanner.string(token, equals: key) {
              found = true
              break
            }
            _ = try scanner.skipValue()
          }
          if !found { return nil }
        case .index(let index):
          guard try scanner.next().kind == .beginArray else { return nil }
          for _ in 0..<index {
            // An array that ends first has no such element.
            guard try peekStartsValue(&scanner) else { return nil }
          }
        }
      }
      // The start of the value the path leads to (a key's value, or an element).
      var copy = scanner
      let token = try copy.next()
      return token.startsValue ? token.rawRange.lowerBound : nil
    } catch {
      return nil
    }
  }

  /// Skips one element of the array being read: false when the array ends instead.
  private static func peekStartsValue(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> Bool {
    var copy = scanner
    guard try copy.next().startsValue else { return false }
    _ = try scanner.skipValue()
    return true
  }

  private func place(of offset: Int) -> SourceLocation {
    bytes.withUnsafeBytes { raw in
      let position = JSONTextPosition(of: offset, in: raw)
      return SourceLocation(file: file, line: firstLine - 1 + position.line, column: position.column)
    }
  }
}
