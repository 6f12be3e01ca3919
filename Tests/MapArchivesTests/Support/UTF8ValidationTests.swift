import Testing

@testable import MapArchives

/// The check macOS 13 and 14 use instead of `String(validating:as:)` (macOS 15) gives the same
/// answers: on sequences whose validity the Unicode standard fixes (table 3-7), and, against the
/// standard library's own check, on random bytes.
@Suite struct UTF8ValidationTests {
  static let cases: [(bytes: [UInt8], valid: Bool)] = [
    ([], true),
    (Array("héllo".utf8), true),
    ([0xF0, 0x9F, 0x8E, 0xB8], true),  // U+1F3B8
    ([0xF4, 0x8F, 0xBF, 0xBF], true),  // U+10FFFF, the last scalar
    ([0xC0, 0x80], false),  // overlong NUL
    ([0xE0, 0x80, 0x80], false),  // overlong
    ([0xED, 0xA0, 0x80], false),  // a surrogate, U+D800
    ([0xF4, 0x90, 0x80, 0x80], false),  // past U+10FFFF
    ([0xE2, 0x82], false),  // cut short
    ([0x80], false),  // a continuation byte alone
    ([0x61, 0xFF, 0x62], false),
  ]

  @Test(arguments: 0..<cases.count) func knownSequences(_ i: Int) {
    let (bytes, valid) = Self.cases[i]
    #expect((UTF8Validation.olderString(bytes) != nil) == valid)
    #expect((UTF8Validation.string(bytes) != nil) == valid)
    if valid { #expect(UTF8Validation.olderString(bytes) == String(decoding: bytes, as: UTF8.self)) }
  }

  @Test func randomBytesAgreeWithTheStandardLibrary() {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let count = Int.random(in: 0...8, using: &generator)
      // Mostly bytes that start or continue multi-byte sequences, where the errors are.
      let bytes = (0..<count).map { _ in UInt8.random(in: 0x70...0xFF, using: &generator) }
      #expect(UTF8Validation.olderString(bytes) == String(validating: bytes, as: UTF8.self), "\(bytes)")
    }
  }
}
