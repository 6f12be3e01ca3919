import Foundation
import MapArchives
import MapRuntime

/// The codec of the Transformable payloads of a graph read from Core Data's SQLite store: each
/// payload is the column's bytes as stored, after one byte that says whether they may be an
/// `NSKeyedArchiver` archive (1) or are a custom value transformer's (0)
/// (`TransformableBlobs`), or (2) the archive of a value built from columns (a Composite
/// attribute's dictionary), which is that value. Archives are read when something looks inside
/// them, never when the bytes are only written to another SQLite store.
enum ArchivedBlobCodec: TransformableCodec {
  static func payload(_ input: InputBytes, _ s: ByteSlice) -> TransformablePayload {
    let all = input.unsafeBytes
    let bytes = Array(all[s.start..<s.end])
    if s.start > 0, all[s.start - 1] == 2, let v = bytes.withUnsafeBytes({ TransformableArchive.decode($0) }) {
      return .value(v)
    }
    guard s.start > 0, all[s.start - 1] == 1,
      let v = bytes.withUnsafeBytes({ TransformableArchive.decode($0) })
    else { return .bytes(bytes, archived: nil) }
    let same = VerifierPool.shared.withVerifier { verifier in bytes.withUnsafeBytes { verifier.matches(v, $0) } }
    return .bytes(bytes, archived: same ? v : nil)
  }

  static func value(_ input: InputBytes, _ s: ByteSlice) -> Value { payload(input, s).mappingValue }

  static func elements(_ input: InputBytes, _ s: ByteSlice, into items: inout [Value]) -> Bool {
    items.removeAll(keepingCapacity: true)
    guard case .array(let all) = value(input, s) else { return false }
    items.append(contentsOf: all)
    return true
  }

  static func arrayCount(_ input: InputBytes, _ s: ByteSlice) -> Int? {
    guard case .array(let all) = value(input, s) else { return nil }
    return all.count
  }
}

/// Verifiers kept from one payload to the next (`TransformableArchive.Verifier` keeps its scratch
/// arrays between calls; a new one per payload copied its constants and grew its arrays again:
/// three quarters of the time of reading a column of archived arrays). One per thread at a time.
final class VerifierPool: @unchecked Sendable {
  static let shared = VerifierPool()
  private let lock = NSLock()
  private var idle: [TransformableArchive.Verifier] = []

  func withVerifier<R>(_ body: (inout TransformableArchive.Verifier) -> R) -> R {
    var verifier = lock.withLock { idle.popLast() } ?? TransformableArchive.Verifier()
    let result = body(&verifier)
    lock.withLock { if idle.count < 8 { idle.append(verifier) } }
    return result
  }
}
