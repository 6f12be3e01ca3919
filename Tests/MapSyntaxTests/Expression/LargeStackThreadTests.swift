import Foundation
import MapRuntime
@testable import MapSyntax
import Testing

/// The parser runs deep texts on a thread of its own (`LargeStackThread`). When `run` returns,
/// that thread must be gone and hold nothing: before, the worker kept the parse result (and the
/// work closure with the whole token list) until its own teardown, which ran after the caller
/// had already returned. A process exiting in that window made the address sanitizer report the
/// last parsed tree as leaked (Fuzz/regressions/expression/leak-*), and every deep parse kept
/// its tokens and tree alive for a moment longer than its caller did.
@Suite struct LargeStackThreadTests {
  final class Canary: @unchecked Sendable {}

  @Test func nothingOutlivesRun() {
    var lingering = 0
    for _ in 0..<300 {
      weak var weakResult: Canary?
      weak var weakCaptured: Canary?
      do {
        let captured = Canary()
        weakCaptured = captured
        let result = LargeStackThread.run(stackBytes: 1 << 20) { [captured] () -> Canary in
          withExtendedLifetime(captured) { Canary() }
        }
        weakResult = result
      }
      // Checked at once, with no waiting: the worker has finished by the time `run` returns.
      if weakResult != nil || weakCaptured != nil { lingering += 1 }
    }
    #expect(lingering == 0, "\(lingering) of 300 runs left the result or the closure alive")
  }

  @Test func deepPredicateParsesOnTheWorker() throws {
    // More than ExpressionGrammar.inlineNestingLimit levels: parsed on the large-stack thread.
    let text = "a != " + String(repeating: "1 - (", count: 60) + "b" + String(repeating: ")", count: 60)
    let predicate = try ExpressionParser.parsePredicate(text)
    #expect(try ExpressionParser.parsePredicate(predicate.description) == predicate)
  }
}
