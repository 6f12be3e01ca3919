import Foundation
import MapTestSupport
import Testing

/// Every command that writes, reads a store or starts a child is stopped by SIGTERM, SIGINT or
/// SIGHUP at a moment drawn from a seed (printed; `MAPC_SIGNAL_SEED` varies it, CI keeps the
/// default), and afterwards: its inputs are byte-identical, no temporary file of mapc is left
/// beside the outputs or in its `TMPDIR`, no process it started still runs, and a command the
/// signal stopped wrote no output (one that finished first exited as usual).
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"), .serialized)
struct SignalSweepTests {
  static let notes = 60_000
  static let defaultSeed: UInt64 = 40

  static let version2 = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="2">
        <entity name="Note" representedClassName="Note">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="data" optional="YES" attributeType="Transformable"/>
            <attribute name="body" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """

  /// One command of the sweep: its arguments (`$W` stands for the work folder), its outputs,
  /// and what its environment adds.
  struct Command {
    var name: String
    var arguments: [String]
    var outputs: [String]
    var environment: [String: String] = [:]
    /// The exit statuses of a run the signal came too late for (`test`: the case fails).
    var finishedWith: Set<Int32> = [0]
  }

  /// The inputs: a two-version bundle (N, N 2 current), a JSON and an SQLite store of `notes`
  /// notes at version N, the identity mapping, a fixture folder, and a fake `dot` that sleeps.
  static func setUp(_ work: URL) throws {
    let bundle = try ModelBundles.bundle(HostileKeyTests.model, named: "N", in: work)
    let metadata = try ModelBundles.storeMetadata(bundle.appendingPathComponent("N.xcdatamodel"))
    let v2 = bundle.appendingPathComponent("N 2.xcdatamodel")
    try FileManager.default.createDirectory(at: v2, withIntermediateDirectories: true)
    try Data(version2.utf8).write(to: v2.appendingPathComponent("contents"))
    try Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>N 2.xcdatamodel</string></dict></plist>
      """.utf8
    ).write(to: bundle.appendingPathComponent(".xccurrentversion"))
    var text = String(
      decoding: try JSONSerialization.data(withJSONObject: ["metadata": metadata]).dropLast(), as: UTF8.self)
    text += #", "objects": {"Note": ["#
    for i in 1...notes {
      if i > 1 { text += "," }
      text += #"{"id": "Note/\#(i)", "title": "title \#(i) of the sweep", "data": "x\#(i)"}"#
    }
    text += "]}}"
    try Data(text.utf8).write(to: work.appendingPathComponent("store.json"))
    let imported = runMapc([
      "store", "import", work.appendingPathComponent("store.json").path, "--model",
      bundle.path, "-o", work.appendingPathComponent("store.sqlite").path,
    ])
    try #require(imported.exitCode == 0, "\(imported.stderr)")
    try Data(HostileKeyTests.mapping.utf8).write(to: work.appendingPathComponent("m.xml"))
    let fixture = work.appendingPathComponent("fixture")
    try FileManager.default.createDirectory(at: fixture, withIntermediateDirectories: true)
    try Data(#"{"mapping": "../m.xml", "cases": [{"store": "../store.json", "expected": "expected.json"}]}"#.utf8)
      .write(to: fixture.appendingPathComponent("fixture.json"))
    try Data(#"{"objects": {}}"#.utf8).write(to: fixture.appendingPathComponent("expected.json"))
    let bin = work.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try Data("#!/bin/sh\nsleep 5 &\nwait\ncat > /dev/null\necho '<svg/>'\n".utf8).write(
      to: bin.appendingPathComponent("dot"))
    chmod(bin.appendingPathComponent("dot").path, 0o755)
  }

  static let commands: [Command] = [
    Command(
      name: "run", arguments: ["run", "$W/m.xml", "--store", "$W/store.json", "--output", "$W/out/run.json"],
      outputs: ["run.json"]),
    Command(
      name: "migrate json",
      arguments: [
        "migrate", "--model", "$W/N.xcdatamodeld", "--store", "$W/store.json", "--output", "$W/out/m.json",
        "--checkpoints",
      ],
      outputs: ["m.json"]),
    Command(
      name: "migrate sqlite",
      arguments: [
        "migrate", "--model", "$W/N.xcdatamodeld", "--store", "$W/store.sqlite", "--output", "$W/out/m.sqlite",
      ],
      outputs: ["m.sqlite"]),
    Command(
      name: "store import",
      arguments: ["store", "import", "$W/store.json", "--model", "$W/N.xcdatamodeld", "-o", "$W/out/i.sqlite"],
      outputs: ["i.sqlite"]),
    Command(
      name: "store export",
      arguments: ["store", "export", "$W/store.sqlite", "--model", "$W/N.xcdatamodeld", "-o", "$W/out/e.json"],
      outputs: ["e.json"]),
    Command(
      name: "store convert",
      arguments: [
        "store", "convert", "$W/store.sqlite", "--to", "sqlite", "--model", "$W/N.xcdatamodeld", "-o",
        "$W/out/c.sqlite",
      ],
      outputs: ["c.sqlite"]),
    Command(
      name: "store check", arguments: ["store", "check", "$W/store.sqlite", "--model", "$W/N.xcdatamodeld"],
      outputs: []),
    Command(
      name: "store repair",
      arguments: ["store", "repair", "$W/store.sqlite", "--model", "$W/N.xcdatamodeld", "-o", "$W/out/r.sqlite"],
      outputs: ["r.sqlite"]),
    Command(
      name: "test", arguments: ["test", "$W/fixture", "--junit", "$W/out/junit.xml"], outputs: ["junit.xml"],
      finishedWith: [1]),
    Command(
      name: "diff svg", arguments: ["diff", "$W/N.xcdatamodeld", "--format", "svg", "-o", "$W/out/d.svg"],
      outputs: ["d.svg"], environment: ["PATH": "$W/bin:/usr/bin:/bin"]),
    Command(
      name: "dump svg", arguments: ["dump", "$W/m.xml", "--format", "svg"], outputs: [],
      environment: ["PATH": "$W/bin:/usr/bin:/bin"]),
    Command(name: "compile", arguments: ["compile", "$W/m.xml", "-o", "$W/out/m.cdm"], outputs: ["m.cdm"]),
    Command(name: "lock", arguments: ["lock", "$W/N.xcdatamodeld", "-o", "$W/out/N.lock"], outputs: ["N.lock"]),
  ]

  /// SHA-256 of every regular file under `folder` (relative path → digest), by python3.
  static func digests(_ folder: URL) throws -> String {
    try HostileKeyTests.python(
      """
      import hashlib, os, sys
      root = sys.argv[1]
      for d, _, files in sorted(os.walk(root)):
          for f in sorted(files):
              p = os.path.join(d, f)
              print(os.path.relpath(p, root), hashlib.sha256(open(p, 'rb').read()).hexdigest())
      """, folder.path)
  }

  /// Processes whose environment holds `marker` (every process a command started inherits it).
  static func processes(marked marker: String) -> [Int32] {
    let me = getpid()
    return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
      guard let pid = Int32(name), pid != me, DotProcessTests.alive(pid),
        let environ = FileManager.default.contents(atPath: "/proc/\(name)/environ")
      else { return nil }
      return environ.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == marker } ? pid : nil
    }
  }

  @Test func everyCommandCleansUpAfterASignal() throws {
    let seed = ProcessInfo.processInfo.environment["MAPC_SIGNAL_SEED"].flatMap(UInt64.init) ?? Self.defaultSeed
    print("SignalSweepTests: seed \(seed) (set MAPC_SIGNAL_SEED to vary the moments)")
    var random = SplitMix64(seed: seed)
    let work = try FileManagerTemp.folder("signal-sweep")
    defer { FileManagerTemp.remove(work.path) }
    let inputs = work.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
    try Self.setUp(inputs)
    let before = try Self.digests(inputs)
    var stopped = 0
    for command in Self.commands {
      let signal = [SIGTERM, SIGINT, SIGHUP][Int(random.next() % 3)]
      let delay = useconds_t(random.next() % 1_200_000)
      let out = work.appendingPathComponent("out")
      let tmp = work.appendingPathComponent("tmp")
      for folder in [out, tmp] {
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      }
      // `$W/out` is the outputs' folder beside the inputs; the inputs live in `in`.
      let expand = { (s: String) in
        s.replacingOccurrences(of: "$W/out", with: out.path).replacingOccurrences(of: "$W", with: inputs.path)
      }
      let marker = "MAPC_SIGNAL_SWEEP=\(getpid())-\(command.name.replacingOccurrences(of: " ", with: "-"))"
      let process = Process()
      process.executableURL = mapcExecutable
      process.arguments = command.arguments.map(expand)
      var environment = ProcessInfo.processInfo.environment
      environment["TMPDIR"] = tmp.path
      for (key, value) in command.environment { environment[key] = expand(value) }
      let parts = marker.split(separator: "=", maxSplits: 1)
      environment[String(parts[0])] = String(parts[1])
      process.environment = environment
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(delay)
      if process.isRunning { kill(process.processIdentifier, signal) }
      process.waitUntilExit()
      let bySignal = process.terminationReason == .uncaughtSignal
      let what = "\(command.name) (signal \(signal) after \(delay / 1000) ms, seed \(seed))"
      print("SignalSweepTests: \(what): \(bySignal ? "stopped" : "finished first, exit \(process.terminationStatus)")")
      if bySignal {
        stopped += 1
        #expect(process.terminationStatus == signal, "\(what): ended by signal \(process.terminationStatus)")
        for name in command.outputs {
          #expect(
            !FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path), "\(what) wrote \(name)")
        }
      } else {
        #expect(command.finishedWith.contains(process.terminationStatus), "\(what): exit \(process.terminationStatus)")
      }
      if !bySignal && process.terminationStatus == 0 {
        for name in command.outputs {
          #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path), "\(what): no \(name)")
        }
      }
      let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).filter {
        $0.hasPrefix(".") || $0.contains(".mapc-") || $0.hasSuffix("-journal") || $0.hasSuffix("-wal")
      }
      #expect(leftovers.isEmpty, "\(what) left \(leftovers) beside its output")
      #expect((try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) == [], "\(what) left files in TMPDIR")
      // Children end with mapc (they watch their parent); give them a few seconds.
      let deadline = Date().addingTimeInterval(8)
      var alive = Self.processes(marked: marker)
      while !alive.isEmpty && Date() < deadline {
        usleep(50_000)
        alive = Self.processes(marked: marker)
      }
      #expect(alive.isEmpty, "\(what) left processes \(alive) running")
      for pid in alive { kill(pid, SIGKILL) }
    }
    let after = try Self.digests(inputs)
    let changed = Set(after.split(separator: "\n")).symmetricDifference(Set(before.split(separator: "\n")))
    #expect(changed.isEmpty, "inputs changed: \(changed.sorted())")
    // The moments are drawn so that most commands are still running when the signal comes.
    #expect(stopped >= Self.commands.count / 2, "only \(stopped) of \(Self.commands.count) commands were stopped")
  }
}
