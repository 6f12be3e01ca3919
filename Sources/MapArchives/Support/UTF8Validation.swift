/// Bytes read as a string only when they are well-formed UTF-8: `String(validating:as:)` where
/// the standard library has it (Linux; macOS 15 and later), the same check by transcoding on
/// the older macOS versions the package supports (macOS 13 and 14).
package enum UTF8Validation {
  @inline(__always)
  package static func string<C: Collection>(_ bytes: C) -> String? where C.Element == UInt8 {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      return String(validating: bytes, as: UTF8.self)
    }
    return olderString(bytes)
  }

  /// The check without `String(validating:as:)`: transcoding UTF-8 to itself stops at the
  /// first ill-formed sequence.
  static func olderString<C: Collection>(_ bytes: C) -> String? where C.Element == UInt8 {
    let failed = transcode(bytes.makeIterator(), from: UTF8.self, to: UTF8.self, stoppingOnError: true) { _ in }
    return failed ? nil : String(decoding: bytes, as: UTF8.self)
  }
}
