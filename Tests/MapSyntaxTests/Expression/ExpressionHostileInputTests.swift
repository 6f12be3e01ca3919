import Foundation
import MapRuntime
import MapSyntax
import Testing

/// Deep nesting, long chains and huge texts end in errors or quick results, never a stack
/// overflow or a hang.
@Suite struct ExpressionHostileInputTests {
  struct NestingForm: Sendable, CustomStringConvertible {
    var name: String
    var predicate: Bool
    var build: @Sendable (Int) -> String
    var description: String { name }
  }

  static func r(_ s: String, _ n: Int) -> String { String(repeating: s, count: n) }

  static let forms: [NestingForm] = [
    .init(name: "parentheses", predicate: false) { r("(", $0) + "a" + r(")", $0) },
    .init(name: "predicate parentheses", predicate: true) { r("(", $0) + "a == 1" + r(")", $0) },
    .init(name: "parenthesized expression in a predicate", predicate: true) {
      r("(", $0) + "a" + r(")", $0) + " == 1"
    },
    .init(name: "NOT chain", predicate: true) { r("NOT ", $0) + "a == 1" },
    .init(name: "! chain", predicate: true) { r("!", $0) + "TRUEPREDICATE" },
    .init(name: "unary minus chain", predicate: false) { r("- ", $0) + "x" },
    .init(name: "subscript chain", predicate: false) { "a" + r("[0]", $0) },
    .init(name: "nested subscripts", predicate: false) { r("a[", $0) + "0" + r("]", $0) },
    .init(name: "key path after call chain", predicate: false) { "now()" + r(".a[0]", $0) },
    .init(name: "aggregates", predicate: false) { r("{", $0) + r("}", $0) },
    .init(name: "FUNCTION", predicate: false) { r("FUNCTION(", $0) + "$x" + r(", \"y\")", $0) },
    .init(name: "built-in function", predicate: false) { r("abs:(", $0) + "1" + r(")", $0) },
    .init(name: "CAST", predicate: false) { r("CAST(", $0) + "1" + r(", \"NSDate\")", $0) },
    .init(name: "FETCH", predicate: false) { r("FETCH(", $0) + "$r" + r(", $c, NO)", $0) },
    .init(name: "TERNARY", predicate: false) { r("TERNARY(a == 1, ", $0) + "0" + r(", 2)", $0) },
    .init(name: "SUBQUERY", predicate: true) {
      r("SUBQUERY(xs, $x, ", $0) + "TRUEPREDICATE" + r(").@count > 0", $0)
    },
    .init(name: "assignment chain", predicate: false) { r("$a := ", $0) + "1" },
    .init(name: "left-deep sum", predicate: false) { "1" + r(" + 1", $0) },
    .init(name: "left-deep power", predicate: false) { "2" + r(" ** 2", $0) },
    .init(name: "left-deep union", predicate: false) { "a" + r(" UNION a", $0) },
    .init(name: "right-nested sum", predicate: false) { r("1 + (", $0) + "1" + r(")", $0) },
    .init(name: "mixed calls and operators", predicate: false) {
      r("-(1 + abs:({", $0) + "x" + r("}[0]) * 2)", $0)
    },
  ]

  static func parse(_ text: String, predicate: Bool) -> Result<String, ExpressionSyntaxError> {
    do throws(ExpressionSyntaxError) {
      if predicate {
        let p = try ExpressionParser.parsePredicate(text)
        return .success(p.description)
      }
      let e = try ExpressionParser.parseExpression(text)
      return .success(e.description)
    } catch {
      return .failure(error)
    }
  }

  /// The deepest nesting of `form` that parses, up to 260 (a binary search: a form that
  /// parses at n levels parses at fewer).
  static func deepestAccepted(_ form: NestingForm) -> Int? {
    func accepts(_ n: Int) -> Bool {
      if case .success = parse(form.build(n), predicate: form.predicate) { return true }
      return false
    }
    guard accepts(1), !accepts(260) else { return nil }
    var (good, bad) = (1, 260)
    while bad - good > 1 {
      let middle = (good + bad) / 2
      if accepts(middle) { good = middle } else { bad = middle }
    }
    return good
  }

  @Test(arguments: forms)
  func deepNestingIsRefusedWithTooDeep(_ form: NestingForm) {
    let text = form.build(2_000)
    #expect(text.utf8.count <= ExpressionParser.maxInputBytes, "make the form shorter")
    switch Self.parse(text, predicate: form.predicate) {
    case .success:
      Issue.record("\(form) with 2000 levels parsed")
    case .failure(let error):
      #expect(error.rule == .tooDeep, "\(error)")
    }
  }

  @Test(arguments: forms)
  func nestingUpToTheLimitParsesAndRoundTrips(_ form: NestingForm) throws {
    let deepest = try #require(Self.deepestAccepted(form))
    // A level of a form adds up to six tree levels (the mixed form), so every form nests at
    // least 100 / 6 levels; none gets past the nesting limit.
    #expect(deepest >= ExpressionParser.maxDepth / 6, "\(form): \(deepest)")
    #expect(deepest <= ExpressionParser.maxNesting, "\(form): \(deepest)")
    let text = form.build(deepest)
    guard case .success(let printed) = Self.parse(text, predicate: form.predicate) else { return }
    let again = Self.parse(printed, predicate: form.predicate)
    #expect((try? again.get()) == printed, "\(form)")
  }

  /// The deepest accepted texts of every form parse, print and compare on a thread with a
  /// 512 KiB stack (the size of secondary threads on Apple platforms).
  @Test func deepestTextsFitInASmallStack() throws {
    let inputs = Self.forms.compactMap { form in
      Self.deepestAccepted(form).map { (form.build($0), form.predicate, form.name) }
    }
    #expect(inputs.count == Self.forms.count)
    final class Outcome: @unchecked Sendable {
      var failures: [String] = []
      let done = DispatchSemaphore(value: 0)
    }
    let outcome = Outcome()
    let thread = Thread {
      for (text, predicate, name) in inputs {
        do {
          if predicate {
            let p = try ExpressionParser.parsePredicate(text)
            let q = try ExpressionParser.parsePredicate(p.description)
            if p != q || p.hashValue != q.hashValue { outcome.failures.append(name) }
          } else {
            let e = try ExpressionParser.parseExpression(text)
            let f = try ExpressionParser.parseExpression(e.description)
            if e != f || e.hashValue != f.hashValue { outcome.failures.append(name) }
          }
          // Deeper than the limit: refused before the stack grows further.
          _ = try? ExpressionParser.parseExpression(Self.r("(", 10_000))
        } catch {
          outcome.failures.append("\(name): \(error)")
        }
      }
      outcome.done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    outcome.done.wait()
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
  }

  @Test func longFlatInputsParseQuickly() throws {
    let clock = ContinuousClock()
    let started = clock.now
    // Just under 64 KiB each: a long key path, a long AND list, a long aggregate, a long string.
    let keyPath = "$source" + Self.r(".a", 30_000)
    let e = try ExpressionParser.parseExpression(keyPath)
    guard case .keyPath(_, let components) = e.kind else {
      Issue.record("not a key path")
      return
    }
    #expect(components.count == 30_000)
    #expect(e.description == keyPath)

    let conjunction = "a == 1" + Self.r(" AND a == 1", 5_500)
    let p = try ExpressionParser.parsePredicate(conjunction)
    guard case .and(let operands) = p.kind else {
      Issue.record("not an AND")
      return
    }
    #expect(operands.count == 5_501)
    #expect(try ExpressionParser.parsePredicate(p.description) == p)

    let aggregate = "{" + Self.r("1, ", 20_000) + "1}"
    guard case .aggregate(let elements) = try ExpressionParser.parseExpression(aggregate).kind else {
      Issue.record("not an aggregate")
      return
    }
    #expect(elements.count == 20_001)

    let string = "\"" + Self.r("\\u00e9", 10_000) + "\""
    #expect(try ExpressionParser.parseExpression(string) == .string(Self.r("é", 10_000)))

    #expect(clock.now - started < .seconds(20))
  }

  @Test func oversizedTextIsRefusedBeforeLexing() {
    let text = "\"" + Self.r("a", 1_000_000)  // unterminated too, but size is checked first
    guard let error = expressionError(text) else { return }
    #expect(error.rule == .tooLong)
  }

  @Test func unterminatedConstructsAtEndOfTextReportTheEnd() {
    for text in ["FUNCTION(", "FETCH(a,", "TERNARY(", "SUBQUERY(a, $x,", "{", "a[", "(", "-", "$x :="] {
      guard let error = expressionError(text) else { continue }
      #expect(error.rule == .syntax, "\(text): \(error)")
      #expect(error.span.start == text.utf8.count, "\(text): \(error)")
    }
  }
}
