import Foundation
import MapJSON
import MapJSONText
import MapRuntime
import MapTestSupport
import Testing

/// Throughput measurement of the store codec, not a timed test: it measures the store that
/// `MAPC_STORE_BENCH` names (for example one made by
/// `python3 ../shared/bench/gen_diary_store.py 300000 /tmp/diary-300k.json --seed 1`), and
/// prints MB/s. Run it in release mode:
///
/// ```
/// MAPC_STORE_BENCH=/tmp/diary-300k.json swift test -c release --filter StoreCodecThroughput
/// ```
///
/// Without it, it runs on a copy of the bookshelf example's store, as a check that the
/// measurement still works (the rates it prints then mean nothing). It reads the file, scans and validates it (best of three), then replays its tokens three
/// times through an indented `JSONOutput` into a file beside the input (about three times the
/// input size), reporting the write rate without and with the final fsync, once without and
/// once with early writeback.
@Suite struct StoreCodecThroughput {
  static let storePath = ProcessInfo.processInfo.environment["MAPC_STORE_BENCH"]

  static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// CPU time of this thread (user and system), which other processes on a busy machine
  /// disturb less than wall time.
  static func cpu() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  @Test func measure() throws {
    let folder = try FileManagerTemp.folder("store-bench")
    defer { FileManagerTemp.remove(folder.path) }
    let path = try Self.storePath ?? Self.copyOfTheExampleStore(into: folder)
    var start = Self.now()
    let input = try InputBytes(contentsOf: path)
    let readSeconds = Self.now() - start
    let megabytes = Double(input.count) / 1e6
    print(String(format: "read %.1f MB in %.3f s (%.0f MB/s)", megabytes, readSeconds, megabytes / readSeconds))

    var best = Double.infinity
    var bestCPU = Double.infinity
    var tokens: [JSONToken] = []
    for round in 0..<3 {
      start = Self.now()
      let startCPU = Self.cpu()
      let scanned = try input.withUnsafeBytes { raw throws(JSONSyntaxError) in
        var scanner = JSONScanner(raw)
        var count = 0
        while try scanner.next().kind != .endOfInput { count += 1 }
        return count
      }
      best = min(best, Self.now() - start)
      bestCPU = min(bestCPU, Self.cpu() - startCPU)
      if round == 0 {
        tokens.reserveCapacity(scanned)
        try input.withUnsafeBytes { raw throws(JSONSyntaxError) in
          var scanner = JSONScanner(raw)
          while true {
            let token = try scanner.next()
            if token.kind == .endOfInput { break }
            tokens.append(token)
          }
        }
      }
    }
    print(
      String(
        format: "scan+validate: %d tokens, best %.3f s = %.0f MB/s (CPU %.3f s = %.0f MB/s)", tokens.count, best,
        megabytes / best, bestCPU, megabytes / bestCPU))
    #expect(!tokens.isEmpty)

    for startsWriteback in [false, true] {
      try writeReplay(tokens, input, to: path + ".bench-out.json", startsWriteback: startsWriteback)
    }
  }

  /// The bookshelf example's store, copied into `folder` (the replay is written beside it).
  static func copyOfTheExampleStore(into folder: URL) throws -> String {
    let copy = folder.appendingPathComponent("store.json").path
    try FileManager.default.copyItem(
      atPath: SharedPaths.packageRoot.appendingPathComponent("Mappings/bookshelf/store-v1.json").path, toPath: copy)
    return copy
  }

  func writeReplay(
    _ tokens: [JSONToken], _ input: InputBytes, to outputPath: String, startsWriteback: Bool
  ) throws {
    let writer = try AtomicFileWriter(target: outputPath)
    let start = Self.now()
    let startCPU = Self.cpu()
    var output = JSONOutput(
      fileDescriptor: writer.fileDescriptor, path: outputPath, style: .indented,
      startsWriteback: startsWriteback)
    input.withUnsafeBytes { raw in
      output.beginArray()
      for _ in 0..<3 {
        for token in tokens {
          switch token.kind {
          case .beginObject: output.beginObject()
          case .endObject: output.endObject()
          case .beginArray: output.beginArray()
          case .endArray: output.endArray()
          case .key:
            output.writeKey(
              raw: UnsafeRawBufferPointer(rebasing: raw[token.range]), hasEscapes: token.hasEscapes)
          case .string:
            output.writeString(
              raw: UnsafeRawBufferPointer(rebasing: raw[token.range]), hasEscapes: token.hasEscapes)
          case .number: output.writeInt(NumberParser.int64(UnsafeRawBufferPointer(rebasing: raw[token.range])) ?? 0)
          case .true: output.writeBool(true)
          case .false: output.writeBool(false)
          case .null: output.writeNull()
          case .endOfInput: break
          }
        }
      }
      output.endArray()
    }
    try output.finishDocument()
    let writeSeconds = Self.now() - start
    let writeCPU = Self.cpu() - startCPU
    let written = Double(output.bytesFlushed) / 1e6
    try writer.commit()
    let committedSeconds = Self.now() - start
    print(
      String(
        format:
          "write indented%@: %.1f MB in %.3f s = %.0f MB/s, CPU %.3f s = %.0f MB/s (with fsync and rename: %.3f s = %.0f MB/s)",
        startsWriteback ? " with early writeback" : "", written, writeSeconds, written / writeSeconds, writeCPU,
        written / writeCPU, committedSeconds, written / committedSeconds))
    _ = unlink(outputPath)
  }
}
