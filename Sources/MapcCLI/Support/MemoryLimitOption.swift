import ArgumentParser
import MapRuntime

/// `--memory-limit SIZE`: the memory a command that reads a store may take (`Specs/limits.md`
/// "Memory"). `mapc run` and `mapc migrate` (step by step) read, migrate and write a store that
/// does not fit it a chunk at a time where they can, and so does `store convert` (`export`,
/// `import`), and `mapc test` in its cases' runs and comparisons (`StreamingComparison`); every
/// command refuses a store it cannot bound (`run-memory-limit`).
struct MemoryLimitOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Memory a store may take, in bytes or with K, M, G or T (default: half the machine's memory); a larger store is refused, or gone through a chunk at a time by run, migrate, test and store convert/export/import (test: shared among its --jobs).",
      valueName: "SIZE"))
  var memoryLimit: String?

  func validate() throws {
    guard let memoryLimit else { return }
    guard let bytes = MemorySize.parse(memoryLimit) else {
      throw ValidationError("--memory-limit takes a size: a number of bytes, or with K, M, G or T (512M, 1G)")
    }
    if bytes < Limits.smallestMemoryLimit {
      throw ValidationError("--memory-limit must be at least 16K")
    }
  }

  /// The limit in bytes: the given one, else the default.
  var bytes: Int { memoryLimit.flatMap(MemorySize.parse) ?? Limits.defaultMemoryLimit }

  /// Sets the limit of this process's whole-store reads (`StoreIO.memoryLimit`).
  func apply() { StoreIO.memoryLimit = bytes }

  /// ` in N chunks (--memory-limit)` for a run or conversion that went a chunk at a time (`n`
  /// chunks), else nothing: what summary lines add.
  static func chunksText(_ n: Int) -> String {
    n > 0 ? " in \(n) chunk\(n == 1 ? "" : "s") (--memory-limit)" : ""
  }
}
