import Foundation
@testable import MapSyntax
import MapTestSupport
@testable import MapTools
import Testing

/// The one XML escaper (models, mappings, Xcode mapping models, JUnit reports): the expected
/// texts are written by hand from XML 1.0 (§2.2 characters, §3.3.3 attribute normalisation), and
/// python3's xml.etree reads each escaped text back to the original.
@Suite struct XMLEscapingTests {
  static let text = "a&b<c>d\"e\tf\ng\rh\u{85}i\u{2028}j\u{7F}k"

  @Test func attributeAndContentAsXMLSays() {
    #expect(XMLEscaping.content(Self.text) == "a&amp;b&lt;c&gt;d\"e\tf\ng&#13;h&#x85;i&#x2028;j&#x7F;k")
    #expect(
      XMLEscaping.attribute(Self.text) == "a&amp;b&lt;c&gt;d&quot;e&#9;f&#10;g&#13;h&#x85;i&#x2028;j&#x7F;k")
  }

  /// What XML cannot hold: kept for a document writer to refuse, shown as `\u{…}` in a report.
  @Test func unholdableCharactersAreKeptOrShown() {
    let s = "x\u{1B}y\u{0}z\u{FFFE}"
    #expect(XMLEscaping.content(s) == s)
    #expect(XMLEscaping.content(s, unholdable: .shown) == "x\\u{1b}y\\u{0}z\\u{fffe}")
    #expect(XMLEscaping.attribute(s, unholdable: .shown) == "x\\u{1b}y\\u{0}z\\u{fffe}")
    #expect(JUnitReport.text("\u{1B}[31m\r") == "\\u{1b}[31m&#13;")
  }

  @Test func python3ReadsTheOriginalBack() throws {
    let document = "<r a=\"\(XMLEscaping.attribute(Self.text))\">\(XMLEscaping.content(Self.text))</r>"
    let script = """
      import json, sys, xml.etree.ElementTree as E
      r = E.parse(sys.argv[1]).getroot()
      print(json.dumps([r.get("a"), r.text]))
      """
    let folder = try TemporaryFolder()
    try folder.write("doc.xml", document)
    let python = try #require(TestTools.python3)
    let r = runExecutable(python, ["-c", script, folder.path + "/doc.xml"])
    try #require(r.exitCode == 0, "\(r.stderr)")
    let data = Data(r.stdout.utf8)
    let read = try #require(try JSONSerialization.jsonObject(with: data) as? [String])
    #expect(read == [Self.text, Self.text])
  }
}
