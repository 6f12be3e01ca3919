import Foundation
import MapJSONText
import Testing

@testable import MapJSON
@testable import MapRuntime

/// The writer's pipeline hands rendered chunks back in order, never renders further ahead than
/// its lookahead, reuses memory, and stops cleanly after a failed chunk.
@Suite struct RenderPipelineTests {
  /// An integer shared between threads (a lock, not `Synchronization.Atomic`, which needs
  /// macOS 15 where the package supports macOS 13).
  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func load() -> Int { lock.withLock { value } }
    func store(_ v: Int) { lock.withLock { value = v } }
    func add(_ n: Int) { lock.withLock { value += n } }
    func max(_ v: Int) { lock.withLock { value = Swift.max(value, v) } }
  }

  /// Renders chunk `k` as its number and a comma, after a pause of up to `maxPause`
  /// microseconds; records how far ahead of the chunks taken so far each render was.
  final class Renderer: Sendable {
    let taken = Counter()
    let furthestAhead = Counter()
    let reused = Counter()
    let failing: Int?
    let maxPause: UInt32
    init(failing: Int? = nil, maxPause: UInt32 = 300) {
      self.failing = failing
      self.maxPause = maxPause
    }

    func render(_ k: Int, _ reusing: RenderedBytes?) -> Result<RenderedBytes, StoreWriteError> {
      let ahead = k - taken.load()
      furthestAhead.max(ahead)
      usleep(UInt32.random(in: 0...maxPause))
      if k == failing { return .failure(.unwritable("chunk \(k) cannot be written")) }
      let text = Array("\(k),".utf8)
      var capacity = 64
      var pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
      if let reusing, let p = reusing.pointer {
        pointer.deallocate()
        pointer = p
        capacity = reusing.capacity
        reused.add(1)
      }
      pointer.update(from: text, count: text.count)
      return .success(RenderedBytes(pointer: pointer, count: text.count, capacity: capacity, containerIsEmpty: false))
    }
  }

  @Test(arguments: [0, 1, 3])
  func chunksComeBackInOrder(helpers: Int) {
    let renderer = Renderer()
    let pipeline = RenderPipeline(chunks: 300, lookahead: 4) { renderer.render($0, $1) }
    pipeline.start(helpers: helpers)
    var out = ""
    for k in 0..<pipeline.chunks {
      guard case .success(let bytes) = pipeline.take(k) else {
        Issue.record("chunk \(k) failed")
        break
      }
      out += String(decoding: UnsafeBufferPointer(start: bytes.pointer, count: bytes.count), as: UTF8.self)
      renderer.taken.store(k + 1)
      pipeline.written(k, keeping: bytes)
    }
    pipeline.stop()
    #expect(out == (0..<300).map { "\($0)," }.joined())
    #expect(renderer.furthestAhead.load() < 4)
    #expect(renderer.reused.load() >= 300 - 4)
  }

  @Test func aFailedChunkIsReportedInItsPlaceAndTheHelpersStop() {
    let renderer = Renderer(failing: 37)
    let pipeline = RenderPipeline(chunks: 200, lookahead: 6) { renderer.render($0, $1) }
    pipeline.start(helpers: 2)
    var failedAt: Int?
    for k in 0..<pipeline.chunks {
      switch pipeline.take(k) {
      case .success(let bytes):
        renderer.taken.store(k + 1)
        pipeline.written(k, keeping: bytes)
        continue
      case .failure(let error):
        #expect(error.description == "chunk 37 cannot be written")
        failedAt = k
      }
      break
    }
    pipeline.stop()  // returns only once the helpers have stopped
    #expect(failedAt == 37)
    #expect(renderer.furthestAhead.load() < 6)
  }
}
