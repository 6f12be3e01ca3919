import Foundation
import MapRuntime
import MapSyntax
import MapTestSupport
import Testing

/// Parses `text` and returns the single diagnostic it must produce.
private func failure(_ text: String, path: String = "t.xml") -> Diagnostic? {
  failure(bytes: Array(text.utf8), path: path)
}

private func failure(bytes: [UInt8], path: String = "t.xml") -> Diagnostic? {
  do {
    _ = try XMLReader.parse(bytes: bytes, path: path)
    return nil
  } catch {
    return error.diagnostics.first
  }
}

@Suite struct XMLReaderTests {
  static let sample = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!-- header -->
    <root a="1">
      <child name="x&amp;y"
             other='v'>line one
    é &lt; b&#x41;c</child>
      <empty/>
      <![CDATA[<raw>]]>
    </root>
    """

  @Test func positionsOfElementsAttributesAndText() throws {
    let doc = try XMLReader.parse(bytes: Array(Self.sample.utf8), path: "s.xml")
    #expect(doc.root.name == "root")
    #expect(doc.root.location == SourceLocation(file: "s.xml", line: 3, column: 1))
    guard case .comment(let header)? = doc.prolog.first else {
      Issue.record("prolog comment missing")
      return
    }
    #expect(header.value == " header ")
    #expect(header.location == SourceLocation(file: "s.xml", line: 2, column: 1))

    let child = try #require(doc.root.firstElement(named: "child"))
    #expect(child.location == SourceLocation(file: "s.xml", line: 4, column: 3))
    let name = try #require(child.attribute("name"))
    #expect(name.value == "x&y")
    #expect(name.location == SourceLocation(file: "s.xml", line: 4, column: 10))
    #expect(name.valueLocation == SourceLocation(file: "s.xml", line: 4, column: 16))
    // "y" comes after the 5-character reference &amp; (columns 17-21).
    #expect(name.valuePositions.location(ofScalar: 2).column == 22)
    let other = try #require(child.attribute("other"))
    #expect(other.location == SourceLocation(file: "s.xml", line: 5, column: 10))
    #expect(other.valueLocation == SourceLocation(file: "s.xml", line: 5, column: 17))

    let text = try #require(child.textNodes.first)
    #expect(text.value == "line one\né < bAc")
    #expect(text.location == SourceLocation(file: "s.xml", line: 5, column: 20))
    // "é" starts line 6; "<" is the reference at column 3; "b" follows at column 8;
    // "A" is &#x41; at column 9; "c" follows the reference at column 15.
    #expect(text.positions.location(ofScalar: 9) == SourceLocation(file: "s.xml", line: 6, column: 1))
    #expect(text.positions.location(ofScalar: 11).column == 3)
    #expect(text.positions.location(ofScalar: 13).column == 8)
    #expect(text.positions.location(ofScalar: 14).column == 9)
    #expect(text.positions.location(ofScalar: 15) == SourceLocation(file: "s.xml", line: 6, column: 15))
    // The same characters by UTF-8 offset: é is 2 bytes (9-10), "c" is byte 16.
    #expect(text.positions.location(ofUTF8Offset: 10) == SourceLocation(file: "s.xml", line: 6, column: 1))
    #expect(text.positions.location(ofUTF8Offset: 16).column == 15)
    // Past the end: just after "c", where </child> starts.
    #expect(text.positions.location(ofScalar: 16) == SourceLocation(file: "s.xml", line: 6, column: 16))

    let empty = try #require(doc.root.firstElement(named: "empty"))
    #expect(empty.location == SourceLocation(file: "s.xml", line: 7, column: 3))
    #expect(empty.children.isEmpty)
    // Whitespace and the CDATA section after <empty/> merge into one text node.
    let tail = try #require(doc.root.textNodes.last)
    #expect(tail.value == "\n  <raw>\n")
    #expect(tail.positions.location(ofScalar: 3) == SourceLocation(file: "s.xml", line: 8, column: 12))
  }

  @Test func crlfAndTabsAreNormalisedButPositionsKept() throws {
    let text = "<a x=\"1\t2\r\n3\">p\r\nq</a>"
    let doc = try XMLReader.parse(bytes: Array(text.utf8), path: "c.xml")
    let x = try #require(doc.root.attribute("x"))
    #expect(x.value == "1 2 3")
    #expect(x.valuePositions.location(ofScalar: 4) == SourceLocation(file: "c.xml", line: 2, column: 1))
    let body = try #require(doc.root.textNodes.first)
    #expect(body.value == "p\nq")
    #expect(body.positions.location(ofScalar: 2) == SourceLocation(file: "c.xml", line: 3, column: 1))
  }

  @Test func truncatedDocument() throws {
    let d = try #require(failure("<a>\n  <b x=\"1\">té\n"))
    #expect(d.id == "xml-syntax")
    #expect(d.location == SourceLocation(file: "t.xml", line: 3, column: 1))
    #expect(d.message.contains("b"))
  }

  @Test func mismatchedTags() throws {
    let d = try #require(failure("<a>\n  <b x=\"1\">text\n</a>"))
    #expect(d.id == "xml-syntax")
    #expect(d.location == SourceLocation(file: "t.xml", line: 3, column: 1))
    #expect(d.message.contains("mismatch"))
  }

  @Test func mismatchAfterMultibyteNames() throws {
    let d = try #require(failure("<a>\n  <ééé x=\"1\"></ééf>\n</a>"))
    #expect(d.id == "xml-syntax")
    #expect(d.location == SourceLocation(file: "t.xml", line: 2, column: 14))
  }

  @Test func billionLaughsIsRefusedQuickly() throws {
    var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n  <!ENTITY lol \"lol\">\n"
    for i in 1...9 {
      text +=
        "  <!ENTITY lol\(i) \"" + String(repeating: "&lol\(i - 1 == 0 ? "" : String(i - 1));", count: 10) + "\">\n"
    }
    text += "]>\n<lolz>&lol9;</lolz>\n"
    let start = Date()
    do {
      _ = try XMLReader.parse(bytes: Array(text.utf8), path: "bomb.xml")
      Issue.record("the bomb parsed")
    } catch {
      #expect(error.diagnostics.count == 10)  // one per declaration
      let first = try #require(error.diagnostics.first)
      #expect(first.id == "xml-entity-declaration")
      #expect(first.location == SourceLocation(file: "bomb.xml", line: 3, column: 3))
    }
    #expect(Date().timeIntervalSince(start) < 1)
  }

  @Test func externalEntityToLocalFileIsRefused() throws {
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE a [
        <!-- <!ENTITY in a comment is fine -->
        <!ENTITY x SYSTEM "file:///etc/passwd">
      ]>
      <a>&x;</a>
      """
    let d = try #require(failure(text))
    #expect(d.id == "xml-entity-declaration")
    #expect(d.location == SourceLocation(file: "t.xml", line: 4, column: 3))
  }

  @Test func externalDTDIsNeverRead() throws {
    // If the DTD were loaded, &foo; would be defined by it and the document would parse.
    let dir = try FileManagerTemp.folder("dtd")
    defer { try? FileManager.default.removeItem(at: dir) }
    let dtd = dir.appendingPathComponent("e.dtd")
    try Data("<!ENTITY foo \"bar\">".utf8).write(to: dtd)
    let text = "<!DOCTYPE a SYSTEM \"\(dtd.path)\">\n<a>x &foo;</a>"
    let d = try #require(failure(text))
    #expect(d.id == "xml-undefined-entity")
    #expect(d.location == SourceLocation(file: "t.xml", line: 2, column: 6))
  }

  @Test func plistWithExternalDoctypeParses() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0"><dict><key>k</key><string>v</string></dict></plist>
      """
    let doc = try XMLReader.parse(bytes: Array(text.utf8), path: "p.plist")
    #expect(doc.root.firstElement(named: "dict")?.firstElement(named: "string")?.text == "v")
  }

  @Test func undefinedEntity() throws {
    let d = try #require(failure("<a>\n  ok &nope; </a>"))
    #expect(d.id == "xml-undefined-entity")
    #expect(d.location == SourceLocation(file: "t.xml", line: 2, column: 6))
  }

  @Test func latin1DeclarationIsRefused() throws {
    let bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a>caf".utf8) + [0xE9] + Array("</a>".utf8)
    let d = try #require(failure(bytes: bytes))
    #expect(d.id == "xml-unsupported-encoding")
    #expect(d.location == SourceLocation(file: "t.xml", line: 1, column: 31))
  }

  @Test func invalidUTF8IsRefused() throws {
    let bytes = Array("<a>\n  é caf".utf8) + [0xE9] + Array("</a>".utf8)
    let d = try #require(failure(bytes: bytes))
    #expect(d.id == "xml-invalid-utf8")
    // Two spaces, "é", a space, "caf": the bad byte is the 8th character of line 2.
    #expect(d.location == SourceLocation(file: "t.xml", line: 2, column: 8))
  }

  @Test func utf16IsRefused() throws {
    let d = try #require(failure(bytes: [0xFF, 0xFE, 0x3C, 0x00, 0x61, 0x00]))
    #expect(d.id == "xml-unsupported-encoding")
    #expect(d.location == SourceLocation(file: "t.xml", line: 1, column: 1))
  }

  @Test func utf8ByteOrderMarkIsNotAColumn() throws {
    let doc = try XMLReader.parse(bytes: [0xEF, 0xBB, 0xBF] + Array("<a b='1'/>".utf8), path: "b.xml")
    #expect(doc.root.location == SourceLocation(file: "b.xml", line: 1, column: 1))
    #expect(doc.root.attribute("b")?.valueLocation.column == 7)
  }

  @Test func emptyFile() throws {
    let d = try #require(failure(""))
    #expect(d.id == "xml-empty")
    #expect(d.location == SourceLocation(file: "t.xml", line: 1, column: 1))
    let blank = try #require(failure("\n\n  "))
    #expect(blank.id == "xml-empty")
  }

  @Test func duplicateAttribute() throws {
    let d = try #require(failure("<a\n x='1' x='2'/>"))
    #expect(d.id == "xml-syntax")
    #expect(d.location?.line == 2)
  }

  @Test func commentsAndProcessingInstructionsAreKept() throws {
    let text = "<a><!-- mapc-lint-disable x: why --><?pi data?><b/></a>"
    let doc = try XMLReader.parse(bytes: Array(text.utf8), path: "k.xml")
    #expect(doc.root.comments.map(\.value) == [" mapc-lint-disable x: why "])
    #expect(doc.root.comments.first?.location.column == 4)
    guard case .processingInstruction(let pi) = doc.root.children[1] else {
      Issue.record("no PI")
      return
    }
    #expect(pi.target == "pi")
    #expect(pi.data == "data")
    #expect(pi.location.column == 37)
  }

  @Test func parsingOnManyThreadsKeepsDiagnosticsApart() async throws {
    let results = await withTaskGroup(of: (Int, Diagnostic?).self) { group in
      for i in 0..<64 {
        group.addTask {
          let text = String(repeating: "\n", count: i) + "<a><b></a>"
          return (i, failure(text))
        }
      }
      var all: [(Int, Diagnostic?)] = []
      for await r in group { all.append(r) }
      return all
    }
    #expect(results.count == 64)
    for (i, d) in results {
      #expect(d?.id == "xml-syntax")
      #expect(d?.location?.line == i + 1)
      #expect(d?.location?.column == 7)
    }
  }
}

@Suite(.enabled(if: SharedPaths.shared != nil, Comment(rawValue: SharedPaths.absentMessage)))
struct XMLReaderCorpusTests {
  /// Every XML file of the corpus (models, .xccurrentversion plists, Xcode mapping models with
  /// their `file:///System/Library/DTDs/CoreData.dtd` DOCTYPE) parses, and every element's
  /// recorded position really holds its start tag.
  @Test func everyCorpusXMLFileParses() throws {
    let root = SharedPaths.corpus!
    let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    var count = 0
    while let url = enumerator?.nextObject() as? URL {
      let name = url.lastPathComponent
      guard name == "contents" || name == ".xccurrentversion" || name == "xcmapping.xml" else { continue }
      count += 1
      do {
        let doc = try XMLReader.parse(contentsOf: url.path)
        let lines = try String(contentsOf: url, encoding: .utf8)
          .split(separator: "\n", omittingEmptySubsequences: false)
        var stack = [doc.root]
        while let element = stack.popLast() {
          let line = Array(lines[element.location.line - 1].unicodeScalars)
          let tag = String(
            String.UnicodeScalarView(
              line.dropFirst(element.location.column - 1).prefix(element.name.unicodeScalars.count + 1)))
          #expect(tag == "<" + element.name, "\(url.path) \(element.location)")
          stack += element.elements
        }
      } catch {
        Issue.record("\(url.path): \(error)")
      }
    }
    #expect(count >= 49 + 33)
  }
}
