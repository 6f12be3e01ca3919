import Foundation
import MapSyntax
import MapTestSupport
import MapRuntime
import MapTools
import Testing

/// A bad `fixture.json` or lock file is reported at the line and column of what is wrong.
/// The expected places are counted by hand in the texts below (lines and columns from 1).
@Suite struct SettingsFileLocationTests {
  static func write(_ text: String, named name: String) throws -> (folder: URL, file: String) {
    let folder = try FileManagerTemp.folder("settings-location")
    let file = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: file)
    return (folder, file.path)
  }

  static func fixtureError(_ text: String) throws -> Diagnostic {
    let (folder, file) = try write(text, named: "fixture.json")
    defer { FileManagerTemp.remove(folder.path) }
    do {
      _ = try FixtureFile.read(file)
    } catch {
      return try #require(error.diagnostics.first)
    }
    Issue.record("accepted: \(text)")
    throw CancellationError()
  }

  @Test(arguments: [
    // A value out of range: `-1` starts on line 5, column 37.
    (
      "{\n  \"mapping\": \"m.xml\",\n  \"cases\": [\n    {\"store\": \"a.json\", \"exitCode\": 1},\n"
        + "    {\"store\": \"b.json\", \"exitCode\": -1}\n  ]\n}\n", 5, 37
    ),
    // An unknown key of a case: its value on line 3, column 50.
    ("{\"mapping\": \"m.xml\",\n \"cases\": [\n  {\"store\": \"a.json\", \"exitCode\": 2, \"exitcode\": 3}]}", 3, 50),
    // An empty knownIssue: line 2, column 16.
    ("{\"mapping\": \"m.xml\", \"cases\": [{\"store\": \"a\", \"exitCode\": 1}],\n \"knownIssue\": \"\"}", 2, 16),
    // Not JSON: a trailing comma, reported at the `]` after it (line 2, column 42).
    ("{\"mapping\": \"m.xml\",\n \"cases\": [{\"store\": \"a\", \"exitCode\": 1},]}", 2, 42),
    // A case that is not an object: line 1, column 32.
    ("{\"mapping\": \"m.xml\", \"cases\": [1]}", 1, 32),
  ])
  func fixtureErrorsNameLineAndColumn(text: String, line: Int, column: Int) throws {
    let d = try Self.fixtureError(text)
    #expect(d.id == "test-fixture-invalid")
    #expect(d.location?.line == line && d.location?.column == column, "\(d)")
  }

  @Test func lockErrorsNameLineAndColumn() throws {
    let text = """
      {
        "format": "mapc-model-lock",
        "formatVersion": 1,
        "model": "Shop.xcdatamodeld",
        "versions": [
          {"name": "Shop", "versionChecksum": "x", "entities": [
            {"name": "Item", "versionHash": "h", "properties": [{"name": "title"}]}
          ]}
        ]
      }
      """
    let (folder, file) = try Self.write(text, named: "Shop.lock")
    defer { FileManagerTemp.remove(folder.path) }
    #expect(throws: DiagnosticsError.self) { _ = try ModelLock.read(file) }
    do {
      _ = try ModelLock.read(file)
    } catch {
      let d = try #require(error.diagnostics.first)
      #expect(d.id == "lock-invalid")
      // The property without a versionHash: line 7, column 59.
      #expect(d.location?.line == 7 && d.location?.column == 59, "\(d)")
    }
  }
}
