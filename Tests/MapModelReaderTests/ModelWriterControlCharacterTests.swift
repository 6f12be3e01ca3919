import Foundation
@testable import MapModelReader
import MapRuntime
import MapTestSupport
import Testing

/// `ModelXMLWriter` (what `mapc store model` and `mapc model` write) and characters a store's
/// cached model or a Swift string may hold: what XML 1.0 allows is written as character
/// references and read back the same, by mapc and by python3's `xml.etree`; what XML 1.0 cannot
/// hold (NUL, ESC) is refused with the element it is in, never written as a file no reader takes.
@Suite struct ModelWriterControlCharacterTests {
  static let allowed = "a\nb\r\nc\td \u{85} \u{7F} \u{2028} \"q\" <&> */ end"

  static func model(name: String, value: String) -> ObjectModel {
    var a = AttributeDescription(name: name, type: .string, isOptional: true)
    a.defaultValueString = value
    a.regularExpression = value
    return ObjectModel(entities: [EntityDescription(name: "Note", className: "Note", attributes: [a])])
  }

  @Test func allowedControlCharactersRoundTrip() throws {
    let written = ModelXMLWriter.contents(Self.model(name: "n", value: Self.allowed))
    #expect(ModelXMLWriter.unwritable(written) == nil)
    // No raw control character but the writer's own line breaks and indentation.
    #expect(
      !written.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || ($0.value >= 0x7F && $0.value < 0xA0) })
    let read = try loadModel(written).get().model
    let a = try #require(read.entities.first?.attributes.first)
    #expect(a.defaultValueString == Self.allowed)
    #expect(a.regularExpression == Self.allowed)
    // python3's reader, independent of mapc: the same value.
    let dir = try FileManagerTemp.folder("xml-controls")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("contents")
    try Data(written.utf8).write(to: file)
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments = [
      "python3", "-c",
      "import sys, xml.etree.ElementTree as E; a = E.parse(sys.argv[1]).getroot().find('entity/attribute'); sys.stdout.write(a.get('defaultValueString').encode('unicode_escape').decode())",
      file.path,
    ]
    let out = Pipe()
    python.standardOutput = out
    try python.run()
    python.waitUntilExit()
    let seen = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(python.terminationStatus == 0)
    #expect(seen == #"a\nb\r\nc\td \x85 \x7f \u2028 "q" <&> */ end"#)
  }

  @Test(arguments: ["\u{1B}[31m", "\u{0}", "\u{1}", "\u{FFFF}"])
  func whatXMLCannotHoldIsRefused(_ bad: String) {
    for (name, value) in [("n" + bad, "v"), ("n", "v" + bad)] {
      let written = ModelXMLWriter.contents(Self.model(name: name, value: value))
      let why = ModelXMLWriter.unwritable(written)
      #expect(why?.contains("XML 1.0 cannot hold") == true)
      #expect(why?.contains("<attribute name=") == true)
      // The message itself holds no raw control character.
      #expect(why?.unicodeScalars.contains { $0.value < 0x20 } == false)
    }
  }
}
