import Foundation
import MapArchives
import MapRuntime

/// The Transformable values of a store that keeps them as bytes (Core Data's SQLite store), as
/// the payloads a graph's `.transformable` values point to (`ArchivedBlobCodec`): the bytes as
/// stored, each after one byte that says whether they may be an archive (Specs/sqlite-store.md
/// §5.1). Nothing is decoded here: a mapping that looks inside a value decodes it then, and a
/// store written from the graph takes the bytes as they are or the value they archive.
struct TransformableBlobs: Sendable {
  /// The payloads, one after another; the `.transformable` slices returned point into them
  /// (offset by `base`).
  let bytes: ByteArena
  let base: Int
  /// Per column, the last few values read and their slices: equal values share their bytes, as
  /// a JSON store's do (`StringCompaction`), which the interpreter's caches rely on. One list
  /// per column, so that a column of distinct values (the diary's answers) does not push out
  /// the few values another column repeats (its questions).
  private var recent: [[(blob: [UInt8], decoding: Bool, slice: ByteSlice)]] = []
  private var next: [Int] = []

  /// `expected`: about how many bytes of payloads to expect (the store file's size), reserved
  /// as address space so that the payloads are not copied as they grow (`ByteArena`).
  init(base: Int = 0, expected: Int = 0) {
    self.base = base
    bytes = ByteArena(expected: expected)
  }

  /// The value of a Transformable column's bytes. `decoding`: false for an attribute with a
  /// custom value transformer, whose bytes are never taken as an archive.
  mutating func value(_ blob: [UInt8], decoding: Bool, column: Int = 0) -> Value {
    blob.withUnsafeBytes { value($0, decoding: decoding, column: column) }
  }

  /// The value of bytes that are valid only during the call (a column read in place): copied
  /// only when they are not one of the last few values of `column` (any number that tells the
  /// caller's columns apart).
  mutating func value(_ blob: UnsafeRawBufferPointer, decoding: Bool, column: Int = 0) -> Value {
    while recent.count <= column {
      recent.append([])
      next.append(0)
    }
    for r in recent[column] where r.blob.count == blob.count && r.decoding == decoding {
      let same = r.blob.withUnsafeBytes { kept in
        blob.count == 0 || memcmp(kept.baseAddress!, blob.baseAddress!, blob.count) == 0
      }
      if same { return .transformable(r.slice) }
    }
    bytes.append(decoding ? 1 : 0)
    let start = bytes.count
    bytes.append(blob)
    let slice = ByteSlice(start: base + start, count: blob.count, hasEscapes: false)
    if recent[column].count < 8 {
      recent[column].append((Array(blob), decoding, slice))
    } else {
      // The slot's bytes are replaced in the memory they had (no allocation per value).
      let n = next[column]
      recent[column][n].slice = slice
      recent[column][n].decoding = decoding
      recent[column][n].blob.removeAll(keepingCapacity: true)
      recent[column][n].blob.append(contentsOf: blob)
      next[column] = (n + 1) % 8
    }
    return .transformable(slice)
  }

  /// The value of a Composite attribute read from its element columns (`CoreDataComposites`):
  /// its dictionary archived, after the byte 2 (a value with no stored bytes of its own,
  /// `ArchivedBlobCodec`).
  mutating func composite(_ v: ArchivedValue) throws(ArchivedValueError) -> Value {
    let archive = try TransformableArchive.encode(v)
    bytes.append(2)
    let start = bytes.count
    bytes.append(archive)
    return .transformable(ByteSlice(start: base + start, count: archive.count, hasEscapes: false))
  }

  /// A Binary value kept in an external file that is missing: the column's bytes (`0x02`, the
  /// UUID, `0x00`) after the byte 3, which a writer of an SQLite store copies as they are and
  /// anything else refuses (`ArchivedBlobCodec.unreadable`; Specs/sqlite-store.md §5).
  mutating func missingExternal(_ reference: [UInt8]) -> Value {
    bytes.append(3)
    let start = bytes.count
    bytes.append(reference)
    return .transformable(ByteSlice(start: base + start, count: reference.count, hasEscapes: false))
  }

  /// Appends the payloads of another reader's values (one that read other rows of the same
  /// store); returns what to add to the start of its slices.
  mutating func append(_ other: TransformableBlobs) -> Int {
    let shift = base + bytes.count - other.base
    bytes.append(other.bytes)
    return shift
  }
}
