import Foundation
import MapTestSupport
import Testing

/// One case of a fixture's `fixture.json` (contract §6).
struct FixtureCase: CustomStringConvertible, Sendable {
  var folder: URL
  /// The mapping (a mapping XML file or an `.xcmappingmodel`), relative to `folder`; or, with
  /// `sharedMapping`, relative to ../shared.
  var mapping: String
  /// True when fixture.json names the mapping with `sharedMapping` (a path in ../shared).
  var mappingIsShared = false
  var store: String
  var expected: String?
  var exitCode: Int32?
  var stderrMentions: [String]
  /// Why the case is known to fail (`knownIssue` in fixture.json), if it is.
  var knownIssue: String? = nil
  var description: String { "\(folder.lastPathComponent)/\(store)" }

  /// The mapping's location; nil when it is in ../shared and ../shared is absent.
  var mappingURL: URL? {
    mappingIsShared ? SharedPaths.shared?.appendingPathComponent(mapping) : folder.appendingPathComponent(mapping)
  }
}

/// Every case of every folder in ../shared/fixtures, so new fixtures run with no code change.
func allFixtureCases() -> [FixtureCase] {
  fixtureCases(in: SharedPaths.fixtures)
}

/// Every case of every folder of `root` that holds a fixture.json.
func fixtureCases(in root: URL?) -> [FixtureCase] {
  guard let root,
    let folders = try? FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)
  else { return [] }
  var cases: [FixtureCase] = []
  for folder in folders.sorted(by: { $0.path < $1.path }) {
    let spec = folder.appendingPathComponent("fixture.json")
    guard let data = try? Data(contentsOf: spec),
      let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let list = json["cases"] as? [[String: Any]]
    else { continue }
    // "mapping" is relative to the folder; "sharedMapping" to ../shared.
    let shared = json["sharedMapping"] as? String
    guard let mapping = shared ?? json["mapping"] as? String else { continue }
    for c in list {
      guard let store = c["store"] as? String else { continue }
      cases.append(
        FixtureCase(
          folder: folder, mapping: mapping, mappingIsShared: shared != nil, store: store,
          expected: c["expected"] as? String,
          exitCode: (c["exitCode"] as? Int).map(Int32.init), stderrMentions: c["stderrMentions"] as? [String] ?? [],
          knownIssue: json["knownIssue"] as? String))
    }
  }
  return cases
}

@Suite(.enabled(if: SharedPaths.fixtures != nil, Comment(rawValue: SharedPaths.absentMessage)))
struct FixtureTests {
  @Test func fixturesArePresent() {
    // The contract's two fixtures must be found; more may be added.
    let names = Set(allFixtureCases().map { $0.folder.lastPathComponent })
    #expect(names.isSuperset(of: ["diary", "songbook"]))
  }

  @Test(arguments: allFixtureCases())
  func fixtureCase(_ c: FixtureCase) throws {
    try runFixtureCase(c)
  }
}

/// `mapc compile` then `mapc run` for one case, checking the output bytes or the failure.
/// A case whose mapping is in an absent ../shared is cancelled (skipped) with a message.
func runFixtureCase(_ c: FixtureCase) throws {
  guard let mappingURL = c.mappingURL else {
    let message = "\(c) skipped: its mapping \(c.mapping) is in ../shared, which is absent"
    print(message)  // a cancelled case's comment is not shown in the default output
    try Test.cancel(Comment(rawValue: message))
  }
  let work = try FileManagerTemp.folder("fixture")
  defer { FileManagerTemp.remove(work.path) }
  let plan = work.appendingPathComponent("p.cdm").path
  let compile = runMapc(["compile", mappingURL.path, "-o", plan])
  #expect(compile.exitCode == 0, "compile failed: \(compile.stderr)")
  guard compile.exitCode == 0 else { return }

  let storePath = c.folder.appendingPathComponent(c.store).path
  let storeBefore = try Data(contentsOf: URL(fileURLWithPath: storePath))
  let out = work.appendingPathComponent("out.json").path
  let run = runMapc(["run", plan, "--store", storePath, "--output", out])
  #expect(try Data(contentsOf: URL(fileURLWithPath: storePath)) == storeBefore, "the input store changed")
  if let expected = c.expected {
    #expect(run.exitCode == 0, "run failed: \(run.stderr)")
    let want = try Data(contentsOf: c.folder.appendingPathComponent(expected))
    let got = (try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data()
    #expect(got == want, "output differs from \(expected): \(firstDifference(got, want))")
    // Running twice gives the same bytes.
    let again = work.appendingPathComponent("again.json").path
    _ = runMapc(["run", plan, "--store", storePath, "--output", again])
    #expect((try? Data(contentsOf: URL(fileURLWithPath: again))) == got)
  } else {
    #expect(run.exitCode == c.exitCode ?? 2, "stderr: \(run.stderr)")
    for text in c.stderrMentions {
      #expect(run.stderr.contains(text), "stderr does not mention \(text): \(run.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: out), "a failed run created the output file")
  }
  // No temporary files are left beside the output.
  let leftovers = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.hasSuffix(".tmp") }
  #expect(leftovers.isEmpty)
}

/// "line 12: got … expected …" for the first differing line.
func firstDifference(_ a: Data, _ b: Data) -> String {
  let la = String(decoding: a, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
  let lb = String(decoding: b, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
  for i in 0..<max(la.count, lb.count) {
    let x = i < la.count ? String(la[i]) : "<end>"
    let y = i < lb.count ? String(lb[i]) : "<end>"
    if x != y { return "line \(i + 1): got \(x) expected \(y)" }
  }
  return "same"
}
