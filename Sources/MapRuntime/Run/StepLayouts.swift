import Foundation

/// Each model version of a chain laid out once (`StoreLayout`, and what a format derives from
/// it): step k's destination layout is step k+1's source layout, so a version is not laid out
/// again for the step that reads what the step before wrote. Only the last one is kept: memory
/// stays one step's, and a few more when they are made ahead (`LayoutsAhead`).
struct StepLayouts {
  private var carried: StoreLayout?
  private let ahead: LayoutsAhead?

  /// Layouts made as each step asks, or, when there is another core and more than one step from
  /// `first` on, made ahead (`formats`: the format each step writes with).
  init(steps: [ChainRun.Step] = [], from first: Int = 0, formats: [any StoreFormat] = []) {
    ahead =
      steps.count - first > 1 && Cores.workers > 1 ? LayoutsAhead(steps: steps, from: first, formats: formats) : nil
  }

  /// The layouts of step `k`: its source's, the previous step's destination layout when that is
  /// of the same model (`MigrationRun` checks it), and a new one for its destination.
  mutating func next(_ k: Int, _ step: ChainRun.Step) -> (source: StoreLayout?, destination: StoreLayout) {
    let destination = ahead?.take(k) ?? StoreLayout(model: step.plan.destinationModel)
    defer { carried = destination }
    return (carried, destination)
  }

  /// Stops making layouts ahead (a chain that fails or ends).
  func finish() { ahead?.cancel() }
}

/// The destination layouts of a chain's steps, made in order on a thread of their own with what
/// each step's store format derives from them (`StoreFormat.prepareLayout`), at most `depth`
/// ahead of the step that takes them, so that the chain's thread finds them made.
final class LayoutsAhead: @unchecked Sendable {
  private let condition = NSCondition()
  private var made: [Int: StoreLayout] = [:]
  private var cancelled = false
  private let depth = 4

  init(steps: [ChainRun.Step], from first: Int, formats: [any StoreFormat]) {
    let models = steps.map(\.plan.destinationModel)
    Thread.detachNewThread { [self] in
      for k in first..<models.count {
        condition.lock()
        while made.count >= depth && !cancelled { condition.wait() }
        let stop = cancelled
        condition.unlock()
        if stop { return }
        let layout = StoreLayout(model: models[k])
        if k < formats.count { formats[k].prepareLayout(layout) }
        condition.lock()
        made[k] = layout
        condition.broadcast()
        condition.unlock()
      }
    }
  }

  /// Step `k`'s destination layout, waiting for it if it is not made yet; each step's once, in
  /// order.
  func take(_ k: Int) -> StoreLayout {
    condition.lock()
    defer { condition.unlock() }
    while made[k] == nil { condition.wait() }
    condition.broadcast()
    return made.removeValue(forKey: k)!
  }

  func cancel() {
    condition.lock()
    cancelled = true
    made = [:]
    condition.broadcast()
    condition.unlock()
  }
}
