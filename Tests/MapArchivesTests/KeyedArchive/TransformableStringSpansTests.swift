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

  /// With `textAtSpans`, ASCII strings other than keys come back empty and the rest as they
  /// are: putting the bytes at each span back in gives the value `encode` was given, and the
  /// spans are those of a plain `decode(_:stringSpans:)`.
  @Test func textAtSpansLeavesOnlyASCIIValuesEmpty() throws {
    var generator = TransformableVerifierTests.Generator(rng: SplitMix64(seed: 2611))
    var (spans, plainSpans): ([Int], [Int]) = ([], [])
    var emptied = 0
    for _ in 0..<3_000 {
      let value = generator.value(depth: 0)
      guard let archive = try? TransformableArchive.encode(value) else { continue }
      let decoded = archive.withUnsafeBytes {
        TransformableArchive.decode($0, stringSpans: &spans, textAtSpans: true)
      }
      _ = archive.withUnsafeBytes { TransformableArchive.decode($0, stringSpans: &plainSpans) }
      #expect(spans == plainSpans)
      guard let decoded else {
        Issue.record("an archive of \(value) did not decode")
        continue
      }
      var next = 0
      func refill(_ v: ArchivedValue) -> ArchivedValue {
        switch v {
        case .string(let s):
          let (start, count) = (spans[next], spans[next + 1])
          next += 2
          guard start >= 0 else { return .string(s) }
          #expect(s.isEmpty)
          emptied += 1
          return .string(String(decoding: archive[start..<start + count], as: UTF8.self))
        case .array(let items): return .array(items.map(refill))
        case .dictionary(let entries):
          next += 2 * entries.count
          return .dictionary(entries.map { .init($0.key, refill($0.value)) })
        default: return v
        }
      }
      #expect(refill(decoded) == value)
    }
    #expect(emptied > 1_000, "\(emptied)")
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
