import Foundation

/// How many threads the runtime's parallel steps use (rendering the output, moving strings,
/// pass 1, reading): one per processor, at most eight.
package enum Cores {
  package static let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
}
