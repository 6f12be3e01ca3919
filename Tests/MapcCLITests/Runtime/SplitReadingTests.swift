import Foundation
import MapJSON
import MapRuntime
import Testing

/// The store reader's split (`StoreReader.startSplit`): a large entity array read on two
/// threads must give the same bytes, or the same errors, as reading on one. Each test also
/// checks whether the split was taken, so a split that always gave up could not pass for a
/// correct one.
@Suite struct SplitReadingTests {
  typealias Outcome = Result<(text: String, summary: MigrationRun.Summary), MigrationFailure>

  static let nodeModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
        <entity name="Node" syncable="YES">
            <attribute name="label" optional="YES" attributeType="String"/>
            <attribute name="notes" optional="YES" attributeType="Transformable"/>
            <attribute name="weight" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
            <relationship name="children" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Node" inverseName="parent" inverseEntity="Node"/>
            <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Node" inverseName="children" inverseEntity="Node"/>
        </entity>
    </model>
    """
  static let itemModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="2">
        <entity name="Item" syncable="YES">
            <attribute name="childCount" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
            <attribute name="label" optional="YES" attributeType="String"/>
            <attribute name="notes" optional="YES" attributeType="Transformable"/>
            <attribute name="parentLabel" optional="YES" attributeType="String"/>
            <attribute name="weight" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
        </entity>
    </model>
    """
  static let mapping = """
    <mappingModel name="Nodes" formatVersion="1">
      <sourceModel path="v1.xcdatamodel"/>
      <destinationModel path="v2.xcdatamodel"/>
      <entityMapping name="NodeToItem" type="transform" source="Node" destination="Item">
        <attribute name="childCount">$source.children.@count</attribute>
        <attribute name="label">$source.label</attribute>
        <attribute name="notes">$source.notes</attribute>
        <attribute name="parentLabel">$source.parent.label</attribute>
        <attribute name="weight">$source.weight</attribute>
      </entityMapping>
    </mappingModel>
    """

  /// `count` nodes in a tree (node i's parent is node i / 2, written on the child's side
  /// only, so the reader fills in `children`), with escapes, nils and nested notes. `notes`
  /// gives node i's notes JSON; `replace` swaps in other JSON for the objects at those indexes.
  static func store(
    count: Int, notes: (Int) -> String = { #"[{"n": \#($0)}, {"m": "x\"y"}]"# }, replace: [Int: String] = [:]
  )
    -> String
  {
    var objects: [String] = []
    for i in 1...count {
      if let r = replace[i] {
        objects.append(r)
        continue
      }
      var fields = [#""id": "Node/\#(i)""#, #""label": "n\#(i)\u00e9""#, #""notes": \#(notes(i))"#]
      if i > 1 { fields.append(#""parent": "Node/\#(i / 2)""#) }
      if i % 3 != 0 { fields.append(#""weight": \#(i % 1000)"#) }
      objects.append("{\n      " + fields.joined(separator: ",\n      ") + "\n    }")
    }
    return "{\n  \"objects\": {\n    \"Node\": [\n    " + objects.joined(separator: ",\n    ") + "\n    ]\n  }\n}\n"
  }

  static func both(_ store: String, _ label: String) throws -> (single: Outcome, split: Outcome) {
    func run(_ minimum: Int, _ suffix: String) throws -> Outcome {
      try runInline(
        sourceModel: nodeModel, destinationModel: itemModel, mapping: mapping, store: store, label: label + suffix,
        splitMinimum: minimum)
    }
    return (try run(.max, "-single"), try run(1, "-split"))
  }

  @Test func sameBytesWhenSplit() throws {
    for count in [1, 2, 3_001] {
      let (single, split) = try Self.both(Self.store(count: count), "split-\(count)")
      let s = try single.get()
      let p = try split.get()
      #expect(s.summary.splitEntities.isEmpty)
      #expect(p.summary.splitEntities == (count > 2 ? ["Node"] : []), "\(count) nodes")
      #expect(p.text == s.text, "\(count) nodes")
    }
    // References across the halves came out right: node 2's children are nodes 4 and 5.
    let p = try Self.both(Self.store(count: 3_001), "split-check").split.get()
    let json = try #require(try JSONSerialization.jsonObject(with: Data(p.text.utf8)) as? [String: Any])
    let items = try #require((json["objects"] as? [String: [[String: Any]]])?["Item"])
    #expect(items.count == 3_001)
    #expect(items[1]["childCount"] as? Int == 2)
    #expect(items[2999]["parentLabel"] as? String == "n1500é")
    #expect(items[3000]["childCount"] as? Int == 0)
  }

  /// Notes full of `}, {`, inside strings and between nested objects: the guessed start of
  /// the second half is not an element, the first reader never lands there, and the result is
  /// reading alone's.
  @Test func wrongGuessesAreThrownAway() throws {
    let variants: [(Int) -> String] = [
      { i in "[" + Array(repeating: #""}, {\#(i)""#, count: 40).joined(separator: ", ") + "]" },
      { i in "[" + Array(repeating: #"{"k": [{"a": \#(i)}, {"b": null}]}"#, count: 20).joined(separator: ", ") + "]" },
    ]
    for (k, notes) in variants.enumerated() {
      let (single, split) = try Self.both(Self.store(count: 1_500, notes: notes), "split-guess-\(k)")
      let s = try single.get()
      let p = try split.get()
      #expect(p.summary.splitEntities.isEmpty, "variant \(k)")
      #expect(p.text == s.text, "variant \(k)")
    }
  }

  /// Errors in the second half (which make it give up) and duplicate ids across the halves
  /// (found when the first reader takes the second half over) come out as reading alone's.
  @Test func errorsAreTheSingleReadersErrors() throws {
    let cases: [(replace: [Int: String], why: String)] = [
      ([2_900: #"{"id": "Node/2900", "weight": "big"}"#], "a wrong type late in the array"),
      ([2_950: #"{"id": "Node/17"}"#, 2_990: #"{"id": "Node/2950x", "label": 3}"#], "a duplicate and a wrong type"),
      ([2_950: #"{"id": "Node/17"}"#], "a duplicate of a first-half id"),
      ([2_950: #"{"id": "Node/2960"}"#], "a duplicate within the second half"),
      ([10: #"{"id": "Node/10", "weight": 1e3}"#, 2_951: #"{"id": "Node/2950"}"#], "errors in both halves"),
      ([2_999: #"{"id": "Node/2999", "parent": "Node/9999"}"#], "a dangling reference"),
    ]
    for c in cases {
      let (single, split) = try Self.both(Self.store(count: 3_001, replace: c.replace), "split-error")
      guard case .failure(let s) = single, case .failure(let p) = split else {
        Issue.record("both runs should fail: \(c.why)")
        continue
      }
      #expect(!s.errors.isEmpty, "\(c.why)")
      #expect(errorLines(p) == errorLines(s), "\(c.why)")
    }
  }
}
