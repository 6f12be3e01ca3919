#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import MapRuntime

/// This program run again as a child process (`mapc test`'s cases, `mapc migrate --stores`'s
/// stores): standard output discarded, standard error to a file, ended with this process on
/// SIGINT, SIGTERM and SIGHUP (`TemporaryFiles`) and, told by `MAPC_END_WITH_PARENT`, when this
/// process is gone beyond any handler.
package enum ChildMapc {
  /// A finished child: its exit status (128 + the signal for one a signal ended) and standard error.
  package struct Finished: Sendable {
    package var status: Int32
    package var stderr: String
  }

  package static func run(executable: String, _ arguments: [String], stderrPath: String) -> Finished {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
    let err = FileHandle(forWritingAtPath: stderrPath)
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    var environment = ProcessInfo.processInfo.environment
    environment[TemporaryFiles.parentVariable] = String(getpid())
    process.environment = environment
    do {
      try process.run()
      TemporaryFiles.registerChild(process.processIdentifier)
      process.waitUntilExit()
      TemporaryFiles.unregisterChild(process.processIdentifier)
    } catch {
      try? err?.close()
      return Finished(status: -1, stderr: "cannot start \(executable): \(SystemErrorText.describe(error))")
    }
    try? err?.close()
    let text = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
    let status =
      process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    return Finished(status: status, stderr: text)
  }
}
