import Foundation
import MapTestSupport
import Testing

/// `mapc run` against the Python peer of `../shared/bench` (`diary.py`, written without mapc)
/// on a generated diary store big enough that the store writer renders tables in parallel
/// chunks and the reader shares repeated Transformable values: both output forms must be the
/// peer's bytes exactly.
@Suite(
  .enabled(if: SharedPaths.bench != nil, Comment(rawValue: SharedPaths.absentMessage)),
  .enabled(if: python3 != nil, "python3 is needed to generate the store and run the peer"))
struct PeerEqualityTests {
  @Test(arguments: [false, true])
  func generatedDiaryStoreMatchesPythonPeer(compact: Bool) throws {
    let work = try FileManagerTemp.folder("peer")
    defer { FileManagerTemp.remove(work.path) }
    let bench = SharedPaths.bench!
    let plan = try compileDiaryPlan(in: work)

    // 12,000 records: about 53,000 Question objects, several chunks of every large table.
    let store = work.appendingPathComponent("store.json").path
    let gen = runTool(
      python3!, [bench.appendingPathComponent("gen_diary_store.py").path, "12000", store, "--seed", "7"])
    try #require(gen.exitCode == 0, "\(gen.stderr)")

    let ours = work.appendingPathComponent("mapc.json").path
    let theirs = work.appendingPathComponent("peer.json").path
    var args = ["run", plan, "--store", store, "--output", ours, "--quiet"]
    var peerArgs = [bench.appendingPathComponent("diary.py").path, store, theirs]
    if compact {
      args.append("--compact")
      peerArgs.append("--compact")
    }
    let run = runMapc(args)
    try #require(run.exitCode == 0, "\(run.stderr)")
    let peer = runTool(python3!, peerArgs)
    try #require(peer.exitCode == 0, "\(peer.stderr)")

    let a = try Data(contentsOf: URL(fileURLWithPath: ours))
    let b = try Data(contentsOf: URL(fileURLWithPath: theirs))
    #expect(a.count > 4_000_000)
    if a != b {
      let at = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
      Issue.record("outputs differ at byte \(at) (mapc \(a.count) bytes, peer \(b.count) bytes)")
    }
  }
}
