import Foundation
import MapTestSupport
import Testing

/// Progress of `mapc migrate` and `mapc store convert` on a Core Data SQLite store of 80,050
/// rows (the tasks example grown by python3, imported by mapc), on a pseudo-terminal (one
/// line redrawn) and through a pipe (`--progress plain`): every phase named (each step of a
/// chain with its number and versions), ended once and in order, percentages that never go
/// back and never say 100% while the phase runs, rate and time left in every phase that took
/// more than a second, the read phase ending at the rows python3's sqlite3 counts or the bytes
/// of the file, and the write phase at the size of the file written.
@Suite(
  .serialized,
  .enabled(if: python3 != nil, "python3 generates the store, counts its rows and runs the pseudo-terminal"),
  .enabled(if: mapcExecutable != nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct ProgressCommandsTests {
  static let tasks = SharedPaths.packageRoot.appendingPathComponent("Mappings/tasks")
  static let model = tasks.appendingPathComponent("Tasks.xcdatamodeld").path
  static let passes = ["pass 1/3 (create instances)", "pass 2/3 (relationships)", "pass 3/3 (validate)"]
  static let runPhases = ["read store"] + passes + ["write store"]

  static let store = GeneratedSQLiteStore.make(
    name: "progress-commands", example: tasks.appendingPathComponent("store-v1.json"), model: model,
    generator: generator)

  /// 80,000 tasks in 50 lists (some in none), with every kind of value.
  static let generator = """
    import json, sys
    d = json.load(open(sys.argv[1]))
    lists = [{"id": "l-%d" % i, "name": "List %d" % i, "tasks": []} for i in range(50)]
    tasks = []
    for i in range(80000):
        l = lists[i % 50] if i % 13 else None
        t = {"id": "t-%d" % i, "done": [False, True, None][i % 3], "list": l["id"] if l else None,
             "note": ("note %d" % i) if i % 4 else None, "priority": i % 5 if i % 6 else None,
             "title": "Task %d" % i}
        if l:
            l["tasks"].append(t["id"])
        tasks.append(t)
    d["objects"] = {"Task": tasks, "TaskList": lists}
    json.dump(d, open(sys.argv[2], "w"))
    """

  /// One line of progress: its phase (with a step's prefix), and what the line says.
  struct Line {
    var phase: String
    var text: Substring
    /// `(42%)`.
    var percent: Int? {
      guard let close = text.range(of: "%)"), let open = text[..<close.lowerBound].lastIndex(of: "(") else {
        return nil
      }
      return Int(text[text.index(after: open)..<close.lowerBound])
    }
    var isEnd: Bool { text.hasPrefix(": done, ") }
    /// The seconds an end line says the phase took.
    var seconds: Double? {
      guard isEnd, let r = text.range(of: " in ", options: .backwards) else { return nil }
      return Double(text[r.upperBound...].prefix { $0 != " " })
    }
  }

  /// The progress lines of `text` (redrawn lines split at `\r`) for the phases `labels`.
  static func lines(_ text: String, labels: [String]) -> [Line] {
    let all = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r" }
    return all.compactMap { raw in
      let line = Substring(raw.trimmingCharacters(in: .whitespaces))
      // The longest label that starts the line (`step 1/3 …: read store` before `read store`).
      guard let label = labels.filter({ line.hasPrefix("mapc: \($0)") }).max(by: { $0.count < $1.count }) else {
        return nil
      }
      return Line(phase: label, text: line.dropFirst("mapc: \(label)".count))
    }
  }

  /// What every run must show, phases in `expected` order.
  static func check(_ lines: [Line], expected: [String], text: String) {
    // Each phase ends once, in order.
    #expect(lines.filter(\.isEnd).map(\.phase) == expected, "\(text)")
    // Lines come in one block per phase, in order: nothing of a phase after it ended.
    var order: [String] = []
    for l in lines where order.last != l.phase { order.append(l.phase) }
    #expect(order == expected, "\(text)")
    for phase in expected {
      let running = lines.filter { $0.phase == phase && !$0.isEnd }
      let percents = running.compactMap(\.percent)
      #expect(percents.allSatisfy { $0 < 100 }, "\(phase) said 100% while it ran: \(percents)")
      #expect(zip(percents, percents.dropFirst()).allSatisfy { $0 <= $1 }, "\(phase) went back: \(percents)")
      // A phase longer than a second shows its rate and the time left while it runs.
      if let end = lines.first(where: { $0.phase == phase && $0.isEnd }), let s = end.seconds, s > 1 {
        #expect(
          running.contains { $0.text.contains("/s") && $0.text.contains(" s left") },
          "\(phase) took \(s) s without a rate and time left:\n\(running.map(\.text).joined(separator: "\n"))")
      }
    }
  }

  static func grouped(_ n: Int) -> String {
    n.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
  }

  static func megabytes(_ path: String) throws -> String {
    let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    return String(format: "%.1f MB", Double(size) / 1_000_000)
  }

  /// Three steps of a chain on a terminal: the first reads the store, each runs its passes,
  /// the first two hand their results on in memory (`hand on (in memory)`, in objects), and
  /// the last writes the store; the result is the size the write phase says.
  @Test func migrateShowsEveryStepOnATerminal() throws {
    let store = try Self.store.get()
    let output = store.folder.appendingPathComponent("migrated.sqlite").path
    let result = runMapcOnATerminal([
      "migrate", "--model", Self.model, "--mappings", Self.tasks.appendingPathComponent("mappings").path, "--store",
      store.path, "--output", output,
    ])
    let text = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
    #expect(result.exitCode == 0, "\(text)")
    #expect(text.contains("\r"), "the line was never redrawn")
    let steps = ["step 1/3 Tasks→Tasks 2: ", "step 2/3 Tasks 2→Tasks 3: ", "step 3/3 Tasks 3→Tasks 4: "]
    let expected =
      [steps[0] + "read store"]
      + steps.enumerated().flatMap { k, step in
        (Self.passes + [k < 2 ? "hand on (in memory)" : "write store"]).map { step + $0 }
      }
    let lines = Self.lines(text, labels: expected)
    Self.check(lines, expected: expected, text: text)
    // The first step reads the store's rows, against the total counted before reading.
    let rows = "\(Self.grouped(store.rows)) rows"
    #expect(lines.contains { $0.phase == expected[0] && $0.text.hasPrefix(": done, \(rows) in ") }, "\(text)")
    #expect(lines.contains { $0.phase == expected[0] && $0.text.contains("/\(rows) (") }, "\(text)")
    // A hand-off counts the objects it makes (the store's objects: each step keeps them all).
    for step in steps.prefix(2) {
      #expect(
        lines.contains { $0.phase == step + "hand on (in memory)" && $0.text.hasPrefix(": done, ") }, "\(text)")
    }
    // The last step's write ends with the size of the store written.
    let size = try Self.megabytes(output)
    #expect(lines.contains { $0.phase == expected.last && $0.text.hasPrefix(": done, \(size) in ") }, "\(text)")
    // Each step's line and the summary come after the progress of that step.
    #expect(text.contains("mapc: step 3/3 'Tasks 3' → 'Tasks 4' (mapping "), "\(text)")
    #expect(text.contains("mapc: migrated \(store.path) from 'Tasks' to 'Tasks 4' in 3 steps"), "\(text)")
  }

  /// SQLite to JSON on a terminal (rows read, objects written, the JSON file's size), then that
  /// JSON back to SQLite through a pipe with `--progress plain` (bytes read: the JSON file's size).
  @Test func storeConvertBothWays() throws {
    let store = try Self.store.get()
    let json = store.folder.appendingPathComponent("converted.json").path
    let toJSON = runMapcOnATerminal(["store", "convert", store.path, "--model", Self.model, "-o", json])
    let text = toJSON.stdout.replacingOccurrences(of: "\r\n", with: "\n")
    #expect(toJSON.exitCode == 0, "\(text)")
    let expected = ["read store", "write store"]
    let lines = Self.lines(text, labels: expected)
    Self.check(lines, expected: expected, text: text)
    let rows = "\(Self.grouped(store.rows)) rows"
    #expect(lines.contains { $0.phase == "read store" && $0.text.hasPrefix(": done, \(rows) in ") }, "\(text)")
    let objects = "/\(Self.grouped(store.rows)) objects ("
    #expect(lines.contains { $0.phase == "write store" && $0.text.contains(objects) }, "\(text)")
    let jsonSize = try Self.megabytes(json)
    #expect(lines.contains { $0.phase == "write store" && $0.text.hasPrefix(": done, \(jsonSize) in ") }, "\(text)")
    #expect(text.contains("mapc: converted \(store.rows) objects from \(store.path); wrote \(json)"), "\(text)")

    let back = store.folder.appendingPathComponent("back.sqlite").path
    let process = Process()
    process.executableURL = mapcExecutable
    process.arguments = ["store", "convert", json, "--model", Self.model, "-o", back, "--progress", "plain"]
    process.environment = ProcessInfo.processInfo.environment.merging(["MAPC_PROGRESS_INTERVAL": "0.05"]) { $1 }
    let pipe = Pipe()
    process.standardError = pipe
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let plain = String(decoding: data, as: UTF8.self)
    #expect(process.terminationStatus == 0, "\(plain)")
    #expect(!plain.contains("\r"))
    let plainLines = Self.lines(plain, labels: expected)
    Self.check(plainLines, expected: expected, text: plain)
    #expect(plainLines.contains { $0.phase == "read store" && $0.text.contains("/\(jsonSize) (") }, "\(plain)")
    #expect(
      plainLines.contains { $0.phase == "read store" && $0.text.hasPrefix(": done, \(jsonSize) in ") }, "\(plain)")
    let backSize = try Self.megabytes(back)
    #expect(
      plainLines.contains { $0.phase == "write store" && $0.text.hasPrefix(": done, \(backSize) in ") }, "\(plain)")
  }
}
