import MapCompiler
import MapSyntax
import MapRuntime

/// A plan named by its file: one `mapc compile` wrote, or a mapping (mapping XML, or an Xcode
/// `.xcmappingmodel`) compiled in memory first, as `mapc run` and `mapc test` take either.
public enum PlanSource {
  /// Whether `path` names a mapping to compile rather than a plan file.
  public static func isMapping(_ path: String) -> Bool {
    path.hasSuffix(".xml") || XcodeMappingReader.isXcodeMapping(path)
  }

  /// The plan at `path`, with the warnings its compilation gave (none for a plan file). Throws
  /// ``MapcError``: the mapping's diagnostics, warnings included (exit status 1), or why the plan
  /// file cannot be read (exit status 2, as a run that fails).
  public static func load(_ path: String) throws(MapcError) -> (plan: MigrationPlan, warnings: [Diagnostic]) {
    if isMapping(path) {
      let result = MappingCompilation.compile(mappingPath: path)
      guard let plan = result.plan else { throw .input([result.diagnostics]) }
      return (plan, result.diagnostics)
    }
    do {
      return (try PlanReader.read(contentsOf: path), [])
    } catch {
      throw MapcError(error, place: error.path ?? path, notes: [], status: .runFailed)
    }
  }
}
