import MapTestSupport
import Testing

@testable import MapRuntime

/// `ByteArena` holds exactly the bytes appended, in order, however it grows (from a reserve, a
/// small start, or past its reserve across the mapped-buffer threshold), and hands them over as
/// input bytes with the zero padding `InputBytes` promises. The oracle is a plain array that
/// receives the same appends.
@Suite struct ByteArenaTests {
  /// `count` random bytes, eight from each number the generator gives.
  static func bytes(_ count: Int, _ rng: inout SplitMix64) -> [UInt8] {
    var words = [UInt64](repeating: 0, count: (count + 7) / 8)
    for i in words.indices { words[i] = rng.next() }
    return words.withUnsafeBytes { Array($0.prefix(count)) }
  }

  @Test(arguments: [0, 100, 5 << 20])
  func holdsWhatWasAppended(reserve: Int) throws {
    var rng = SplitMix64(seed: UInt64(reserve) + 7)
    let arena = ByteArena(expected: reserve)
    let other = ByteArena()
    var expected: [UInt8] = []
    var otherExpected: [UInt8] = []
    // About 9 MB in runs of up to 64 KiB: past the reserve and the 4 MiB mapping threshold.
    while expected.count < 9 << 20 {
      let run = Self.bytes(Int.random(in: 0..<65_536, using: &rng), &rng)
      if Bool.random(using: &rng) {
        arena.append(run)
        expected += run
      } else {
        arena.append(UInt8(run.count & 0xFF))
        expected.append(UInt8(run.count & 0xFF))
        other.append(run)
        otherExpected += run
      }
    }
    arena.append(other)
    expected += otherExpected
    #expect(arena.count == expected.count)
    let input = arena.take(path: "arena")
    #expect(arena.count == 0)
    #expect(input.count == expected.count)
    #expect(Array(input.unsafeBytes) == expected)
    let padding = UnsafeRawBufferPointer(
      start: input.unsafeBytes.baseAddress! + input.count, count: InputBytes.paddingCount)
    #expect(padding.allSatisfy { $0 == 0 })
  }

  @Test func anEmptyArenaGivesEmptyInput() {
    let input = ByteArena(expected: 1 << 20).take(path: "empty")
    #expect(input.count == 0)
  }
}
