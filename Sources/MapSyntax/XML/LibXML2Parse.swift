internal import CLibXML2
import Foundation
import MapRuntime

/// One-time process set-up: initialise libxml2 and make its external entity loader refuse
/// everything (a second line of defence: no option that would load anything is ever set).
private let libxml2Setup: Void = {
  xmlInitParser()
  xmlSetExternalEntityLoader { _, _, _ in nil }
}()

/// What the libxml2 callbacks of one parse record. Reached through the parser context's
/// `_private` pointer, so each parse has its own.
private final class ParseRecorder {
  struct Problem {
    var code: Int
    var isWarning: Bool
    var message: String
    /// Bytes consumed when libxml2 reported it.
    var offset: Int
  }
  var problems: [Problem] = []
  var entityDeclarationOffset: Int?
}

/// A libxml2 parse of one document, and the matching of libxml2's tree with the raw scanner's
/// events to give every node its exact position.
enum LibXML2Parse {
  static func run(source: SourceText, scan: RawScanner.Result) throws(DiagnosticsError)
    -> XML.Document
  {
    _ = libxml2Setup
    // Per-thread channels, in case anything bypasses the context's callback.
    mapc_xml_silence_thread()
    xmlSetStructuredErrorFunc(nil) { _, _ in }

    let recorder = ParseRecorder()
    let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue)
    let parsed: xmlDocPtr? = source.bytes.withUnsafeBufferPointer { buffer in
      buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
        guard let ctxt = xmlCreateMemoryParserCtxt(chars, Int32(buffer.count)) else { return nil }
        defer { xmlFreeParserCtxt(ctxt) }
        _ = xmlCtxtUseOptions(ctxt, options)
        ctxt.pointee._private = Unmanaged.passUnretained(recorder).toOpaque()
        ctxt.pointee.sax.pointee.serror = { _, error in
          guard let error, let raw = error.pointee.ctxt else { return }
          let ctxt = raw.assumingMemoryBound(to: xmlParserCtxt.self)
          guard let owner = ctxt.pointee._private else { return }
          let recorder = Unmanaged<ParseRecorder>.fromOpaque(owner).takeUnretainedValue()
          let level = error.pointee.level
          let message = error.pointee.message.map { String(cString: $0) } ?? "XML error"
          recorder.problems.append(
            .init(
              code: Int(error.pointee.code), isWarning: level == XML_ERR_WARNING,
              message: message.trimmingCharacters(in: .whitespacesAndNewlines),
              offset: Int(xmlByteConsumed(ctxt))))
        }
        // Backstop for the scanner's check: stop at any entity declaration.
        ctxt.pointee.sax.pointee.entityDecl = { userData, _, _, _, _, _ in
          guard let userData else { return }
          let ctxt = userData.assumingMemoryBound(to: xmlParserCtxt.self)
          if let owner = ctxt.pointee._private {
            let recorder = Unmanaged<ParseRecorder>.fromOpaque(owner).takeUnretainedValue()
            recorder.entityDeclarationOffset = Int(xmlByteConsumed(ctxt))
          }
          xmlStopParser(ctxt)
        }
        _ = xmlParseDocument(ctxt)
        let doc = ctxt.pointee.myDoc
        ctxt.pointee.myDoc = nil
        if ctxt.pointee.wellFormed == 0, let doc {
          xmlFreeDoc(doc)
          return nil
        }
        return doc
      }
    }
    defer { if let parsed { xmlFreeDoc(parsed) } }

    if let offset = recorder.entityDeclarationOffset {
      throw DiagnosticsError([
        .error(
          "xml-entity-declaration", "entity declarations are not allowed",
          at: source.location(ofByte: offset))
      ])
    }
    // The first error is the one that matters; libxml2's later ones are consequences.
    let firstError = recorder.problems.first {
      !$0.isWarning || $0.code == Int(XML_WAR_UNDECLARED_ENTITY.rawValue)
    }
    if let problem = firstError {
      throw DiagnosticsError([diagnostic(for: problem, in: source)])
    }
    guard let parsed else {
      throw DiagnosticsError([
        .error("xml-syntax", "the document is not well-formed XML", at: source.endLocation)
      ])
    }
    var builder = TreeBuilder(source: source, events: scan.events, scanComplete: scan.complete)
    return try builder.document(parsed)
  }

  private static func diagnostic(for problem: ParseRecorder.Problem, in source: SourceText)
    -> Diagnostic
  {
    var offset = problem.offset
    let id: String
    switch problem.code {
    case Int(XML_ERR_DOCUMENT_EMPTY.rawValue):
      // libxml2 says "empty" of any text without a start tag (`hello`, binary bytes): only a
      // file of white space (and a byte order mark) is empty; anything else is not XML.
      let blank = source.bytes.allSatisfy { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
      id = blank ? "xml-empty" : "xml-syntax"
    case Int(XML_ERR_UNDECLARED_ENTITY.rawValue), Int(XML_WAR_UNDECLARED_ENTITY.rawValue):
      id = "xml-undefined-entity"
      // libxml2 reports after the `;`; point at the `&`.
      offset = lastIndex(of: UInt8(ascii: "&"), before: offset, in: source.bytes) ?? offset
    case Int(XML_ERR_TAG_NAME_MISMATCH.rawValue):
      id = "xml-syntax"
      // libxml2 reports after the end tag; point at its `</`.
      if let lt = lastIndex(of: UInt8(ascii: "<"), before: offset, in: source.bytes),
        lt + 1 < source.bytes.count, source.bytes[lt + 1] == UInt8(ascii: "/")
      {
        offset = lt
      }
    default:
      id = "xml-syntax"
    }
    return .error(id, problem.message, at: source.location(ofByte: offset))
  }

  private static func lastIndex(of byte: UInt8, before offset: Int, in bytes: [UInt8]) -> Int? {
    var i = min(offset, bytes.count) - 1
    while i >= 0 {
      if bytes[i] == byte { return i }
      i -= 1
    }
    return nil
  }
}
