import MapRuntime
import MapTools

/// Compares two versions of a model (what `mapc diff` computes): what changed, per entity and
/// property, whether Core Data infers the step, and what stepping back would lose. The report
/// is a value; showing it (text, Markdown, JSON, pictures) is the caller's.
public struct ModelVersionDiffer: Sendable {
  /// What changed from one version to another.
  public struct Report: Sendable {
    /// The older version.
    public var from: ModelVersion
    /// The newer version.
    public var to: ModelVersion
    /// What changed, and the inference verdict.
    public var diff: ModelDiff
    /// With `reverse`: what the reverse of the inferred step does (renames undone, what it
    /// drops); nil without, or when the versions' hashes are the same.
    public var reverse: String?
  }

  /// A differ.
  public init() {}

  /// The versions of `versions` named `from` and `to`: by default the current version and the
  /// one before it. Nil when the target is the first version and no `from` is given; an unknown
  /// name is thrown (`model-version-not-found`, exit status 1).
  public func versions(
    _ versions: ModelVersions, from: String?, to: String?
  ) throws(MapcError) -> (from: ModelVersion, to: ModelVersion)? {
    let target = try Self.index(to, in: versions) ?? versions.current
    guard let source = try Self.index(from, in: versions) ?? (target > 0 ? target - 1 : nil) else { return nil }
    return (versions.versions[source], versions.versions[target])
  }

  /// What changed from `from` to `to` (two versions of the model named `modelName`); with
  /// `reverse`, what stepping back from `to` to `from` does too.
  public func diff(from: ModelVersion, to: ModelVersion, modelName: String, reverse: Bool = false) -> Report {
    let diff = ModelDiffer.diff(from: from, to: to)
    // The reverse of the step as mapc migrate infers it (renames undone), with no mappings.
    let back =
      reverse && !diff.sameHashes
      ? ReverseLine.text(ModelVersions(bundlePath: modelName, chain: [from, to]), newer: 1).message : nil
    return Report(from: from, to: to, diff: diff, reverse: back)
  }

  static func index(_ name: String?, in versions: ModelVersions) throws(MapcError) -> Int? {
    guard let name else { return nil }
    guard let i = versions.index(named: name) else {
      throw .stopped(
        message:
          "the bundle has no version '\(name)' (versions: \(versions.names.map { "'\($0)'" }.joined(separator: ", ")))",
        id: "model-version-not-found", place: nil, notes: [], status: .inputErrors)
    }
    return i
  }
}
