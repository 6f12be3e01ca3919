import MapRuntime
import MapSyntax

/// `mapc lint --reverse BUNDLE.xcdatamodeld [MAPPINGS]`: for each step of the history, whether
/// `mapc migrate --to` an earlier version can take it back, and what that loses
/// (`Specs/migrate.md` §3a). Notes only: a history whose steps cannot all be reversed is not
/// wrong, and a team rolls back only some releases.
extension ChainCheck {
  public static func reverseNotes(bundle: String, mappingPaths: [String]) -> [Diagnostic] {
    guard let versions = try? ModelVersions.load(bundle: bundle) else { return [] }
    let mappings = mappingPaths.isEmpty ? [] : ExplicitMapping.find(in: mappingPaths, versions: versions).0
    var result: [Diagnostic] = []
    for i in versions.versions.indices.dropFirst() where !MigrationChain.isCompatible(versions, i - 1, i) {
      let line = ReverseLine.text(versions, mappings: mappings, newer: i)
      result.append(Diagnostic(.note, id: line.id, line.message, at: nil, file: bundle))
    }
    return result
  }
}
