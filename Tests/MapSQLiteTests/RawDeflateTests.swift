import Foundation
import MapTestSupport
import Testing

@testable import MapSQLite

/// The model cache's raw DEFLATE streams (RFC 1951, no zlib header): what MapSQLite compresses,
/// python3's zlib decompresses to the same bytes, and what python3's zlib compresses, MapSQLite
/// decompresses; the system zlib at its default level gives python3's bytes exactly.
@Suite struct RawDeflateTests {
  static let script = """
    import sys, zlib
    data = sys.stdin.buffer.read()
    if sys.argv[1] == "inflate":
        sys.stdout.buffer.write(zlib.decompressobj(-15).decompress(data))
    else:
        c = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
        sys.stdout.buffer.write(c.compress(data) + c.flush())
    """

  /// python3's zlib on `input`.
  static func python(_ mode: String, _ input: [UInt8]) throws -> [UInt8] {
    let folder = try TemporaryFolder()
    let inputPath = folder.path + "/in"
    try Data(input).write(to: URL(fileURLWithPath: inputPath))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, mode]
    process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath))
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0)
    return [UInt8](data)
  }

  /// Inputs: empty, text, all byte values, long runs and pseudo-random bytes (seeded).
  static let inputs: [[UInt8]] = {
    var generator = SplitMix64(seed: 42)
    let random = (0..<100_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    return [
      [], Array("Core Data keeps its model in Z_MODELCACHE".utf8), (0...255).map { UInt8($0) },
      [UInt8](repeating: 7, count: 300_000), random,
    ]
  }()

  @Test(arguments: 0..<5) func compressedBytesArePythonsAndInflateBack(_ k: Int) throws {
    let input = Self.inputs[k]
    let compressed = try RawDeflate.compress(input)
    #expect(try Self.python("inflate", compressed) == input)
    #expect(compressed == (try Self.python("deflate", input)))
    #expect(try RawInflate.decompress(try Self.python("deflate", input)) == input)
  }

  @Test func aStreamLargerThanTheLimitIsRefused() throws {
    let compressed = try Self.python("deflate", [UInt8](repeating: 0, count: 1 << 20))
    #expect(throws: (any Error).self) { try RawInflate.decompress(compressed, limit: 1 << 19) }
    #expect(try RawInflate.decompress(compressed, limit: 1 << 20).count == 1 << 20)
  }
}
