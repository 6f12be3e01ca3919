import Foundation
import MapTestSupport
import Testing

/// Issue 38: `mapc infer` says on standard error what the mapping it writes drops, one line per
/// kind (entities, attributes, relationships), not only in the comment of the file.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct InferDropsTests {
  static let source = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Task" representedClassName="Task" syncable="YES">
            <attribute name="priority" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="task" inverseEntity="Tag"/>
        </entity>
        <entity name="Tag" representedClassName="Tag" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="task" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Task" inverseName="tags" inverseEntity="Task"/>
        </entity>
        <entity name="Note" representedClassName="Note" syncable="YES">
            <attribute name="text" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Memo" representedClassName="Memo" syncable="YES">
            <attribute name="text" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """

  static let destination = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Task" representedClassName="Task" syncable="YES">
            <attribute name="title" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Tag" representedClassName="Tag" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """

  static func write(_ files: [String: String], in folder: URL) throws {
    for (name, contents) in files {
      let version = folder.appendingPathComponent("\(name).xcdatamodel")
      try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
      try contents.write(to: version.appendingPathComponent("contents"), atomically: false, encoding: .utf8)
    }
  }

  @Test func eachKindOfDropIsOneLineOnStandardError() throws {
    let work = try FileManagerTemp.folder("infer-drops")
    defer { FileManagerTemp.remove(work.path) }
    try Self.write(["A": Self.source, "B": Self.destination], in: work)
    let output = work.appendingPathComponent("AToB.xml").path
    let r = runMapc([
      "infer", work.appendingPathComponent("A.xcdatamodel").path, work.appendingPathComponent("B.xcdatamodel").path,
      "-o", output,
    ])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(FileManager.default.fileExists(atPath: output))
    let lines = r.stderr.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "mapc: note: the inferred mapping drops 2 entities (their objects are lost): Note, Memo",
        "mapc: note: the inferred mapping drops 1 attribute (its values are lost): Task.priority",
        "mapc: note: the inferred mapping drops 2 relationships (their links are lost): Tag.task, Task.tags",
      ], "\(r.stderr)")
    // The comment in the file still names the removed entities.
    let text = try String(contentsOfFile: output, encoding: .utf8)
    #expect(text.contains("removed entities Note, Memo"), "\(text)")
  }

  @Test func aMappingThatDropsNothingSaysNothing() throws {
    let work = try FileManagerTemp.folder("infer-drops-none")
    defer { FileManagerTemp.remove(work.path) }
    try Self.write(["A": Self.destination, "B": Self.destination], in: work)
    let r = runMapc([
      "infer", work.appendingPathComponent("A.xcdatamodel").path, work.appendingPathComponent("B.xcdatamodel").path,
      "-o", work.appendingPathComponent("AToB.xml").path,
    ])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stderr.isEmpty, "\(r.stderr)")
  }
}
