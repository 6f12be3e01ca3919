import MapArchives
import MapTestSupport
import Testing

/// `TransformableArchive.Verifier` decides exactly what `(try? encode(v)) == blob` decides: on
/// random values (arrays, dictionaries, ASCII and non-ASCII strings with duplicates, numbers,
/// nulls, dates, data, nested) against their own archives, other values' archives, and
/// mutated bytes of those archives (and the values those decode to).
@Suite struct TransformableVerifierTests {
  struct Generator {
    var rng: SplitMix64

    static let strings = [
      "", "a", "How did you sleep?", "Mood (1-10)?", "Was hat dich heute gefreut?", "Grüße", "日本語", "😀 emoji",
      "$null", "$class", "NSArray", "NSObject", "NSDictionary", "NS.objects", "root", "roo", "NSKeyedArchiver",
      "$version", "\u{0}nul", "a longer string of more than fifteen bytes", "é", "\u{10FFFF}",
    ]

    mutating func int(_ n: Int) -> Int { Int.random(in: 0..<n, using: &rng) }

    mutating func string() -> String {
      if int(3) == 0 { return Self.strings[int(Self.strings.count)] }
      let alphabet: [Character] = ["a", "b", "Z", " ", "ü", "日", "😀", "$", "N", "S", "\u{1}", "\""]
      return String((0..<int(int(4) == 0 ? 40 : 6)).map { _ in alphabet[int(alphabet.count)] })
    }

    mutating func scalar() -> ArchivedValue {
      switch int(12) {
      case 0, 1, 2, 3: return .string(string())
      case 4:
        let picks: [Int64] = [0, 1, -1, 255, 256, 65_535, 65_536, 100_000, Int64(Int32.max), .max, .min]
        return .integer(int(2) == 0 ? picks[int(picks.count)] : Int64(int(1000)) - 500)
      case 5:
        // Non-finite numbers (which make the whole value unarchivable) now and then.
        let picks: [Double] = [0, -0.0, 1.5, -2.25, .pi, 1e300, 100_000, .nan, .infinity]
        return .real(picks[int(int(30) == 0 ? picks.count : picks.count - 2)])
      case 6: return .bool(int(2) == 0)
      case 7:
        let picks: [Double] = [0, 1, -1e9, 7.25e8, .nan, -.infinity]
        return .date(picks[int(int(30) == 0 ? picks.count : picks.count - 2)])
      case 8: return .data((0..<int(int(4) == 0 ? 40 : 5)).map { _ in UInt8(int(256)) })
      default: return .null
      }
    }

    mutating func value(depth: Int) -> ArchivedValue {
      guard depth < 4, int(3) != 0 else { return scalar() }
      let n = depth == 0 && int(5) == 0 ? int(300) : int(6)
      if int(2) == 0 { return .array((0..<n).map { _ in value(depth: depth + 1) }) }
      return .dictionary((0..<n).map { _ in .init(string(), value(depth: depth + 1)) })
    }

    mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
      var b = bytes
      guard !b.isEmpty else { return [0] }
      switch int(6) {
      case 0: b[int(b.count)] ^= UInt8(1 << int(8))
      case 1: b[int(b.count)] = UInt8(int(256))
      case 2: b.removeLast(1 + int(min(b.count, 4)))
      case 3: b.append(UInt8(int(256)))
      case 4: b[b.count - 32 + 6 + int(2)] = [1, 2, 3, 4, 8][int(5)]  // offset or reference size
      default: b.insert(UInt8(int(256)), at: int(b.count))
      }
      return b
    }
  }

  func agree(_ v: ArchivedValue, _ blob: [UInt8], _ verifier: inout TransformableArchive.Verifier) -> Bool {
    let expected = (try? TransformableArchive.encode(v)) == blob
    return verifier.matches(v, blob) == expected
  }

  @Test func agreesWithEncodeOnRandomValuesAndMutatedArchives() {
    var g = Generator(rng: SplitMix64(seed: 16))
    var verifier = TransformableArchive.Verifier()
    var previous: [UInt8] = []
    var (matched, checked) = (0, 0)
    for round in 0..<1500 {
      let v = round % 50 == 0 ? .array((0..<bigCount(round)).map { _ in g.scalar() }) : g.value(depth: 0)
      let archive = try? TransformableArchive.encode(v)
      if let archive {
        let ok = verifier.matches(v, archive)
        #expect(ok, "round \(round): \(v)")
        matched += 1
      }
      var blobs = [archive ?? [], previous]
      for _ in 0..<4 { blobs.append(g.mutate(archive ?? previous)) }
      for blob in blobs {
        checked += 1
        let same = agree(v, blob, &verifier)
        #expect(same, "round \(round)")
        if let w = TransformableArchive.decode(blob) {
          let decodedSame = agree(w, blob, &verifier)
          #expect(decodedSame, "round \(round): \(w)")
        }
      }
      previous = archive ?? previous
    }
    #expect(matched > 750 && checked == 9000)
  }

  /// Long arrays: references of 2 and (the first) 4 bytes.
  func bigCount(_ round: Int) -> Int { round == 0 ? 70_000 : 300 + round }

  @Test func depthAndNonFiniteNumbersAreRefusedAsEncodeRefusesThem() {
    var verifier = TransformableArchive.Verifier()
    var deep = ArchivedValue.string("x")
    for _ in 0..<TransformableArchive.maximumDepth { deep = .array([deep]) }
    let archive = try? TransformableArchive.encode(deep)
    #expect(archive != nil)
    let (own, deeper) = (verifier.matches(deep, archive ?? []), verifier.matches(.array([deep]), archive ?? []))
    #expect(own && !deeper)
    var deepKey = ArchivedValue.null
    for _ in 0..<TransformableArchive.maximumDepth { deepKey = .dictionary([.init("k", deepKey)]) }
    let keys = agree(deepKey, (try? TransformableArchive.encode(deepKey)) ?? [], &verifier)
    let nan = verifier.matches(.real(.nan), [])
    #expect(keys && !nan)
  }
}
