import Foundation
import MapTestSupport
import Testing

/// Graphviz's `dot` for `diff`/`dump --format svg|html`: found in a folder of the PATH (not only
/// /usr/bin and /usr/local/bin), and when mapc is stopped by SIGTERM, SIGINT or SIGHUP while
/// `dot` runs, neither its temporary files (`mapc-dot-*`) nor the `dot` process (nor what it
/// started) are left behind. A fake `dot` (a shell script) on the PATH stands in for Graphviz.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"), .serialized)
struct DotProcessTests {
  static let bundle = SharedPaths.packageRoot.appendingPathComponent(
    "Examples/SongbookSimple/Mapping/SongbookSimple.xcdatamodeld"
  ).path

  /// A folder holding the fake `dot`: it records its own id and its child's in `pids` when
  /// `FAKE_DOT_SLEEP` is set and then waits for a `sleep` child; otherwise it prints an SVG.
  static func fakeDot(in folder: TemporaryFolder) throws -> String {
    let bin = folder.path + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let script = """
      #!/bin/sh
      if [ -n "$FAKE_DOT_SLEEP" ]; then
        sleep "$FAKE_DOT_SLEEP" &
        echo "$$ $!" > "$FAKE_DOT_PIDS.tmp" && mv "$FAKE_DOT_PIDS.tmp" "$FAKE_DOT_PIDS"
        wait
      fi
      cat > /dev/null
      echo '<svg xmlns="http://www.w3.org/2000/svg"><!-- fake dot from PATH --></svg>'

      """
    try Data(script.utf8).write(to: URL(fileURLWithPath: bin + "/dot"))
    chmod(bin + "/dot", 0o755)
    return bin
  }

  static func start(_ arguments: [String], environment: [String: String]) throws -> Process {
    let process = Process()
    process.executableURL = mapcExecutable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Whether the process `pid` still runs (a zombie waiting for its parent to reap it does not).
  static func alive(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return kill(pid, 0) == 0 }
    return !stat[close...].dropFirst(2).hasPrefix("Z")
  }

  @Test func dotOnThePathIsFound() throws {
    let folder = try TemporaryFolder()
    let bin = try Self.fakeDot(in: folder)
    for format in ["svg", "html"] {
      let out = folder.path + "/out." + format
      let process = try Self.start(
        ["diff", Self.bundle, "--format", format, "-o", out],
        environment: ["PATH": bin + ":/bin", "TMPDIR": folder.path])
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "\(format)")
      let svg = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
      #expect(svg.contains("fake dot from PATH"), "\(format)")
    }
    #expect(!folder.entries().contains { $0.hasPrefix("mapc-dot-") })
  }

  @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
  func signalEndsDotAndRemovesItsFiles(_ signal: Int32) throws {
    let folder = try TemporaryFolder()
    let bin = try Self.fakeDot(in: folder)
    let pidsFile = folder.path + "/pids"
    let process = try Self.start(
      ["diff", Self.bundle, "--format", "svg"],
      environment: [
        "PATH": bin + ":/usr/bin:/bin", "TMPDIR": folder.path, "FAKE_DOT_SLEEP": "60", "FAKE_DOT_PIDS": pidsFile,
      ])
    var deadline = Date().addingTimeInterval(30)
    while !FileManager.default.fileExists(atPath: pidsFile) && process.isRunning && Date() < deadline {
      usleep(10_000)
    }
    let pids = ((try? String(contentsOfFile: pidsFile, encoding: .utf8)) ?? "").split(separator: " ")
      .compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    try #require(pids.count == 2, "the fake dot did not start")
    #expect(folder.entries().contains { $0.hasPrefix("mapc-dot-") }, "dot's files exist while it runs")
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == signal)
    #expect(!folder.entries().contains { $0.hasPrefix("mapc-dot-") })
    deadline = Date().addingTimeInterval(10)
    while pids.contains(where: Self.alive) && Date() < deadline { usleep(20_000) }
    for pid in pids where Self.alive(pid) {
      Issue.record("process \(pid) (the fake dot or its sleep) outlived mapc")
      kill(pid, SIGKILL)
    }
  }
}
