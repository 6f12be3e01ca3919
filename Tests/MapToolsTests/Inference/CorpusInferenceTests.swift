import Foundation
import MapCompiler
import MapRuntime
import MapTestSupport
import MapTools
import Testing

/// For each pair of consecutive versions of every model bundle in `../shared/corpus`, whether
/// inference succeeds or why not. The outcomes are recorded below; each failure was checked
/// against Core Data's documented lightweight rules (a type change, a new mandatory value
/// without a default, a to-many made to-one: none of them inferable).
@Suite(.enabled(if: SharedPaths.corpus != nil, Comment(rawValue: SharedPaths.absentMessage)))
struct CorpusInferenceTests {
  /// `bundle path in the corpus: from → to` → "inferred" or the error ids, sorted.
  static let recorded: [String: String] = CorpusInferenceTable.outcomes

  @Test func everyConsecutivePairIsInferredOrRefusedAsRecorded() throws {
    let corpus = SharedPaths.corpus!
    var outcomes: [String: String] = [:]
    var table: [String] = []
    for bundle in Self.bundles(in: corpus) {
      let versions = try ModelVersions.load(bundle: corpus.appendingPathComponent(bundle).path)
      for i in versions.versions.indices.dropLast() {
        let (a, b) = (versions.versions[i], versions.versions[i + 1])
        let inferred = MappingInference.infer(
          source: a.model, destination: b.model, sourceHashes: a.hashes, destinationHashes: b.hashes, path: "inferred")
        var outcome: String
        if let document = inferred.document {
          let compiled = MappingCompiler.compile(
            document,
            models: .init(source: a.model, destination: b.model, sourceHashes: a.hashes, destinationHashes: b.hashes))
          #expect(
            compiled.plan != nil,
            "\(bundle) \(a.name) → \(b.name): the inferred mapping does not compile: \(compiled.diagnostics)")
          outcome = "inferred"
        } else {
          let errors = inferred.diagnostics.filter { $0.severity == .error }
          outcome = Set(errors.map(\.id)).sorted().joined(separator: ",")
          for e in errors {
            #expect(e.location != nil, "\(e) has no location")
          }
          table.append("    \(errors.map(\.message).joined(separator: "\n    "))")
        }
        let key = "\(bundle): \(a.name) → \(b.name)"
        outcomes[key] = outcome
        table.insert("\(key): \(outcome)", at: table.count - (outcome == "inferred" ? 0 : 1))
      }
    }
    print("corpus inference:\n" + table.joined(separator: "\n"))
    // Every recorded pair is in the corpus and has its outcome; a pair of versions added to the
    // corpus later only has to compile when inferred, or have located errors, until recorded.
    #expect(Set(Self.recorded.keys).subtracting(outcomes.keys).isEmpty, "recorded, not in the corpus")
    #expect(outcomes.filter { Self.recorded[$0.key] != nil } == Self.recorded)
  }

  static func bundles(in corpus: URL) -> [String] {
    let found = FileManager.default.enumerator(atPath: corpus.path)?.compactMap { $0 as? String } ?? []
    return found.filter { $0.hasSuffix(".xcdatamodeld") }.filter { bundle in
      let items =
        (try? FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent(bundle).path)) ?? []
      return items.filter { $0.hasSuffix(".xcdatamodel") }.count >= 2
    }.sorted()
  }
}
