/// A 64-bit hash keyed by the process's seed (`Hasher`, seeded anew by each process, so that no
/// store can be made to collide) and a salt: two salts give the two halves of a 128-bit key
/// (`ChunkLinks`' sums of links, `MemberPlaces`' keys).
enum KeyedHash {
  static func of(_ salt: UInt8, _ parts: (inout Hasher) -> Void) -> UInt64 {
    var h = Hasher()
    h.combine(salt)
    parts(&h)
    return UInt64(bitPattern: Int64(h.finalize()))
  }
}
