import Foundation

/// The plan's string table while it is written: each distinct string once, numbered in order
/// of first use.
///
/// Strings are told apart by their UTF-8 bytes, not by `String`'s `==`, which equates
/// canonically equivalent strings ("é" and "e\u{301}") that must stay distinct in a plan. An
/// open-addressing table over the bytes (FNV-1a hash) finds a string without copying it.
struct PlanStringTable {
  /// Every string's bytes, by number.
  private(set) var strings: [[UInt8]] = []
  /// Numbers of strings by hash slot; -1 for an empty slot. The size is a power of two, at
  /// least twice the number of strings.
  private var slots = [Int32](repeating: -1, count: 1024)

  /// The number of `s`, adding it when it is new.
  mutating func number(of s: String) -> Int {
    var s = s
    return s.withUTF8 { number(ofBytes: $0) }
  }

  private mutating func number(ofBytes utf8: UnsafeBufferPointer<UInt8>) -> Int {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: Self.hash(utf8)) & mask
    while true {
      let n = Int(slots[slot])
      if n < 0 { break }
      if strings[n].withUnsafeBufferPointer({ Self.equal($0, utf8) }) { return n }
      slot = (slot + 1) & mask
    }
    let n = strings.count
    strings.append(Array(utf8))
    slots[slot] = Int32(n)
    if strings.count * 2 > slots.count { grow() }
    return n
  }

  private mutating func grow() {
    slots = [Int32](repeating: -1, count: slots.count * 2)
    let mask = slots.count - 1
    for n in strings.indices {
      var slot = Int(truncatingIfNeeded: strings[n].withUnsafeBufferPointer { Self.hash($0) }) & mask
      while slots[slot] >= 0 { slot = (slot + 1) & mask }
      slots[slot] = Int32(n)
    }
  }

  private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes {
      h ^= UInt64(b)
      h &*= 0x100_0000_01b3
    }
    // FNV's low bits mix poorly: fold the high half in, as the slot is taken from the low bits.
    return h ^ (h >> 32)
  }

  private static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
  }
}
