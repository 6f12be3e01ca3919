import Foundation
import MapArchives
import MapRuntime
import MapTestSupport
import Testing

/// Hostile archives inside a real mapping model (billmoss Model1ToModel2, copied): each is a
/// clear error at the line of the `<attribute>` that holds it, naming the object and what is
/// wrong, found fast; never a crash or a hang.
@Suite(.enabled(if: SharedPaths.corpus != nil, Comment(rawValue: SharedPaths.absentMessage)))
struct XcodeHostileArchiveTests {
  static let functionChain = ["NSFunctionExpression", "NSExpression", "NSObject"]
  static let selfChain = ["NSSelfExpression", "NSExpression", "NSObject"]

  static func function(_ b: inout KeyedArchiveBuilder, _ slot: PropertyListValue, operand: PropertyListValue) {
    let args = b.array([])
    b.fill(
      slot, "NSFunctionExpression", classes: functionChain,
      fields: [
        .init("NSExpressionType", .integer(4)), .init("NSSelectorName", b.string("description")),
        .init("NSOperand", operand), .init("NSArguments", args),
      ])
  }

  /// Archives nobody should accept, by name.
  static let archives: [(String, [UInt8], [String])] = {
    var cases: [(String, [UInt8], [String])] = []
    do {
      var b = KeyedArchiveBuilder()
      let first = b.reserve()
      let second = b.reserve()
      function(&b, first, operand: second)
      function(&b, second, operand: first)
      cases.append(("a cycle of operands", b.archive(root: first), ["cycle"]))
    }
    do {
      var b = KeyedArchiveBuilder()
      let root = b.reserve()
      function(&b, root, operand: .uid(999))
      cases.append(("a reference past the object table", b.archive(root: root), ["999"]))
    }
    do {
      var b = KeyedArchiveBuilder()
      let root = b.add("NSMysteryExpression", classes: ["NSMysteryExpression", "NSExpression", "NSObject"], fields: [])
      cases.append(("an unknown class", b.archive(root: root), ["NSMysteryExpression"]))
    }
    do {
      var b = KeyedArchiveBuilder()
      let slots = (0..<10_000).map { _ in b.reserve() }
      let end = b.add("NSSelfExpression", classes: selfChain, fields: [.init("NSExpressionType", .integer(1))])
      for (i, slot) in slots.enumerated() { function(&b, slot, operand: i + 1 < slots.count ? slots[i + 1] : end) }
      cases.append(("a 10,000-deep nesting", b.archive(root: slots[0]), ["\(KeyedArchive.maximumDepth)"]))
    }
    // A top-level array declaring 2^62 elements: [0xAF, int 2^62].
    let huge = RawPlist.make([[0xAF, 0x13] + RawPlist.bigEndian(1 << 62, 8)])
    cases.append(("a count of 2^62", huge, ["larger than the file"]))
    return cases
  }()

  static func replaceBinary(_ name: String, with bytes: [UInt8], in xml: String) -> String {
    guard let r = xml.range(of: "<attribute name=\"\(name)\" type=\"binary\">"),
      let end = xml.range(of: "</attribute>", range: r.upperBound..<xml.endIndex)
    else { return xml }
    return xml.replacingCharacters(in: r.upperBound..<end.lowerBound, with: Data(bytes).base64EncodedString())
  }

  @Test(arguments: 0..<5)
  func aHostileValueExpressionIsAnErrorAtItsLine(_ index: Int) throws {
    let (name, bytes, words) = Self.archives[index]
    let start = ContinuousClock.now
    let output = try XcodeEnvelopeTests.compile(edit: { Self.replaceBinary("valueexpressiondata", with: bytes, in: $0) }
    )
    #expect(ContinuousClock.now - start < .seconds(5), "\(name)")
    #expect(output.plan == nil)
    let d = try #require(output.diagnostics.first { $0.id == "xcmap-archive" }, "\(name): \(output.diagnostics)")
    #expect(d.location?.line == 95, "\(name)")
    #expect(d.message.contains("timeBudget"), "\(name)")
    for w in words { #expect(d.message.contains(w), "\(name): \(d.message)") }
  }

  @Test(arguments: 0..<5)
  func aHostileModelSnapshotIsAnErrorAtItsLine(_ index: Int) throws {
    let (name, bytes, _) = Self.archives[index]
    let output = try XcodeEnvelopeTests.compile(edit: { Self.replaceBinary("sourcemodeldata", with: bytes, in: $0) })
    #expect(output.plan == nil)
    let d = try #require(output.diagnostics.first { $0.id == "xcmap-snapshot" }, "\(name): \(output.diagnostics)")
    #expect(d.location?.line == 69, "\(name)")
    #expect(d.message.contains("source model"), "\(name)")
  }
}
