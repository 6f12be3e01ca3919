import Foundation
import MapJSON
import MapTestSupport
import Testing

/// `JSONStoreFormat.objectCountBound`, what the memory estimate counts a JSON store's objects by
/// (`StoreFootprint`): the `{` bytes of the file, which python3 counts too, at least the
/// objects python3's json reads; it stops a MiB past `cap`, and answers nil at once for what is
/// not a regular file (a FIFO: nothing blocks).
@Suite(.enabled(if: TestTools.python3 != nil, "python3 is the oracle"))
struct ObjectCountBoundTests {
  /// A store of `n` notes, some with a `{` in their text and a nested value.
  static func store(_ n: Int) -> String {
    #"{"metadata": {"format": "mapc-store"}, "objects": {"Note": ["#
      + (1...n).map { i in
        i % 7 == 0
          ? #"{"id": "Note/\#(i)", "title": "braces { in text", "payload": {"a": [1, {"b": 2}]}}"#
          : #"{"id": "Note/\#(i)", "title": "note \#(i)"}"#
      }.joined(separator: ",\n") + "]}}\n"
  }

  /// python3's count of `{` bytes and of objects in the entities' arrays.
  static func python(_ path: String) throws -> (braces: Int, objects: Int) {
    let script = """
      import json, sys
      data = open(sys.argv[1], "rb").read()
      objects = sum(len(v) for v in json.loads(data)["objects"].values())
      print(data.count(b"{"), objects)
      """
    let r = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, path])
    let numbers = r.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    try #require(numbers.count == 2, "\(r.stderr)")
    return (numbers[0], numbers[1])
  }

  @Test(arguments: [1, 100, 60_000]) func theBoundIsPythonsBraces(_ n: Int) throws {
    let dir = try FileManagerTemp.folder("count-bound")
    defer { FileManagerTemp.remove(dir.path) }
    let path = dir.appendingPathComponent("s.json").path
    try Data(Self.store(n).utf8).write(to: URL(fileURLWithPath: path))
    let (braces, objects) = try Self.python(path)
    let bound = try #require(JSONStoreFormat().objectCountBound(path, cap: .max))
    #expect(bound == braces)
    #expect(bound >= objects)
    if n == 60_000 {
      // More than a MiB: a small cap stops the count after the first MiB, above the cap.
      let capped = try #require(JSONStoreFormat().objectCountBound(path, cap: 10))
      #expect(capped > 10 && capped < braces)
    }
  }

  @Test func aFIFOOrAFolderHasNoBound() throws {
    let dir = try FileManagerTemp.folder("count-bound-fifo")
    defer { FileManagerTemp.remove(dir.path) }
    let fifo = dir.appendingPathComponent("fifo").path
    try #require(mkfifo(fifo, 0o600) == 0)
    #expect(JSONStoreFormat().objectCountBound(fifo, cap: .max) == nil)
    #expect(JSONStoreFormat().objectCountBound(dir.path, cap: .max) == nil)
    #expect(JSONStoreFormat().objectCountBound(dir.appendingPathComponent("none").path, cap: .max) == nil)
  }
}
