import Foundation
import MapTestSupport
import Testing

/// Every command that writes removes its temporary file when SIGTERM, SIGINT or SIGPIPE stops it, as
/// `run` does: the signal is sent while the temporary file beside the output exists (a large
/// store, generated here, keeps it there long enough), and afterwards the folder holds no
/// `.NAME.mapc-*` file (nor SQLite's journals of one) and no output.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"), .serialized)
struct SignalTemporaryFileTests {
  static let objects = 300_000

  /// A JSON store of `objects` notes and its model bundle, in `dir`.
  static func bigStore(in dir: URL) throws -> (json: URL, bundle: URL) {
    let bundle = try ModelBundles.bundle(HostileKeyTests.model, named: "N", in: dir)
    let metadata = try ModelBundles.storeMetadata(bundle)
    var text = String(
      decoding: try JSONSerialization.data(withJSONObject: ["metadata": metadata]).dropLast(), as: UTF8.self)
    text += #", "objects": {"Note": ["#
    text.reserveCapacity(objects * 80)
    for i in 1...objects {
      if i > 1 { text += "," }
      text += #"{"id": "Note/\#(i)", "title": "title \#(i) title \#(i) title \#(i)"}"#
    }
    text += "]}}"
    let json = dir.appendingPathComponent("big.json")
    try Data(text.utf8).write(to: json)
    return (json, bundle)
  }

  /// Names in `dir` that are temporary files of mapc.
  static func temporaryFiles(_ dir: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter {
      $0.hasPrefix(".") && $0.contains(".mapc-")
    }
  }

  /// Starts mapc, sends `signal` as soon as its temporary file appears in `dir`, and returns
  /// whether the signal ended it (false: it finished first, or the file never appeared).
  static func interrupt(_ arguments: [String], in dir: URL, with signal: Int32) throws -> Bool {
    let process = Process()
    process.executableURL = mapcExecutable
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(60)
    var sent = false
    while process.isRunning && Date() < deadline {
      if !temporaryFiles(dir).isEmpty {
        kill(process.processIdentifier, signal)
        sent = true
        break
      }
      usleep(500)
    }
    if !sent && process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return sent && process.terminationReason == .uncaughtSignal && process.terminationStatus == signal
  }

  @Test func storeExportAndImportRemoveTheirTemporaryFiles() throws {
    let dir = try FileManagerTemp.folder("signal-temp")
    defer { try? FileManager.default.removeItem(at: dir) }
    let (json, bundle) = try Self.bigStore(in: dir)
    let sqlite = dir.appendingPathComponent("big.sqlite")
    let imported = runMapc(["store", "import", json.path, "--model", bundle.path, "-o", sqlite.path])
    try #require(imported.exitCode == 0, "\(imported.stderr)")
    let cases: [(String, [String], Int32)] = [
      ("out.json", ["store", "export", sqlite.path, "--model", bundle.path, "-o"], SIGTERM),
      ("out.json", ["store", "export", sqlite.path, "--model", bundle.path, "-o"], SIGINT),
      ("out.sqlite", ["store", "import", json.path, "--model", bundle.path, "-o"], SIGTERM),
      // A closed pipe on standard error (`2>&1 | head`) raises SIGPIPE at the next line.
      ("out.json", ["store", "export", sqlite.path, "--model", bundle.path, "-o"], SIGPIPE),
      ("out.sqlite", ["store", "import", json.path, "--model", bundle.path, "-o"], SIGPIPE),
      ("fixed.sqlite", ["store", "repair", sqlite.path, "--model", bundle.path, "-o"], SIGTERM),
    ]
    var interrupted = 0
    for (name, args, signal) in cases {
      let out = dir.appendingPathComponent(name)
      // A few tries: the command may finish before the signal lands.
      for _ in 0..<3 {
        let stopped = try Self.interrupt(args + [out.path], in: dir, with: signal)
        #expect(Self.temporaryFiles(dir).isEmpty, "\(args[1]) left \(Self.temporaryFiles(dir))")
        if stopped {
          interrupted += 1
          #expect(!FileManager.default.fileExists(atPath: out.path), "\(args[1]) wrote \(name)")
          break
        }
        try? FileManager.default.removeItem(at: out)
      }
    }
    #expect(interrupted == cases.count, "only \(interrupted) of \(cases.count) commands were stopped by the signal")
  }
}
