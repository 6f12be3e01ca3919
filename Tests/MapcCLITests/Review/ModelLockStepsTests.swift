import Foundation
import MapTestSupport
import Testing

/// Issue 38: a lock records what each shipped step drops; `mapc migrate --lock` accepts those
/// drops along locked steps (every device made them long ago) and still asks for an unshipped
/// step's. What the stores hold is read by python3's json.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct ModelLockStepsTests {
  @Test func lockedStepsDoNotAskAgainUnshippedOnesDo() throws {
    let dir = try FileManagerTemp.folder("lock-steps")
    defer { FileManagerTemp.remove(dir.path) }
    let priority = #"<attribute name="priority" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>"#
    let body = #"<attribute name="body" optional="YES" attributeType="String"/>"#
    let bundle = try DirectAndChainTests.bundle([priority + body, body, ""], in: dir)
    // The store at V1: two notes with a body and a priority.
    let metadata = try ModelBundles.storeMetadata(bundle.appendingPathComponent("V1.xcdatamodel"))
    let store = dir.appendingPathComponent("s.json").path
    try JSONSerialization.data(withJSONObject: [
      "metadata": metadata,
      "objects": [
        "Note": [
          ["id": "Note/1", "title": "a", "body": "one", "priority": 1],
          ["id": "Note/2", "title": "b", "body": "two", "priority": 2],
        ]
      ],
    ]).write(to: URL(fileURLWithPath: store))
    let lock = dir.appendingPathComponent("N.lock").path
    let l = runMapc(["lock", bundle.path, "--through", "V2", "-o", lock])
    try #require(l.exitCode == 0, "\(l.stderr)")
    // python3 reads what the lock records.
    let steps = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["python3", "-c", "import json,sys; print(json.load(open(sys.argv[1]))['steps'])", lock]
    ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(steps == "[{'from': 'V1', 'to': 'V2', 'drops': ['Note.priority']}]")
    let toV2 = dir.appendingPathComponent("v2.json").path
    let without = runMapc(["migrate", "--model", bundle.path, "--store", store, "--to", "V2", "--output", toV2])
    #expect(without.exitCode == 2, "\(without.stderr)")
    #expect(without.stderr.contains("Note.priority: 2 values"), "\(without.stderr)")
    let with = runMapc([
      "migrate", "--model", bundle.path, "--store", store, "--to", "V2", "--output", toV2, "--lock", lock,
    ])
    #expect(with.exitCode == 0, "\(with.stderr)")
    #expect(DirectAndChainTests.values(toV2, "body") == "['one', 'two']")
    // V2 → V3 is not locked (unshipped): its drop is still asked for, naming only it.
    let toV3 = dir.appendingPathComponent("v3.json").path
    let unshipped = runMapc(["migrate", "--model", bundle.path, "--store", store, "--output", toV3, "--lock", lock])
    #expect(unshipped.exitCode == 2, "\(unshipped.stderr)")
    #expect(unshipped.stderr.contains("Note.body: 2 values"), "\(unshipped.stderr)")
    let refusal = unshipped.stderr.split(separator: "\n").filter { $0.contains("[migrate-data-loss]") }
    #expect(refusal.count == 1 && !refusal[0].contains("Note.priority"), "\(unshipped.stderr)")
    #expect(unshipped.stderr.contains("dropped (accepted): Note.priority"), "\(unshipped.stderr)")
    #expect(!FileManager.default.fileExists(atPath: toV3))
    // A lock whose version no longer hashes as the bundle's gives no consent.
    let text = try String(contentsOfFile: lock, encoding: .utf8)
    let changed = try #require(text.range(of: #""versionChecksum" : ""#) ?? text.range(of: #""versionChecksum": ""#))
    var edited = text
    edited.insert(contentsOf: "X", at: changed.upperBound)
    try edited.write(toFile: lock, atomically: false, encoding: .utf8)
    let stale = runMapc([
      "migrate", "--model", bundle.path, "--store", store, "--to", "V2", "--output", toV2, "--lock", lock,
    ])
    #expect(stale.exitCode == 2, "\(stale.stderr)")
    #expect(stale.stderr.contains("its drops are not accepted"), "\(stale.stderr)")
  }
}
