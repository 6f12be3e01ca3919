import MapArchives
import MapTestSupport
import Testing

/// Archived strings stored as UTF-16 (any string with a non-ASCII character) decode to exactly
/// the string the standard library's validating UTF-16 decoder gives for the same code units,
/// and an archive whose string has an unpaired surrogate decodes to nothing (it stays bytes).
/// The expected results come from `String(validating:as: UTF16.self)`, not from mapc's decoder.
@Suite struct TransformableUTF16Tests {
  static let scalars: [Unicode.Scalar] = [
    "a", "Z", " ", "\u{0}", "\u{7F}", "\u{80}", "é", "\u{7FF}", "\u{800}", "日", "\u{D7FF}", "\u{E000}", "\u{FFFD}",
    "\u{FFFF}", "\u{10000}", "😀", "\u{10FFFF}",
  ]

  static func randomString(_ rng: inout SplitMix64) -> String {
    var s = String.UnicodeScalarView()
    s.append("é")  // never all ASCII: the archive holds UTF-16
    for _ in 0..<Int.random(in: 0..<40, using: &rng) {
      s.append(scalars[Int.random(in: 0..<scalars.count, using: &rng)])
    }
    var text = String(s)
    if Bool.random(using: &rng) { text = String(text.unicodeScalars.shuffled(using: &rng).map(Character.init)) }
    return text
  }

  /// The range of `text`'s UTF-16BE units in `archive` (after its `0x6n` marker and length).
  static func unitsRange(of text: String, in archive: [UInt8]) -> Range<Int>? {
    let units = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    guard !units.isEmpty, units.count <= archive.count else { return nil }
    for start in 0...(archive.count - units.count) where archive[start..<start + units.count].elementsEqual(units) {
      return start..<start + units.count
    }
    return nil
  }

  @Test func stringsDecodeAsTheStandardLibraryDecodesThem() throws {
    var rng = SplitMix64(seed: 16)
    for _ in 0..<2_000 {
      let text = Self.randomString(&rng)
      let archive = try TransformableArchive.encode(.array([.string(text), .string("plain")]))
      #expect(
        TransformableArchive.decode(archive) == .array([.string(text), .string("plain")]), "\(text.debugDescription)")
    }
  }

  @Test func unpairedSurrogatesAreNotText() throws {
    // The oracle, `String(validating:as:)`, is in the standard library of macOS 15 and later.
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    var rng = SplitMix64(seed: 17)
    var refused = 0
    for _ in 0..<2_000 {
      let text = Self.randomString(&rng)
      var archive = try TransformableArchive.encode(.array([.string(text)]))
      let range = try #require(Self.unitsRange(of: text, in: archive))
      var units = stride(from: range.lowerBound, to: range.upperBound, by: 2).map {
        UInt16(archive[$0]) << 8 | UInt16(archive[$0 + 1])
      }
      // One unit becomes a surrogate (high or low), or a pair is swapped.
      let k = Int.random(in: 0..<units.count, using: &rng)
      if Bool.random(using: &rng) || units.count < 2 {
        units[k] = UInt16.random(in: 0xD800...0xDFFF, using: &rng)
      } else {
        units.swapAt(k, (k + 1) % units.count)
      }
      for (i, u) in units.enumerated() {
        archive[range.lowerBound + 2 * i] = UInt8(u >> 8)
        archive[range.lowerBound + 2 * i + 1] = UInt8(u & 0xFF)
      }
      let expected = String(validating: units, as: UTF16.self)
      let decoded = TransformableArchive.decode(archive)
      if let expected {
        #expect(decoded == .array([.string(expected)]), "\(units)")
      } else {
        refused += 1
        #expect(decoded == nil, "\(units)")
      }
    }
    #expect(refused > 500, "the cases must include unpaired surrogates")
  }
}
