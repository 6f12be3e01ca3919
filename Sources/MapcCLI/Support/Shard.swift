import ArgumentParser
import Foundation
import MapRuntime

/// A part of a run's items (`mapc test`'s cases, `mapc migrate --stores`'s stores): `index` of
/// `count`, from 0 (`--shard K/N`, Specs/test-fixtures.md §4a). Items are ordered by a stable
/// hash of their key, and the one at position p belongs to part `p mod N`: the parts are
/// disjoint, together hold every item, differ in size by at most one, and are the same on every
/// machine given the same keys.
struct Shard: Equatable, Sendable {
  var index: Int
  var count: Int

  /// `K/N` (1 ≤ K ≤ N), `auto` or `auto/N`: from the environment of GitLab (`CI_NODE_INDEX`,
  /// `CI_NODE_TOTAL`), a Slurm job array (`SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_MIN` and
  /// `SLURM_ARRAY_TASK_MAX` or `SLURM_ARRAY_TASK_COUNT`) or a Kubernetes Indexed Job
  /// (`JOB_COMPLETION_INDEX`, from 0, with the total as `auto/N`).
  /// The part a `--shard` option names (nil when it is not given), from this process's
  /// environment; a value that names none is a usage error (exit 64).
  static func option(_ text: String?) throws -> Shard? {
    guard let text else { return nil }
    switch parse(text, environment: ProcessInfo.processInfo.environment) {
    case .success(let shard): return shard
    case .failure(let error): throw ValidationError(error.message)
    }
  }

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

extension Shard {
  /// FNV-1a, 64 bits: the same number on every machine for the same key.
  static func stableHash(_ key: String) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in key.utf8 {
      h ^= UInt64(b)
      h = h &* 0x100_0000_01b3
    }
    return h
  }

  /// The items of this part, in their order: ordered by the stable hash of their `key` (ties by
  /// key), the one at position p belongs to part `p mod N`.
  func select<T>(_ items: [T], key: (T) -> String) -> [T] {
    let shard = self
    guard shard.count > 1 else { return items }
    let keys = items.map(key)
    let byHash = items.indices.sorted {
      let (a, b) = (Self.stableHash(keys[$0]), Self.stableHash(keys[$1]))
      return a != b ? a < b : keys[$0] < keys[$1]
    }
    var mine = Set<Int>()
    for (position, i) in byHash.enumerated() where position % shard.count == shard.index { mine.insert(i) }
    return items.indices.filter(mine.contains).map { items[$0] }
  }
}
