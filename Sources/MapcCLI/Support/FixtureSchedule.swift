import Foundation
import MapCompiler
import MapRuntime

/// Which cases of `mapc test` run, and how many at once (Specs/test-fixtures.md §5): a shard
/// `K/N` takes every N-th case in the order of a stable hash of its key (the fixture file's path
/// as found, and the case's index), so the N parts are disjoint, together hold every case, and
/// differ in size by at most one; `--jobs` cases run at the same time, each in a child process,
/// and their results come out in the order of the cases.
struct FixtureSchedule {
  /// One case to run, with where it is in the whole run.
  struct Planned: Sendable {
    var fixture: FixtureFile
    var fixtureIndex: Int
    var caseIndex: Int
    var suite: String
    var key: String
  }

  /// A part of the cases: `index` of `count`, from 0.
  struct Shard: Equatable {
    var index: Int
    var count: Int

    /// `K/N` (1 ≤ K ≤ N), `auto` or `auto/N`: from the environment of GitLab (`CI_NODE_INDEX`,
    /// `CI_NODE_TOTAL`), a Slurm job array (`SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_MIN` and
    /// `SLURM_ARRAY_TASK_MAX` or `SLURM_ARRAY_TASK_COUNT`) or a Kubernetes Indexed Job
    /// (`JOB_COMPLETION_INDEX`, from 0, with the total as `auto/N`).
    static func parse(_ text: String, environment: [String: String]) -> Result<Shard, ShardError> {
      let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
      if parts[0] == "auto" {
        guard parts.count <= 2 else { return .failure(.syntax(text)) }
        let given = parts.count == 2 ? Int(parts[1]) : nil
        if parts.count == 2 && (given == nil || given! < 1) { return .failure(.syntax(text)) }
        return auto(environment, total: given)
      }
      guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
        return .failure(.syntax(text))
      }
      return .success(Shard(index: k - 1, count: n))
    }

    static func auto(_ env: [String: String], total: Int?) -> Result<Shard, ShardError> {
      func number(_ key: String) -> Int? { env[key].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
      var found: (Int, Int, String)? = nil
      if let k = number("CI_NODE_INDEX"), let n = number("CI_NODE_TOTAL") {
        found = (k - 1, n, "CI_NODE_INDEX/CI_NODE_TOTAL")
      } else if let id = number("SLURM_ARRAY_TASK_ID") {
        let low = number("SLURM_ARRAY_TASK_MIN") ?? 0
        if let n = total ?? number("SLURM_ARRAY_TASK_COUNT") ?? number("SLURM_ARRAY_TASK_MAX").map({ $0 - low + 1 }) {
          found = (id - low, n, "SLURM_ARRAY_TASK_ID")
        }
      } else if let k = number("JOB_COMPLETION_INDEX") {
        guard let total else { return .failure(.noTotal("JOB_COMPLETION_INDEX")) }
        found = (k, total, "JOB_COMPLETION_INDEX")
      }
      guard let (k, n, source) = found else { return .failure(.noEnvironment) }
      if let total, total != n { return .failure(.mismatch(source, n, total)) }
      guard n >= 1, (0..<n).contains(k) else { return .failure(.outOfRange(source, k, n)) }
      return .success(Shard(index: k, count: n))
    }
  }

  enum ShardError: Error {
    case syntax(String), noEnvironment, noTotal(String), mismatch(String, Int, Int), outOfRange(String, Int, Int)

    var message: String {
      switch self {
      case .syntax(let t):
        "--shard \(TerminalText.escaped(t)): give K/N (1 ≤ K ≤ N), auto, or auto/N"
      case .noEnvironment:
        "--shard auto: none of CI_NODE_INDEX and CI_NODE_TOTAL (GitLab), SLURM_ARRAY_TASK_ID (Slurm) or JOB_COMPLETION_INDEX (Kubernetes) is set; give --shard K/N"
      case .noTotal(let v): "--shard auto: \(v) gives the index only; give the total as --shard auto/N"
      case .mismatch(let v, let n, let given): "--shard auto/\(given): \(v) says there are \(n) parts"
      case .outOfRange(let v, let k, let n): "--shard auto: \(v) gives part \(k + 1) of \(n), which does not exist"
      }
    }
  }

  /// FNV-1a, 64 bits: the same number on every machine for the same key.
  static func stableHash(_ key: String) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in key.utf8 {
      h ^= UInt64(b)
      h = h &* 0x100_0000_01b3
    }
    return h
  }

  /// The cases of `shard`, in the order of the whole run.
  static func select(_ cases: [Planned], shard: Shard?) -> [Planned] {
    guard let shard, shard.count > 1 else { return cases }
    let byHash = cases.indices.sorted {
      let (a, b) = (stableHash(cases[$0].key), stableHash(cases[$1].key))
      return a != b ? a < b : cases[$0].key < cases[$1].key
    }
    var mine = Set<Int>()
    for (position, i) in byHash.enumerated() where position % shard.count == shard.index { mine.insert(i) }
    return cases.indices.filter(mine.contains).map { cases[$0] }
  }

  /// Runs `cases`, `jobs` at a time, calling `done` for each result in the order of `cases` (under
  /// a lock: one call at a time, never two at once); returns the results in that order.
  static func run(
    _ cases: [Planned], jobs: Int, runner: FixtureRunner, done: @escaping @Sendable (Int, FixtureResult) -> Void
  ) -> [FixtureResult] {
    let board = Board(count: cases.count, done: done)
    let lanes = max(1, min(jobs, cases.count))
    let group = DispatchGroup()
    for _ in 0..<lanes {
      group.enter()
      let thread = Thread {
        while let i = board.take() {
          let planned = cases[i]
          let c = planned.fixture.cases[planned.caseIndex]
          let start = Date()
          let outcome = runner.run(planned.fixture, c)
          board.finish(
            i,
            FixtureResult(
              suite: planned.suite, name: c.store + (c.to.map { " → \($0)" } ?? ""), outcome: outcome,
              seconds: Date().timeIntervalSince(start), knownIssue: planned.fixture.knownIssue,
              fixtureIndex: planned.fixtureIndex, caseIndex: planned.caseIndex))
        }
        group.leave()
      }
      thread.stackSize = 1 << 20
      thread.start()
    }
    group.wait()
    return board.results()
  }

  /// The shared state of the lanes: the next case to take, and the results, handed on in order.
  private final class Board: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var printed = 0
    private var slots: [FixtureResult?]
    private let done: @Sendable (Int, FixtureResult) -> Void

    init(count: Int, done: @escaping @Sendable (Int, FixtureResult) -> Void) {
      slots = Array(repeating: nil, count: count)
      self.done = done
    }

    func take() -> Int? {
      lock.withLock {
        guard next < slots.count else { return nil }
        next += 1
        return next - 1
      }
    }

    func finish(_ i: Int, _ result: FixtureResult) {
      lock.withLock {
        slots[i] = result
        while printed < slots.count, let ready = slots[printed] {
          done(printed, ready)
          printed += 1
        }
      }
    }

    func results() -> [FixtureResult] { lock.withLock { slots.compactMap { $0 } } }
  }
}
