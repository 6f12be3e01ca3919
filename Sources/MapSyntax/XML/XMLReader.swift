internal import CLibXML2
import Foundation
import MapRuntime

/// Reads an XML file into an `XML.Document` with libxml2, safely, reporting every problem as a
/// `Diagnostic` with the file, line and column.
///
/// Security policy (see `Specs/model-input.md` §5):
/// - no network access (`XML_PARSE_NONET`); no external DTD, external entity or XInclude is
///   ever loaded (the options that would load them are never set, and the process-wide
///   external entity loader refuses everything);
/// - any `<!ENTITY` declaration is refused before libxml2 runs (`xml-entity-declaration`), so
///   entity expansion (the "billion laughs" bomb) and external entities cannot happen; only
///   the five predefined entities and character references are accepted;
/// - no `XML_PARSE_HUGE`: libxml2's default size limits stay on;
/// - only UTF-8 (or its ASCII subset) is accepted (`xml-unsupported-encoding`,
///   `xml-invalid-utf8`);
/// - libxml2 never prints: its errors are captured through the parser context's structured
///   error callback (per parse, so parsing on many threads at once is safe).
public enum XMLReader {
  /// Reads and parses the file at `path`. Locations in the result name `path` as given.
  public static func parse(contentsOf path: String) throws(DiagnosticsError) -> XML.Document {
    try parse(bytes: try readFile(path), path: path)
  }

  /// Parses `bytes`; `path` is only used to name the file in locations.
  public static func parse(bytes: [UInt8], path: String) throws(DiagnosticsError) -> XML.Document {
    let source = SourceText(path: path, bytes: bytes)
    let scan = RawScanner.scan(bytes, from: source.contentStart)
    try precheck(source, scan)
    if !scan.entityDeclarations.isEmpty {
      throw DiagnosticsError(
        scan.entityDeclarations.map {
          .error(
            "xml-entity-declaration",
            "entity declarations are not allowed (mapc refuses DTD entities so that nothing is "
              + "expanded or loaded from outside the file)",
            at: source.location(ofByte: $0))
        })
    }
    if let crowded = scan.crowdedElement {
      throw DiagnosticsError([
        .error(
          "xml-too-many-attributes",
          "an element has more than \(Limits.xmlAttributesPerElement) attributes, the most mapc reads "
            + "per element",
          at: source.location(ofByte: crowded))
      ])
    }
    return try LibXML2Parse.run(source: source, scan: scan)
  }

  /// The bytes of a file, or a `file-unreadable` diagnostic.
  public static func readFile(_ path: String) throws(DiagnosticsError) -> [UInt8] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw DiagnosticsError([.error("file-not-found", "no such file", at: nil, file: path)])
    }
    guard !isDirectory.boolValue else {
      throw DiagnosticsError([.error("file-unreadable", "is a directory, not a file", at: nil, file: path)])
    }
    do {
      let input = try InputBytes(contentsOf: path, regularFileOnly: true, maxBytes: Limits.xmlFileBytes)
      return input.withUnsafeBytes { [UInt8]($0) }
    } catch {
      let code = error.code == .tooLarge || error.code == .notRegularFile ? error.code.rawValue : "file-unreadable"
      throw DiagnosticsError([.error(code, "cannot read the file: \(error.reason)", at: nil, file: path)])
    }
  }

  /// Empty input, encodings other than UTF-8, and bytes that are not UTF-8.
  private static func precheck(
    _ source: SourceText, _ prolog: RawScanner.Result
  ) throws(DiagnosticsError) {
    let bytes = source.bytes
    if bytes.count == source.contentStart {
      throw DiagnosticsError([
        .error("xml-empty", "the file is empty", at: source.location(ofByte: 0))
      ])
    }
    if bytes.count >= 2,
      (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE)
    {
      throw DiagnosticsError([
        .error(
          "xml-unsupported-encoding", "the file is UTF-16; mapc reads UTF-8 XML only",
          at: SourceLocation(file: source.path, line: 1, column: 1))
      ])
    }
    // The XML declaration is ASCII, so it can be read before the encoding is known.
    if let range = prolog.encodingValue {
      let name = String(decoding: bytes[range], as: UTF8.self)
      if !["utf-8", "utf8", "us-ascii", "ascii"].contains(name.lowercased()) {
        throw DiagnosticsError([
          .error(
            "xml-unsupported-encoding",
            "encoding \"\(name)\" is not supported; mapc reads UTF-8 XML only (Xcode writes UTF-8)",
            at: source.location(ofByte: range.lowerBound))
        ])
      }
    }
    if let bad = firstInvalidUTF8(bytes, from: source.contentStart) {
      throw DiagnosticsError([
        .error(
          "xml-invalid-utf8",
          String(format: "byte 0x%02X is not valid UTF-8; mapc reads UTF-8 XML only", bytes[bad]),
          at: source.location(ofByte: bad))
      ])
    }
  }

  /// Offset of the first byte that does not belong to a well-formed UTF-8 sequence.
  static func firstInvalidUTF8(_ bytes: [UInt8], from start: Int) -> Int? {
    var i = start
    while i < bytes.count {
      let b = bytes[i]
      if b < 0x80 {
        i += 1
        continue
      }
      let width: Int
      let minimum: UInt32
      switch b {
      case 0xC2...0xDF: (width, minimum) = (2, 0x80)
      case 0xE0...0xEF: (width, minimum) = (3, 0x800)
      case 0xF0...0xF4: (width, minimum) = (4, 0x10000)
      default: return i
      }
      guard i + width <= bytes.count else { return i }
      var value = UInt32(b) & (0xFF >> (width + 1))
      for k in 1..<width {
        guard UTF8.isContinuation(bytes[i + k]) else { return i }
        value = (value << 6) | (UInt32(bytes[i + k]) & 0x3F)
      }
      if value < minimum || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) { return i }
      i += width
    }
    return nil
  }
}
