import ArgumentParser
import MapRuntime

/// `--memory-limit SIZE`: the memory a command that reads a store may take (`Specs/limits.md`
/// "Memory"). A store that does not fit it in memory is read, migrated and written a chunk at a
/// time, or refused with `run-memory-limit` when it cannot be.
struct MemoryLimitOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Memory the run may take, in bytes or with K, M, G or T (default: half the machine's memory); a larger store is migrated a chunk at a time.",
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
}
