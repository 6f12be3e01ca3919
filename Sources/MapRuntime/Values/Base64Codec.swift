/// Binary store values: standard base64 (RFC 4648 §4, alphabet `A–Z a–z 0–9 + /`) with `=`
/// padding.
///
/// Decoding is strict: the length is a multiple of four, only alphabet characters appear
/// (no whitespace, no line breaks, no URL-safe `-`/`_`), `=` appears only as the last one or
/// two characters, and the bits that padding leaves unused are zero — so every byte string
/// has exactly one accepted text, the one `encode` writes.
package enum Base64Codec {
  static let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

  /// 0–63 for alphabet bytes, 0xFF for everything else.
  static let decodeTable: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    let p = alphabet.utf8Start
    for k in 0..<64 { table[Int(p[k])] = UInt8(k) }
    return table
  }()

  /// Number of base64 characters for `byteCount` bytes.
  @inline(__always)
  package static func encodedLength(_ byteCount: Int) -> Int { (byteCount + 2) / 3 * 4 }

  /// The base64 text of `bytes`.
  package static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
    String(unsafeUninitializedCapacity: encodedLength(bytes.count)) { buffer in
      encode(bytes, into: buffer.baseAddress!)
    }
  }

  /// The base64 text of `bytes`.
  package static func encode(_ bytes: [UInt8]) -> String {
    bytes.withUnsafeBytes { encode($0) }
  }

  /// Writes the base64 text of `bytes` at `output` (room for `encodedLength(bytes.count)`
  /// bytes); returns its length.
  @discardableResult
  package static func encode(
    _ bytes: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    let n = bytes.count
    guard n > 0 else { return 0 }
    let p = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
    let a = alphabet.utf8Start
    var i = 0
    var o = 0
    while i + 3 <= n {
      let v = UInt32(p[i]) << 16 | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2])
      output[o] = a[Int(v >> 18)]
      output[o + 1] = a[Int(v >> 12 & 63)]
      output[o + 2] = a[Int(v >> 6 & 63)]
      output[o + 3] = a[Int(v & 63)]
      i += 3
      o += 4
    }
    let rest = n - i
    if rest > 0 {
      let v = UInt32(p[i]) << 16 | (rest == 2 ? UInt32(p[i + 1]) << 8 : 0)
      output[o] = a[Int(v >> 18)]
      output[o + 1] = a[Int(v >> 12 & 63)]
      output[o + 2] = rest == 2 ? a[Int(v >> 6 & 63)] : UInt8(ascii: "=")
      output[o + 3] = UInt8(ascii: "=")
      o += 4
    }
    return o
  }

  /// The bytes of a base64 text (UTF-8), strictly checked.
  package static func decode(_ text: UnsafeRawBufferPointer) throws(StoreValueError) -> [UInt8] {
    let n = text.count
    guard n > 0 else { return [] }
    guard n % 4 == 0 else {
      throw StoreValueError(
        .invalidBase64,
        "base64 text has \(n) characters, which is not a multiple of 4 (padding with '=' is required)"
      )
    }
    let p = text.baseAddress!.assumingMemoryBound(to: UInt8.self)
    var padding = 0
    if p[n - 1] == UInt8(ascii: "=") { padding = p[n - 2] == UInt8(ascii: "=") ? 2 : 1 }
    let result: Result<[UInt8], StoreValueError> = decodeTable.withUnsafeBufferPointer { table in
      func bad(_ at: Int) -> StoreValueError {
        let c = p[at]
        let shown =
          c == UInt8(ascii: "=")
          ? "'=' before the end"
          : c >= 0x20 && c < 0x7F
            ? "'\(Character(UnicodeScalar(c)))'"
            : "byte 0x\((c < 16 ? "0" : "") + String(c, radix: 16, uppercase: true))"
        return StoreValueError(
          .invalidBase64, "invalid base64: \(shown) at character \(at + 1) of \(n)")
      }
      let outputCount = n / 4 * 3 - padding
      var output = [UInt8](repeating: 0, count: outputCount)
      var failure: StoreValueError?
      output.withUnsafeMutableBufferPointer { out in
        var o = 0
        var i = 0
        let fullQuads = padding > 0 ? n - 4 : n
        while i < fullQuads {
          let a = table[Int(p[i])]
          let b = table[Int(p[i + 1])]
          let c = table[Int(p[i + 2])]
          let d = table[Int(p[i + 3])]
          if (a | b | c | d) & 0xC0 != 0 {
            for k in 0..<4 where table[Int(p[i + k])] == 0xFF {
              failure = bad(i + k)
              return
            }
          }
          let v = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
          out[o] = UInt8(truncatingIfNeeded: v >> 16)
          out[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
          out[o + 2] = UInt8(truncatingIfNeeded: v)
          o += 3
          i += 4
        }
        guard padding > 0 else { return }
        let kept = 4 - padding
        var v: UInt32 = 0
        for k in 0..<kept {
          let x = table[Int(p[i + k])]
          if x == 0xFF {
            failure = bad(i + k)
            return
          }
          v |= UInt32(x) << (18 - 6 * UInt32(k))
        }
        let unusedBits: UInt32 = padding == 1 ? 0xFF : 0xFFFF
        if v & unusedBits != 0 {
          failure = StoreValueError(
            .invalidBase64,
            "invalid base64: the bits before the '=' padding are not zero (not the canonical encoding)"
          )
          return
        }
        out[o] = UInt8(truncatingIfNeeded: v >> 16)
        if padding == 1 { out[o + 1] = UInt8(truncatingIfNeeded: v >> 8) }
      }
      if let failure { return .failure(failure) }
      return .success(output)
    }
    return try result.get()
  }

  /// The bytes of a base64 text, strictly checked.
  package static func decode(_ text: String) throws(StoreValueError) -> [UInt8] {
    try withUTF8Bytes(of: text) { bytes throws(StoreValueError) in try decode(bytes) }
  }
}
