import Foundation
import MapTestSupport
import Testing

/// `mapc migrate`'s peak memory does not grow with the number of steps on a store of constant
/// size (issue 27: 79 MB at 1 step, 662 MB at 20). Each step's graphs were kept alive by the
/// closures the interpreter links (they held their migration context strongly, and the context
/// holds them); now each step's memory is released before the next.
@Suite struct ChainMemoryTests {
  /// A bundle `C.xcdatamodeld` of `steps + 1` versions of one entity whose hash changes each
  /// version (`versionHashModifier`), so that each step is inferred, and a V1 store of `count`
  /// objects.
  static func chain(_ dir: URL, steps: Int, count: Int) throws {
    let bundle = dir.appendingPathComponent("C.xcdatamodeld")
    for v in 1...(steps + 1) {
      let version = bundle.appendingPathComponent("V\(v).xcdatamodel")
      try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
      try """
      <?xml version="1.0" encoding="UTF-8"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
      <entity name="Item" versionHashModifier="v\(v)"><attribute name="title" optional="YES" attributeType="String"/>\
      </entity>
      </model>

      """.write(to: version.appendingPathComponent("contents"), atomically: false, encoding: .utf8)
    }
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>V\(steps + 1).xcdatamodel</string></dict></plist>
    """.write(to: bundle.appendingPathComponent(".xccurrentversion"), atomically: false, encoding: .utf8)
    let hash = runMapc(["hash", "C.xcdatamodeld/V1.xcdatamodel"], in: dir)
    let line = try #require(hash.stdout.split(separator: "\n").first { $0.hasPrefix("Item ") })
    let itemHash = try #require(line.split(separator: " ").last)
    let objects = (0..<count).map { "{\"id\":\"i\($0)\",\"title\":\"Item number \($0) with some text to fill it\"}" }
    let store =
      "{\"metadata\":{\"format\":\"mapc-store\",\"formatVersion\":1,\"entityVersionHashes\":{\"Item\":\"\(itemHash)\"}},"
      + "\"objects\":{\"Item\":[\(objects.joined(separator: ","))]}}"
    try store.write(to: dir.appendingPathComponent("store.json"), atomically: false, encoding: .utf8)
  }

  /// Runs `mapc migrate` on the chain through python3 (which CI has), and returns the child's
  /// peak resident memory in KB (`ru_maxrss`).
  static func peakKB(_ dir: URL) throws -> Int {
    let mapc = try #require(mapcExecutable)
    let script =
      "import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
      + "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    let r = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["python3", "-c", script, mapc.path, "migrate", "--model", "C.xcdatamodeld", "--store", "store.json", "--quiet"],
      in: dir)
    let fields = r.stdout.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
    #expect(fields.first == "0", "\(r.stdout) \(r.stderr)")
    return try #require(fields.last.flatMap { Int($0) })
  }

  @Test func peakMemoryDoesNotGrowWithSteps() throws {
    var peaks: [Int: Int] = [:]
    for steps in [1, 20] {
      let dir = try FileManagerTemp.folder("chain-memory-\(steps)")
      defer { FileManagerTemp.remove(dir.path) }
      try Self.chain(dir, steps: steps, count: 20_000)
      peaks[steps] = try Self.peakKB(dir)
    }
    let one = try #require(peaks[1])
    let twenty = try #require(peaks[20])
    // Before the fix each step kept its graphs (about 2.5 MB a step here, +50 MB at 20).
    #expect(twenty < one + 20_000, "peak RSS: 1 step \(one) KB, 20 steps \(twenty) KB")
  }
}
