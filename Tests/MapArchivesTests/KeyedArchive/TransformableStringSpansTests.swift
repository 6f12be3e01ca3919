import MapArchives
import MapTestSupport
import Testing

/// `TransformableArchive.decode(_:stringSpans:)` says where each string of the value lies in
/// the archive: checked on random values (`TransformableVerifierTests.Generator`) by walking
/// the value depth first (an array's elements, a dictionary's keys then its values) and
/// comparing each string's UTF-8 with the archive's bytes at its span. The oracle is the
/// string the value holds and the bytes of the archive, not the decoder's walk.
@Suite struct TransformableStringSpansTests {
  /// The strings of `v` in the documented order.
  static func strings(_ v: ArchivedValue, into out: inout [String]) {
    switch v {
    case .string(let s): out.append(s)
    case .array(let items): for i in items { strings(i, into: &out) }
    case .dictionary(let entries):
      out.append(contentsOf: entries.map(\.key))
      for e in entries { strings(e.value, into: &out) }
    default: break
    }
  }

  @Test func spansPointAtEachStringsBytes() throws {
    var generator = TransformableVerifierTests.Generator(rng: SplitMix64(seed: 26))
    var spans: [Int] = [7]
    var checked = (ascii: 0, other: 0)
    for _ in 0..<3_000 {
      let value = generator.value(depth: 0)
      guard let archive = try? TransformableArchive.encode(value) else { continue }
      let decoded = archive.withUnsafeBytes { TransformableArchive.decode($0, stringSpans: &spans) }
      #expect(decoded == value)
      #expect(decoded == TransformableArchive.decode(archive))
      var texts: [String] = []
      Self.strings(value, into: &texts)
      #expect(spans.count == 2 * texts.count)
      guard spans.count == 2 * texts.count else { continue }
      for (i, text) in texts.enumerated() {
        let (start, count) = (spans[2 * i], spans[2 * i + 1])
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
          #expect(start >= 0 && start + count <= archive.count, "\(text.debugDescription)")
          guard start >= 0 && start + count <= archive.count else { continue }
          #expect(Array(archive[start..<start + count]) == Array(text.utf8), "\(text.debugDescription)")
          checked.ascii += 1
        } else {
          // Stored as UTF-16: not in place.
          #expect(start == -1 && count == 0, "\(text.debugDescription)")
          checked.other += 1
        }
      }
    }
    #expect(checked.ascii > 1_000 && checked.other > 500, "\(checked)")
  }

  @Test func aFailedDecodeLeavesNoStaleSpans() throws {
    var spans: [Int] = []
    let archive = try TransformableArchive.encode(.array([.string("alpha"), .string("beta")]))
    _ = archive.withUnsafeBytes { TransformableArchive.decode($0, stringSpans: &spans) }
    #expect(spans.count == 4)
    // Not an archive: nil, and no spans left from the call before.
    let none = [UInt8]("bplist00 not really".utf8).withUnsafeBytes {
      TransformableArchive.decode($0, stringSpans: &spans)
    }
    #expect(none == nil)
    #expect(spans.isEmpty)
  }
}
