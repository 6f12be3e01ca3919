import Foundation
import MapRuntime
import MapTestSupport
import Testing

/// Pass 1 on every core (`ParallelCreation`) against pass 1 on one thread: the same generated
/// stores migrated both ways must give the same bytes, or the same errors. Each test also
/// checks which mappings really ran in parallel, so a parallel path that always gave up could
/// not pass for a correct one.
@Suite struct ParallelCreationTests {
  static let sourceModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
        <entity name="Sheet" syncable="YES">
            <attribute name="answers" optional="YES" attributeType="Transformable"/>
            <attribute name="day" optional="YES" attributeType="String"/>
            <attribute name="label" optional="YES" attributeType="String"/>
            <attribute name="questions" optional="YES" attributeType="Transformable"/>
            <attribute name="scores" optional="YES" attributeType="Transformable"/>
        </entity>
        <entity name="SpecialSheet" parentEntity="Sheet" syncable="YES">
            <attribute name="extra" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """
  static let destinationModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="2">
        <entity name="Day" syncable="YES">
            <attribute name="done" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
            <attribute name="label" optional="YES" attributeType="String"/>
            <attribute name="when" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        </entity>
        <entity name="Line" syncable="YES">
            <attribute name="answer" optional="YES" attributeType="String"/>
            <attribute name="kind" optional="YES" attributeType="String"/>
            <attribute name="label" optional="YES" attributeType="String"/>
            <attribute name="order" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
            <attribute name="score" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
            <attribute name="text" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """
  static let mapping = """
    <mappingModel name="Sheets" formatVersion="1">
      <sourceModel path="v1.xcdatamodel"/>
      <destinationModel path="v2.xcdatamodel"/>
      <entityMapping name="SheetToLine" type="transform" source="Sheet" destination="Line">
        <forEach>$source.questions</forEach>
        <attribute name="answer">$source.answers[$index]</attribute>
        <attribute name="kind">"line"</attribute>
        <attribute name="label">$source.label</attribute>
        <attribute name="order">$index</attribute>
        <attribute name="score">$source.scores[$index]</attribute>
        <attribute name="text">$item</attribute>
      </entityMapping>
      <entityMapping name="SheetToDay" type="transform" source="Sheet" destination="Day">
        <attribute name="done">YES</attribute>
        <attribute name="label">$source.label</attribute>
        <attribute name="when">FUNCTION($entityPolicy, "dateFromString:format:", $source.day, "yyyy-MM-dd")</attribute>
      </entityMapping>
    </mappingModel>
    """

  /// A store of `count` sheets of every ordinary shape: shared and unique question lists, empty
  /// and missing ones, shorter and missing answer lists with nils and escapes, valid, invalid and
  /// missing days. `odd` replaces the JSON of sheet `at` (the last but one when nil).
  static func store(count: Int, odd: String? = nil, at: Int? = nil, special: Bool = false) -> String {
    let shared = [#"["How?", "Mood?", "Notes"]"#, #"["How?", "Mood?"]"#, #"["Was hat dich gefreut?", "Crème"]"#]
    var rng = SplitMix64(seed: 7)
    var objects: [String] = []
    for i in 0..<count {
      var fields = [#""id": "Sheet/\#(i + 1)""#]
      switch rng.next() % 6 {
      case 0, 1, 2: fields.append(#""questions": \#(shared[Int(rng.next() % 3)])"#)
      case 3: fields.append(#""questions": ["q\#(i)", "r\#(i)\t", "s\"\#(i)", "t\#(i)"]"#)
      case 4: fields.append(#""questions": []"#)
      default: break
      }
      switch rng.next() % 4 {
      case 0: fields.append(#""answers": ["a\#(i)", null, "\u00e9\n\#(i)", "d"]"#)
      case 1: fields.append(#""answers": ["only \#(i)"]"#)
      case 2: fields.append(#""answers": null"#)
      default: break
      }
      if rng.next() % 3 != 0 { fields.append(#""scores": [\#(i % 300), -\#(i % 7), null]"#) }
      switch rng.next() % 4 {
      case 0: fields.append(#""day": "20\#(10 + i % 15)-0\#(1 + i % 9)-1\#(i % 10)""#)
      case 1: fields.append(#""day": "2021-02-29""#)
      case 2: fields.append(#""day": "not a date""#)
      default: break
      }
      if rng.next() % 5 != 0 { fields.append(#""label": "label \#(i % 97)""#) }
      objects.append("{" + fields.joined(separator: ", ") + "}")
    }
    if let odd { objects[at ?? count - 2] = odd }
    let specials =
      special ? #", "SpecialSheet": [{"id": "x1", "label": "sub", "questions": ["p", "q"], "answers": ["P"]}]"# : ""
    return #"{"objects": {"Sheet": ["# + objects.joined(separator: ",\n") + "]" + specials + "}}"
  }

  /// Migrates `store` on one thread and on every core; returns both outcomes.
  static func both(_ store: String, _ label: String) throws -> (
    serial: Result<(text: String, summary: MigrationRun.Summary), MigrationFailure>,
    parallel: Result<(text: String, summary: MigrationRun.Summary), MigrationFailure>
  ) {
    let serial = try runInline(
      sourceModel: sourceModel, destinationModel: destinationModel, mapping: mapping, store: store,
      label: label + "-serial", parallelMinimum: .max)
    let parallel = try runInline(
      sourceModel: sourceModel, destinationModel: destinationModel, mapping: mapping, store: store,
      label: label + "-parallel", parallelMinimum: 1)
    return (serial, parallel)
  }

  @Test func sameBytesOnOrdinaryStores() throws {
    for count in [1, 7, 5_000] {
      let (serial, parallel) = try Self.both(Self.store(count: count), "parallel-\(count)")
      let s = try serial.get()
      let p = try parallel.get()
      #expect(s.summary.parallelMappings.isEmpty)
      #expect(p.summary.parallelMappings == ["SheetToLine", "SheetToDay"], "\(count) sheets")
      #expect(p.text == s.text, "\(count) sheets")
      #expect(p.summary.created.map(\.count) == s.summary.created.map(\.count))
    }
  }

  @Test func diaryShapesComeOutRight() throws {
    let store = #"""
      {"objects": {"Sheet": [
        {"id": "s1", "label": "one", "questions": ["a", "b", "c"], "answers": ["x", null, "7"], "scores": [1, null], "day": "2020-02-29"},
        {"id": "s2", "questions": ["a", "b"], "day": "2021-02-29"},
        {"id": "s3", "label": "three", "questions": [], "answers": ["z"]}
      ]}}
      """#
    let p = try Self.both(store, "parallel-shapes").parallel.get()
    #expect(p.summary.parallelMappings == ["SheetToLine", "SheetToDay"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(p.text.utf8)) as? [String: Any])
    let objects = try #require(json["objects"] as? [String: [[String: Any]]])
    let lines = try #require(objects["Line"])
    #expect(lines.map { $0["text"] as? String } == ["a", "b", "c", "a", "b"])
    #expect(lines.map { $0["answer"] as? String } == ["x", nil, "7", nil, nil])
    #expect(lines.map { $0["order"] as? Int } == [0, 1, 2, 0, 1])
    #expect(lines.map { $0["score"] as? Int } == [1, nil, nil, nil, nil])
    #expect(lines.map { $0["label"] as? String } == ["one", "one", "one", nil, nil])
    #expect(lines.allSatisfy { $0["kind"] as? String == "line" })
    let days = try #require(objects["Day"])
    #expect(days.map { $0["when"] as? String } == ["2020-02-29T00:00:00Z", nil, nil])
    #expect(days.allSatisfy { $0["done"] as? Bool == true })
  }

  /// Values the chunks cannot store as they are: the chunk gives up, the destination is put
  /// back, and the mapping runs on one thread, with the same result.
  @Test func givingUpLeavesTheSerialResult() throws {
    let cases: [(odd: String?, special: Bool, parallel: [String], why: String)] = [
      // A subentity's objects are not the parent mapping's (each entity is fetched alone): nothing
      // to give up for.
      (nil, true, ["SheetToLine", "SheetToDay"], "a subentity beside the source entity"),
      (
        #"{"id": "odd", "questions": ["a"], "answers": {"not": "a list"}}"#, false, ["SheetToDay"], "answers not a list"
      ),
      (
        #"{"id": "odd", "questions": ["a", "b"], "scores": [2.75, true]}"#, false, ["SheetToDay"],
        "scores that need converting"
      ),
      (#"{"id": "odd", "day": "2020\u002d01-05", "label": "esc"}"#, false, ["SheetToLine"], "a date with an escape"),
    ]
    for c in cases {
      let (serial, parallel) = try Self.both(Self.store(count: 3_000, odd: c.odd, special: c.special), "parallel-odd")
      let s = try serial.get()
      let p = try parallel.get()
      #expect(p.summary.parallelMappings == c.parallel, "\(c.why)")
      #expect(p.text == s.text, "\(c.why)")
    }
  }

  /// A value no conversion fits fails the same way, with the same messages, both ways.
  @Test func errorsAreTheSerialErrors() throws {
    let odd = [
      #"{"id": "bad", "questions": ["a", 5]}"#, #"{"id": "bad", "questions": ["a"], "scores": [40000]}"#,
      #"{"id": "bad", "questions": "text"}"#,
    ]
    for odd in odd {
      let (serial, parallel) = try Self.both(Self.store(count: 3_000, odd: odd, at: 1_500), "parallel-error")
      guard case .failure(let s) = serial, case .failure(let p) = parallel else {
        Issue.record("both runs should fail for \(odd)")
        continue
      }
      // The same errors at the same places.
      #expect(!s.errors.isEmpty)
      #expect(errorLines(p) == errorLines(s))
      #expect(s.errors.allSatisfy { $0.message.contains("from bad") }, "\(s.description)")
    }
  }
}
