import Foundation

/// How many threads the runtime's parallel steps use (rendering the output, moving strings,
/// pass 1, reading): one per processor, at most eight.
enum Cores {
  static let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
}
