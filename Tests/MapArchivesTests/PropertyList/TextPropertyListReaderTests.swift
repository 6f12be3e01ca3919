import Foundation
import MapArchives
import Testing

/// `TextPropertyListReader` (the old text format of `project.pbxproj`): values written out by
/// hand from the text, and hostile texts that end in an error at their line and column.
@Suite struct TextPropertyListReaderTests {
  static func read(_ text: String) throws(TextPropertyListReader.Failure) -> PropertyListValue {
    try TextPropertyListReader.read(Array(text.utf8))
  }

  @Test func readsDictionariesArraysStringsAndData() throws {
    let value = try Self.read(
      """
      // !$*UTF8*$!
      {
        archiveVersion = 1;
        /* a comment */ objects = {
          A1B2 /* App */ = {isa = PBXGroup; children = (C3, D4, ); path = "My App"; };
        };
        quoted = "tab\\there \\"q\\" \\U00e9 \\101";
        data = <0fAB 10>;
        empty = ();
        path = ../Shared/File-1.swift;
      }
      """)
    #expect(value["archiveVersion"] == .string("1"))
    #expect(value["objects"]?["A1B2"]?["isa"] == .string("PBXGroup"))
    #expect(value["objects"]?["A1B2"]?["children"] == .array([.string("C3"), .string("D4")]))
    #expect(value["objects"]?["A1B2"]?["path"] == .string("My App"))
    #expect(value["quoted"] == .string("tab\there \"q\" é A"))
    #expect(value["data"] == .data([0x0F, 0xAB, 0x10]))
    #expect(value["empty"] == .array([]))
    #expect(value["path"] == .string("../Shared/File-1.swift"))
  }

  @Test(arguments: [
    ("{ a = 1; b = ", 1, 14),
    ("{ a = 1 }", 1, 9),
    ("{\n a = (1, 2; }", 2, 11),
    ("{ a = \"open", 1, 12),
    ("{ a = <0g>; }", 1, 9),
    ("{ a = 1; } extra", 1, 12),
    ("{ (x) = 1; }", 1, 6),
  ])
  func hostileTextsEndInAnErrorAtTheirPlace(_ text: String, _ line: Int, _ column: Int) {
    do {
      _ = try Self.read(text)
      Issue.record("no error for \(text)")
    } catch {
      #expect(error.line == line && error.column == column, "\(text): \(error)")
    }
  }

  @Test func deepNestingIsRefused() {
    let deep = String(repeating: "(", count: 10_000) + String(repeating: ")", count: 10_000)
    do {
      _ = try Self.read(deep)
      Issue.record("no error for deep nesting")
    } catch {
      #expect(error.message.contains("nested more than"))
    }
  }
}
