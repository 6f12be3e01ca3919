import MapArchives
import Testing

/// An archived `NSSet` or `NSOrderedSet` (and their mutable forms) is read as an array of its
/// members in the archive's order: what a mapping iterates, counts and tests membership in.
/// mapc's writer archives arrays as `NSArray`, so the verifier never takes such an archive for
/// the encoding of that array. The archive is laid out here by hand, as `NSKeyedArchiver` lays
/// out a collection (`NS.objects`, then `$class`; the class dictionary after the members).
@Suite struct TransformableSetTests {
  static func archive(_ members: [String], class name: String) -> [UInt8] {
    typealias P = PropertyListValue
    let n = UInt64(members.count)
    var objects: [P] = [.string("$null")]
    objects.append(
      .dictionary([.init("NS.objects", .array((0..<n).map { .uid(2 + $0) })), .init("$class", .uid(2 + n))]))
    objects += members.map(P.string)
    objects.append(
      .dictionary([
        .init("$classname", .string(name)), .init("$classes", .array([.string(name), .string("NSObject")])),
      ]))
    return BinaryPropertyListWriter.write(
      .dictionary([
        .init("$version", .integer(100_000)), .init("$objects", .array(objects)),
        .init("$archiver", .string("NSKeyedArchiver")), .init("$top", .dictionary([.init("root", .uid(1))])),
      ]))
  }

  @Test(arguments: ["NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet"])
  func aSetIsReadAsItsMembers(_ name: String) throws {
    let bytes = Self.archive(["b", "a", "c"], class: name)
    let decoded = try #require(TransformableArchive.decode(bytes))
    #expect(decoded == .array([.string("b"), .string("a"), .string("c")]))
    var verifier = TransformableArchive.Verifier()
    #expect(!bytes.withUnsafeBytes { verifier.matches(decoded, $0) })
  }

  /// The control: the same layout with `NSArray` is the array, and the verifier agrees with
  /// what mapc's writer makes of it exactly when the bytes are the same.
  @Test func theSameLayoutAsAnArray() throws {
    let bytes = Self.archive(["b", "a", "c"], class: "NSArray")
    let decoded = try #require(TransformableArchive.decode(bytes))
    #expect(decoded == .array([.string("b"), .string("a"), .string("c")]))
    var verifier = TransformableArchive.Verifier()
    let written = try TransformableArchive.encode(decoded)
    #expect(bytes.withUnsafeBytes { verifier.matches(decoded, $0) } == (written == bytes))
  }
}
