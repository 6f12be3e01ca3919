import Foundation
import MapArchives

/// Scratch kept from one payload to the next, one per thread at a time: a
/// `TransformableArchive.Verifier` keeps its arrays between calls (a new one per payload copied
/// its constants and grew its arrays again: three quarters of the time of reading a column of
/// archived arrays), and a decoding's string spans (`ArchivedBlobCodec.value`) their storage.
final class ScratchPool<Scratch>: @unchecked Sendable {
  private let lock = NSLock()
  private var idle: [Scratch] = []
  private let make: @Sendable () -> Scratch

  init(_ make: @escaping @Sendable () -> Scratch) { self.make = make }

  func with<R>(_ body: (inout Scratch) -> R) -> R {
    var scratch = lock.withLock { idle.popLast() } ?? make()
    let result = body(&scratch)
    lock.withLock { if idle.count < 8 { idle.append(scratch) } }
    return result
  }
}

enum ArchiveScratch {
  static let verifiers = ScratchPool { TransformableArchive.Verifier() }
  static let spans = ScratchPool<[Int]> { [] }
}
