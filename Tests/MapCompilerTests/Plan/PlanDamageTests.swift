import MapCompiler
import MapRuntime
import MapTestSupport
import Testing

/// Damaged, truncated and hostile plans are refused with the right code and never crash.
@Suite struct PlanDamageTests {
  static let small = PlanWriter.encode(SamplePlans.small)

  /// The code expected when byte `i` of a valid plan changes.
  static func expectedCode(forDamageAt i: Int, in bytes: [UInt8], damaged: [UInt8]) -> PlanFormatError.Code {
    switch i {
    case 0..<8: return .badMagic
    case 8..<12: return .unsupportedVersion  // version, flags
    case 12..<20:  // body length: longer → truncated, shorter → bytes left over
      let length = damaged[12..<20].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      return length > UInt64(bytes.count - 52) ? .truncated : .malformed
    default: return .checksumMismatch  // the checksum itself or the body
    }
  }

  @Test func everySingleByteChangeIsRefused() {
    let bytes = Self.small
    #expect(bytes.count > 200)
    for i in bytes.indices {
      for mask: UInt8 in [0x01, 0x80, 0xFF] {
        var damaged = bytes
        damaged[i] ^= mask
        let expected = Self.expectedCode(forDamageAt: i, in: bytes, damaged: damaged)
        #expect(throws: PlanFormatError.self) { try PlanReader.decode(damaged) }
        do {
          _ = try PlanReader.decode(damaged)
        } catch {
          #expect(error.code == expected, "byte \(i) ^ \(mask): \(error)")
        }
      }
    }
  }

  @Test func everyTruncationIsRefusedAsTruncated() {
    let bytes = Self.small
    for length in 0..<bytes.count {
      do {
        _ = try PlanReader.decode(Array(bytes[..<length]), path: "t.cdm")
        Issue.record("a plan cut to \(length) bytes was accepted")
      } catch {
        #expect(error.code == .truncated, "length \(length): \(error)")
        #expect(error.description.hasPrefix("t.cdm: plan is truncated: expected "))
      }
    }
  }

  @Test func truncationMessageGivesBothLengths() {
    let bytes = Self.small
    let body = bytes.count - 52
    #expect(
      throws: PlanFormatError(
        code: .truncated, message: "plan is truncated: expected \(body) bytes of body, found \(body - 34)",
        offset: bytes.count - 34, path: "diary.cdm")
    ) { try PlanReader.decode(Array(bytes.dropLast(34)), path: "diary.cdm") }
    #expect(
      throws: PlanFormatError(
        code: .truncated, message: "plan is truncated: expected a 52-byte header, found 30 bytes",
        offset: 30, path: "diary.cdm")
    ) { try PlanReader.decode(Array(bytes.prefix(30)), path: "diary.cdm") }
  }

  /// The runtime keeps an entity's index in 16 bits beside an object's row (the id index), so
  /// a model with more entities is refused when the plan is read, not mis-indexed at run time.
  @Test func aModelWithMoreEntitiesThanTheRuntimeIndexesIsRefused() throws {
    func plan(entities n: Int) -> [UInt8] {
      var plan = SamplePlans.small
      plan.sourceModel = ObjectModel(entities: (0..<n).map { EntityDescription(name: "E\($0)") })
      return PlanWriter.encode(plan)
    }
    let limit = ObjectModel.maximumEntityCount
    #expect(try PlanReader.decode(plan(entities: limit)).sourceModel.entities.count == limit)
    do {
      _ = try PlanReader.decode(plan(entities: limit + 1))
      Issue.record("a model with \(limit + 1) entities was accepted")
    } catch {
      #expect(error.code == .malformed)
      #expect(error.message.contains("a model holds at most 65535 entities, not 65536"), "\(error)")
    }
  }

  @Test func extraBytesAfterTheBodyAreRefused() {
    #expect(
      throws: PlanFormatError(
        code: .malformed,
        message: "plan is damaged: 1 unexpected byte after the \(Self.small.count - 52)-byte body",
        offset: Self.small.count)
    ) { try PlanReader.decode(Self.small + [0]) }
  }

  /// Bodies that pass the checksum but are random bytes: the structural decoder must refuse
  /// them as malformed, whatever they hold.
  @Test func randomBodiesWithAValidChecksumAreMalformed() {
    var rng = SplitMix64(seed: 0x6d61_7063)
    for round in 0..<3000 {
      let length = Int(rng.next() % 600)
      var body = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      // Half the time start like a real body, so the string table and later sections are reached.
      if round % 2 == 0, body.count > 3 {
        body[0] = 1
        body[1] = UInt8(min(body.count - 2, 0x7f))
      }
      let plan = Self.envelope(body)
      do {
        _ = try PlanReader.decode(plan)
        Issue.record("random body \(round) decoded")
      } catch {
        #expect(error.code == .malformed, "round \(round): \(error)")
        #expect(error.offset.map { $0 >= 52 && $0 <= plan.count } == true)
      }
    }
  }

  /// Valid bodies with bytes changed and the checksum recomputed: the decoder either reads a
  /// plan (a changed string character is still a plan) or refuses it as malformed; it never
  /// crashes. Every position, several replacement values.
  @Test func everyBodyByteChangeWithAValidChecksumIsSafe() {
    let body = Array(Self.small[52...])
    var refused = 0, accepted = 0
    for i in body.indices {
      for value: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFF, body[i] ^ 0x01, body[i] &+ 1] where value != body[i] {
        var damaged = body
        damaged[i] = value
        do {
          // Whatever decodes must survive its own round trip.
          let plan = try PlanReader.decode(Self.envelope(damaged))
          let again = try PlanReader.decode(PlanWriter.encode(plan))
          #expect(DeepDescription.differences(plan, again) == [], "byte \(52 + i) = \(value)")
          accepted += 1
        } catch {
          #expect(error.code == .malformed, "byte \(52 + i) = \(value): \(error)")
          refused += 1
        }
      }
    }
    #expect(refused > 500)
    #expect(accepted > 0)
  }

  /// The same, on the full sample, sampling positions (it is larger).
  @Test func fullPlanBodyMutationsAreSafe() {
    let body = Array(PlanWriter.encode(SamplePlans.full)[52...])
    var rng = SplitMix64(seed: 42)
    for _ in 0..<4000 {
      var damaged = body
      let changes = 1 + Int(rng.next() % 3)
      for _ in 0..<changes {
        damaged[Int(rng.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: rng.next())
      }
      if rng.next() % 4 == 0 { damaged.removeLast(Int(rng.next() % 50)) }
      do {
        _ = try PlanReader.decode(Self.envelope(damaged))
      } catch {
        #expect(error.code == .malformed, "\(error)")
      }
    }
  }

  @Test func wrongMagicIsRefused() {
    var bytes = Self.small
    bytes.replaceSubrange(0..<8, with: Array("bplist00".utf8))  // an Xcode-compiled .cdm
    #expect(
      throws: PlanFormatError(
        code: .badMagic, message: "not a mapc plan (bad magic bytes)", offset: 0, path: "diary.cdm")
    ) { try PlanReader.decode(bytes, path: "diary.cdm") }
    #expect(throws: PlanFormatError.self) { try PlanReader.decode(Array("{\"json\": 1}".utf8)) }
    let error = #expect(throws: PlanFormatError.self) { try PlanReader.decode(Array("hello".utf8)) }
    #expect(error?.code == .badMagic)
  }

  @Test func futureFormatVersionIsRefused() {
    var bytes = Self.small
    bytes[8] = 7
    #expect(
      throws: PlanFormatError(
        code: .unsupportedVersion,
        message: "plan format version 7 is newer than this mapc supports (1); recompile the mapping with this mapc",
        offset: 8, path: "diary.cdm")
    ) { try PlanReader.decode(bytes, path: "diary.cdm") }
    // Even when the rest of the file is missing, the version is the better message.
    let error = #expect(throws: PlanFormatError.self) { try PlanReader.decode(Array(bytes.prefix(12))) }
    #expect(error?.code == .unsupportedVersion)
  }

  @Test func unknownFlagsAreRefused() {
    var bytes = Self.small
    bytes[10] = 4
    let error = #expect(throws: PlanFormatError.self) { try PlanReader.decode(bytes) }
    #expect(error?.code == .unsupportedVersion)
    #expect(error?.message.contains("flags 0x0004") == true)
  }

  @Test func expressionNestingIsBoundedOnRead() throws {
    func nested(_ depth: Int) -> MigrationPlan {
      var e = Expression.variable("source")
      for _ in 1..<depth { e = Expression(.keyPath(base: e, components: ["k"])) }
      var plan = SamplePlans.small
      plan.entityMappings[0].forEach = CompiledExpression(e)
      return plan
    }
    let deepest = nested(PlanFormat.maximumExpressionDepth)
    #expect(
      PlanFormat.nestingDepth(of: deepest.entityMappings[0].forEach!.expression) == PlanFormat.maximumExpressionDepth)
    #expect(try PlanReader.decode(PlanWriter.encode(deepest)) == deepest)
    let tooDeep = nested(PlanFormat.maximumExpressionDepth + 1)
    let error = #expect(throws: PlanFormatError.self) { try PlanReader.decode(PlanWriter.encode(tooDeep)) }
    #expect(error?.code == .malformed)
    #expect(error?.message.contains("nesting is deeper than 256") == true)
  }

  @Test func predicateNestingCountsTowardsTheBound() {
    var p = Predicate.truePredicate
    for _ in 0..<400 { p = Predicate(.not(p)) }
    var plan = SamplePlans.small
    plan.entityMappings[0].forEach = CompiledExpression(
      Expression(.ternary(condition: p, then: .null, else: .null)))
    #expect(PlanFormat.nestingDepth(of: plan.entityMappings[0].forEach!.expression) == 402)
    let error = #expect(throws: PlanFormatError.self) { try PlanReader.decode(PlanWriter.encode(plan)) }
    #expect(error?.code == .malformed)
  }

  /// A header + `body` with the right length and checksum.
  static func envelope(_ body: [UInt8]) -> [UInt8] {
    var bytes = PlanFormat.magic + [1, 0, 0, 0]
    var n = UInt64(body.count)
    for _ in 0..<8 {
      bytes.append(UInt8(truncatingIfNeeded: n))
      n >>= 8
    }
    bytes += PlanFormat.checksum(of: body)
    return bytes + body
  }
}
