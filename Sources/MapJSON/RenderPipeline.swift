import Foundation
import MapJSONText
import MapRuntime

/// Rendering the chunks of a table ahead of the thread that writes them.
///
/// Helper threads take chunks in order and render each into memory, never more than
/// `lookahead` chunks ahead of the one being written. The writing thread takes the chunks in
/// order (`take`); while the one it needs is not ready, it renders the next chunk no helper has
/// started instead of waiting, so all cores stay busy while the writes go to the kernel.
final class RenderPipeline: @unchecked Sendable {
  typealias Render = @Sendable (_ chunk: Int, _ reusing: RenderedBytes?) -> Result<RenderedBytes, StoreWriteError>

  let chunks: Int
  private let lookahead: Int
  private let render: Render
  private let condition = NSCondition()
  private let helpers = DispatchGroup()
  // Guarded by `condition`:
  /// Chunks handed out so far (they are handed out in order).
  private var claimed = 0
  /// Chunks written so far.
  private var done = 0
  /// Rendered chunks not yet taken, at `chunk % lookahead`.
  private var slots: [Result<RenderedBytes, StoreWriteError>?]
  /// Memory of written chunks, to render into again.
  private var spare: [RenderedBytes] = []
  private var stopped = false

  init(chunks: Int, lookahead: Int, render: @escaping Render) {
    self.chunks = chunks
    self.lookahead = max(lookahead, 1)
    self.render = render
    slots = Array(repeating: nil, count: self.lookahead)
  }

  /// Starts `n` helper threads.
  func start(helpers n: Int) {
    for _ in 0..<n {
      DispatchQueue.global().async(group: helpers) { self.help() }
    }
  }

  private func help() {
    condition.lock()
    while true {
      while !stopped && claimed < chunks && claimed >= done + lookahead { condition.wait() }
      guard !stopped, claimed < chunks else { break }
      renderNextChunk()
    }
    condition.unlock()
  }

  /// Chunk `k`; chunks must be taken in order. While it is not rendered yet, this thread
  /// renders the next chunk no helper has started (`k` itself first) instead of waiting.
  func take(_ k: Int) -> Result<RenderedBytes, StoreWriteError> {
    precondition(k == done, "chunks are taken in order")
    condition.lock()
    while slots[k % lookahead] == nil {
      if claimed < chunks && claimed < done + lookahead {
        renderNextChunk()
      } else {
        condition.wait()
      }
    }
    let result = slots[k % lookahead]!
    slots[k % lookahead] = nil
    condition.unlock()
    return result
  }

  /// Claims the next chunk and renders it into a slot, outside the lock; called, and
  /// returns, with `condition` locked.
  private func renderNextChunk() {
    let k = claimed
    claimed += 1
    let reusing = spare.popLast()
    condition.unlock()
    let result = render(k, reusing)
    condition.lock()
    slots[k % lookahead] = result
    condition.broadcast()
  }

  /// Says chunk `k` is written; its memory is rendered into again.
  func written(_ k: Int, keeping bytes: RenderedBytes) {
    condition.lock()
    spare.append(bytes)
    done = k + 1
    condition.broadcast()
    condition.unlock()
  }

  /// Stops the helpers, waits for them, and frees the memory of every chunk.
  func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
    helpers.wait()
    for b in spare { b.free() }
    for case .success(let b)? in slots { b.free() }
    spare = []
    slots = Array(repeating: nil, count: lookahead)
  }
}
