import Foundation
import MapTestSupport
import Testing

@testable import MapJSON

/// `SortedRuns`, the spill of the ids' check and of the places of members out of their chunks:
/// records beyond its capacity go to disk in sorted runs and come back by one merge. The oracle is
/// the standard library's sort of the same records; the file is checked to be gone afterwards.
struct SortedRunsTests {
  struct Pair {
    var key: UInt64
    var tag: Int
  }

  enum ByKey: RunOrder {
    static func precedes(_ a: Pair, _ b: Pair) -> Bool { (a.key, a.tag) < (b.key, b.tag) }
  }

  /// Records drawn from a seeded generator, few distinct keys so that equal keys meet across runs.
  static func records(_ n: Int, seed: UInt64) -> [Pair] {
    var state = seed
    return (0..<n).map { i in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Pair(key: (state >> 33) % 997, tag: i)
    }
  }

  @Test(arguments: [0, 1, 255, 256, 257, 1_000, 10_007])
  func recordsComeBackInOrderWhateverTheRuns(count: Int) throws {
    let dir = try FileManagerTemp.folder("sorted-runs")
    defer { FileManagerTemp.remove(dir.path) }
    let input = Self.records(count, seed: UInt64(count) + 7)
    var got: [Pair] = []
    do {
      let runs = SortedRuns<ByKey>(capacity: 256, maxRuns: 64, folder: dir.path, name: "t")
      for r in input { #expect(try runs.append(r)) }
      #expect(runs.count == count)
      // Runs were written once more than 256 records came.
      let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
      #expect(files == (count >= 256 ? ["t-0"] : []))
      let cursor = runs.sorted()
      while let r = try cursor.next() { got.append(r) }
    }
    let want = input.sorted { ($0.key, $0.tag) < ($1.key, $1.tag) }
    #expect(got.map(\.key) == want.map(\.key))
    #expect(got.map(\.tag) == want.map(\.tag))
    // The file goes with the object.
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  /// More runs than `maxRuns` allows: `append` says so, and keeps what it was given.
  @Test func tooManyRunsAreRefused() throws {
    let dir = try FileManagerTemp.folder("sorted-runs-full")
    defer { FileManagerTemp.remove(dir.path) }
    let runs = SortedRuns<ByKey>(capacity: 256, maxRuns: 2, folder: dir.path, name: "t")
    var accepted = 0
    for r in Self.records(1_000, seed: 3) {
      guard try runs.append(r) else { break }
      accepted += 1
    }
    // Two runs of 256 written, the 768th record fills memory again and finds no room for a run.
    #expect(accepted == 767)
  }

  /// A file of the same name already in the folder (another spill's) is left alone.
  @Test func anotherSpillsFileIsLeftAlone() throws {
    let dir = try FileManagerTemp.folder("sorted-runs-names")
    defer { FileManagerTemp.remove(dir.path) }
    let other = dir.appendingPathComponent("t-0")
    try Data("other".utf8).write(to: other)
    do {
      let runs = SortedRuns<ByKey>(capacity: 256, maxRuns: 8, folder: dir.path, name: "t")
      for r in Self.records(600, seed: 5) { _ = try runs.append(r) }
      let cursor = runs.sorted()
      var n = 0
      while try cursor.next() != nil { n += 1 }
      #expect(n == 600)
      #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("t-1").path))
    }
    #expect(try Data(contentsOf: other) == Data("other".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["t-0"])
  }
}
