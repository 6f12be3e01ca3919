import Foundation
import MapTestSupport
import Testing

/// Every case of every fixture that runs a mapping (`Mappings/`, `../shared/fixtures`), run
/// with `--memory-limit 16K` (so small that any store goes a chunk at a time or is refused):
/// either the exit status, the messages and the store written are those of the run in memory,
/// or the run is refused with `run-memory-limit` and writes nothing. Nothing in between: a plan
/// whose entities stream gives the whole run's result, one whose entities do not is refused.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct MemoryLimitFixtureTests {
  /// `mapping|store` of each case (paths), from the fixtures' `fixture.json` files: those with
  /// a mapping (not a chain), without extra arguments.
  static let cases: [String] = {
    var folders: [URL] = []
    let mappings = SharedPaths.packageRoot.appendingPathComponent("Mappings")
    for root in [mappings, SharedPaths.fixtures].compactMap({ $0 }) {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
      folders += names.sorted().map { root.appendingPathComponent($0) }
    }
    var result: [String] = []
    for folder in folders {
      let file = folder.appendingPathComponent("fixture.json")
      guard let data = try? Data(contentsOf: file),
        let fixture = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let cases = fixture["cases"] as? [[String: Any]]
      else { continue }
      let mapping: String
      if let m = fixture["mapping"] as? String {
        mapping = folder.appendingPathComponent(m).path
      } else if let m = fixture["sharedMapping"] as? String, let shared = SharedPaths.shared {
        mapping = shared.appendingPathComponent(m).path
      } else {
        continue
      }
      for c in cases where c["arguments"] == nil && c["to"] == nil {
        guard let store = c["store"] as? String else { continue }
        result.append(mapping + "|" + folder.appendingPathComponent(store).path)
      }
    }
    return result
  }()

  @Test func thereAreCases() {
    #expect(Self.cases.count >= 8, "\(Self.cases)")
  }

  @Test(arguments: cases)
  func aTinyLimitGivesTheWholeRunsResultOrARefusal(_ item: String) throws {
    let parts = item.split(separator: "|").map(String.init)
    let (mapping, store) = (parts[0], parts[1])
    let work = try FileManagerTemp.folder("memlimit-fixture")
    defer { FileManagerTemp.remove(work.path) }
    let whole = work.appendingPathComponent("whole.json").path
    let chunked = work.appendingPathComponent("chunked.json").path
    let a = runMapc(["run", mapping, "--store", store, "--output", whole, "--quiet"])
    let b = runMapc(["run", mapping, "--store", store, "--output", chunked, "--quiet", "--memory-limit", "16K"])
    if b.stderr.contains("[run-memory-limit]") {
      #expect(b.exitCode == 2, "\(b.stderr)")
      #expect(!FileManager.default.fileExists(atPath: chunked))
      return
    }
    #expect(b.exitCode == a.exitCode, "\(a.stderr)\n\(b.stderr)")
    #expect(b.stderr == a.stderr)
    #expect(FileManager.default.fileExists(atPath: chunked) == FileManager.default.fileExists(atPath: whole))
    if FileManager.default.fileExists(atPath: whole) {
      #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    }
  }
}
