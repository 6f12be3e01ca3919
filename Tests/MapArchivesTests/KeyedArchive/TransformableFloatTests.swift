import MapArchives
import Testing

/// An `NSNumber` of a `float` is archived as a 4-byte real (marker `0x22`, then the IEEE 754
/// single big-endian). It decodes to that float as a double (what `doubleValue` gives on the
/// device), and since mapc's writer stores 8-byte reals, such an archive is not one writing the
/// value again gives back: the verifier says no. The 4-byte form is made by hand from an archive
/// of an 8-byte real, in place (the object keeps its size, so no offset moves).
@Suite struct TransformableFloatTests {
  static func fourByteReal(_ value: Float, archivedAs double: Double) throws -> [UInt8] {
    var archive = try TransformableArchive.encode(.array([.real(double), .string("x")]))
    let bits = double.bitPattern
    let marker: [UInt8] = [0x23] + (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * $0)) }
    let at = try #require(
      (0...(archive.count - marker.count)).first { archive[$0..<$0 + marker.count].elementsEqual(marker) })
    let single = value.bitPattern
    archive.replaceSubrange(
      at..<at + 9, with: [0x22] + (0..<4).map { UInt8(truncatingIfNeeded: single >> (24 - 8 * $0)) } + [0, 0, 0, 0])
    return archive
  }

  @Test(arguments: [Float(0.1), 1.5, -3.25e10, .leastNonzeroMagnitude])
  func aFourByteRealDecodesToItsFloat(_ value: Float) throws {
    let archive = try Self.fourByteReal(value, archivedAs: 12345.678)
    let decoded = try #require(TransformableArchive.decode(archive))
    #expect(decoded == .array([.real(Double(value)), .string("x")]))
    var verifier = TransformableArchive.Verifier()
    let same = archive.withUnsafeBytes { verifier.matches(decoded, $0) }
    #expect(!same)
  }
}
