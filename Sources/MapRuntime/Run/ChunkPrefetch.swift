import Dispatch

/// Reads the next chunk of a store on a thread of its own while the run migrates and writes
/// the current one (`StreamingRun`): one chunk ahead at most, so two chunks' input is in memory
/// at once, which the budget's window (a tenth of the limit) allows for. The chunks come in
/// the reader's order; the reader is used by one thread at a time.
final class ChunkPrefetch: @unchecked Sendable {
  private let reader: any StoreChunkReader
  private let group = DispatchGroup()
  private var pending: Result<ObjectGraph?, MigrationFailure>?
  private var reading = false
  private var done = false

  init(_ reader: any StoreChunkReader) { self.reader = reader }

  /// The next chunk (nil after the last); the one after it starts being read at once.
  func next() throws(MigrationFailure) -> ObjectGraph? {
    if !reading { start() }
    group.wait()
    reading = false
    let result = pending!
    pending = nil
    switch result {
    case .success(let chunk?):
      start()
      return chunk
    case .success(nil):
      done = true
      return nil
    case .failure(let e):
      done = true
      throw e
    }
  }

  /// Waits for a read under way (a run that stops early), so the reader is free.
  func stop() {
    if reading { group.wait() }
    reading = false
  }

  private func start() {
    guard !done else { return }
    reading = true
    group.enter()
    DispatchQueue.global().async { [self] in
      do throws(MigrationFailure) {
        pending = .success(try reader.next())
      } catch {
        pending = .failure(error)
      }
      group.leave()
    }
  }
}
