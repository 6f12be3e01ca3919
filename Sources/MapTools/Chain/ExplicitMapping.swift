import Foundation
import MapCompiler
import MapRuntime
import MapSyntax

/// A mapping file of a mappings folder and the versions of a bundle it fits, matched by entity
/// version hashes as Core Data matches a mapping model to a store (reference notes §3.5): the
/// hashes of the source entities its entity mappings name form a non-empty subset of a
/// version's hashes, and likewise for the destination side.
public struct ExplicitMapping: Sendable {
  public var path: String
  /// Versions whose hashes the mapping's source side fits, and destination side.
  public var sourceVersions: [Int]
  public var destinationVersions: [Int]
  /// Where the mapping file is located, for diagnostics about it.
  public var location: SourceLocation?

  /// Consecutive steps `(i, i + 1)` this mapping covers.
  public var steps: [Int] { sourceVersions.filter { destinationVersions.contains($0 + 1) } }

  /// Whether it is a reverse mapping: from a version to the one just before it, for
  /// `mapc migrate --to` an earlier version (`Specs/migrate.md` §3a).
  public var isReverse: Bool {
    sourceVersions.contains { s in destinationVersions.contains(s - 1) && !covers(s - 1, s) }
  }

  /// Whether the mapping fits a store of version `i` and version `j` as its destination.
  public func covers(_ i: Int, _ j: Int) -> Bool { sourceVersions.contains(i) && destinationVersions.contains(j) }

  /// Reads and compiles every mapping file under `paths` (every `*.xml` of a folder, whatever
  /// its root, and every `.xcmappingmodel`; hidden files and folders skipped) and matches each
  /// to the bundle's versions. Compiler errors are returned as diagnostics (a file that is
  /// empty, not XML or not a `<mappingModel>` among them); such a mapping is left out.
  public static func find(in paths: [String], versions: ModelVersions) -> ([ExplicitMapping], [Diagnostic]) {
    let files: [String]
    do {
      files = try MappingFileFinder.find(paths, everyXML: true)
    } catch {
      return ([], [.error("chain-mappings", error.description, at: nil, file: paths.first)])
    }
    var result: [ExplicitMapping] = []
    var diagnostics: [Diagnostic] = []
    for file in files.sorted() {
      let output = MappingCompilation.compile(mappingPath: file)
      guard let plan = output.plan else {
        diagnostics += output.diagnostics.filter { $0.severity == .error }
        continue
      }
      let fits = { (hashes: [EntityHash], names: [String]) -> [Int] in
        let wanted = Set(
          names.compactMap { n in
            hashes.first { $0.entity == n }.map { "\(n)\u{0}\(Data($0.hash).base64EncodedString())" }
          })
        guard !wanted.isEmpty else { return [] }
        return versions.versions.indices.filter { i in
          wanted.isSubset(of: Set(versions.versions[i].base64Hashes.map { "\($0.key)\u{0}\($0.value)" }))
        }
      }
      let sources = fits(plan.sourceEntityHashes, plan.entityMappings.compactMap(\.sourceEntity))
      let destinations = fits(plan.destinationEntityHashes, plan.entityMappings.compactMap(\.destinationEntity))
      result.append(
        ExplicitMapping(
          path: file, sourceVersions: sources, destinationVersions: destinations,
          location: output.document?.location))
    }
    return (result, diagnostics)
  }
}
