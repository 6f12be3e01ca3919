import Foundation
import MapTestSupport
import Testing

@testable import MapJSON
@testable import MapRuntime

/// After reading, a store's Transformable values live in a compact buffer of their own
/// (`StringCompaction`): without whitespace outside strings, and one copy per distinct text
/// while a column repeats itself. Values that repeat in the input, whether recently (found by
/// their input text) or long ago (found by their compact text), must still read back as their
/// own text.
@Suite struct StringCompactionTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
        <entity name="Item" syncable="YES">
            <attribute name="label" optional="YES" attributeType="String"/>
            <attribute name="notes" optional="YES" attributeType="Transformable"/>
        </entity>
    </model>
    """

  /// Input texts and the compact text each must read back as. Several inputs share a compact
  /// form; there are more distinct inputs than the recent-value list holds.
  static let texts: [(input: String, compact: String)] = [
    ("[\"a\", \"b\"]", "[\"a\",\"b\"]"),
    ("[\n  \"a\",\n  \"b\"\n]", "[\"a\",\"b\"]"),
    ("[\"a\",\"b\"]", "[\"a\",\"b\"]"),
    ("[ \"a b\" , \"c\\\"d\" ]", "[\"a b\",\"c\\\"d\"]"),
    ("{\"k\": [1, 2.5, null], \"t\": true}", "{\"k\":[1,2.5,null],\"t\":true}"),
    ("[\"How did you sleep?\", \"Mood (1-10)?\"]", "[\"How did you sleep?\",\"Mood (1-10)?\"]"),
    ("[\"x\"]", "[\"x\"]"),
    ("[\"y\"]", "[\"y\"]"),
    ("[\"z\"]", "[\"z\"]"),
    ("[ ]", "[]"),
    ("[\"\\u00e9t\\u00e9\",\t\"b\"]", "[\"\\u00e9t\\u00e9\",\"b\"]"),
    ("\"just a string\"", "\"just a string\""),
    ("[\"a\" ,\"b\"]", "[\"a\",\"b\"]"),
  ]

  @Test func valuesReadBackAsTheirOwnCompactText() throws {
    let layout = try storeLayout(ofModel: Self.model)
    var rng = SplitMix64(seed: 0x636f_6d70)
    // Runs of the same text and jumps between texts, so both ways of finding a copy are used.
    var picks: [Int] = []
    while picks.count < 5_000 {
      let k = Int(rng.next() % UInt64(Self.texts.count))
      picks += Array(repeating: k, count: 1 + Int(rng.next() % 3))
    }
    let objects = picks.enumerated().map { i, k in
      "{\"id\": \"i\(i)\", \"label\": \"L\(i % 7)\", \"notes\": \(Self.texts[k].input)}"
    }
    let text = "{\"objects\": {\"Item\": [\n" + objects.joined(separator: ",\n") + "\n]}}\n"
    let (graph, _) = try StoreReader.read(InputBytes(Array(text.utf8), path: "s.json"), layout: layout)
    let table = graph.tables[0]
    let notes = try #require(table.layout.propertyIndex("notes"))
    let input = try #require(graph.input)
    var starts: Set<Int> = []
    for (row, k) in picks.enumerated() {
      guard case .transformable(let slice) = table.value(row, notes) else {
        Issue.record("row \(row): notes is not raw JSON")
        return
      }
      #expect(String(decoding: input.buffer(slice), as: UTF8.self) == Self.texts[k].compact, "row \(row)")
      starts.insert(slice.start)
    }
    // One copy per distinct compact text.
    #expect(starts.count == Set(Self.texts.map(\.compact)).count)
  }
}
