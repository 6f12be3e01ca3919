#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import MapRuntime
import MapTools

/// What `mapc lock` does (`Specs/model-lock.md`): a bundle's shipped versions, each with its
/// entity and property hashes and its version checksum, recorded in a lock file; with the steps
/// between locked versions and what each drops. Versions an existing lock records must be
/// unchanged: an edit is refused, not recorded.
public struct ModelLocker: Sendable {
  /// A lock to write.
  public struct Options: Sendable {
    /// The bundle's versions in chain order.
    public var versions: ModelVersions
    /// The bundle as it was named (the lock records its last path component).
    public var bundle: String
    /// The lock file to write, or to add versions to.
    public var output: String
    /// Lock the versions up to this one (default: every version).
    public var through: String?
    /// A folder of mappings for the steps between locked versions that are not inferred.
    public var mappings: String?

    /// Options to lock `versions` of `bundle` in `output`.
    public init(versions: ModelVersions, bundle: String, output: String) {
      self.versions = versions
      self.bundle = bundle
      self.output = output
    }
  }

  /// What a lock recorded.
  public struct Report: Sendable {
    /// The bundle's name as the lock records it.
    public var bundleName: String
    /// How many versions the lock holds now.
    public var lockedVersions: Int
  }

  public init() {}

  /// The versions up to `through` in chain order (every version when nil). Throws
  /// ``MapcError`` (`model-version-not-found`, exit status 1) for a version the bundle lacks.
  public static func versions(_ versions: ModelVersions, through: String?) throws(MapcError) -> [ModelVersion] {
    guard let through else { return versions.versions }
    guard let i = versions.index(named: through) else {
      throw .stopped(
        message:
          "the bundle has no version '\(through)' (versions: \(versions.names.map { "'\($0)'" }.joined(separator: ", ")))",
        id: "model-version-not-found", place: nil, notes: [], status: .inputErrors)
    }
    return Array(versions.versions[...i])
  }

  /// Each chosen version's name and version checksum, in chain order.
  public static func checksums(_ versions: [ModelVersion]) -> [(name: String, checksum: String)] {
    versions.map { ($0.name, ModelLock.checksum($0.hashes)) }
  }

  /// Writes the lock (atomically), adding new versions to an existing one. Warnings about the
  /// mappings and notes about steps that cannot be planned go to `messages` as they are found.
  /// Throws ``MapcError`` (exit status 1, nothing written) when a mapping, the existing lock or
  /// the file cannot be used, or a locked version changed.
  public func lock(_ options: Options, messages: ModelSource.Messages = { _ in }) throws(MapcError) -> Report {
    let chosen = try Self.versions(options.versions, through: options.through)
    var explicit: [ExplicitMapping] = []
    if let mappings = options.mappings {
      let (found, diagnostics) = ExplicitMapping.find(in: [mappings], versions: options.versions)
      if diagnostics.hasErrors { throw .input([diagnostics]) }
      if !diagnostics.isEmpty { messages(.warnings(diagnostics)) }
      explicit = found
    }
    let model = options.bundle
    let bundleName = ((model.hasSuffix("/") ? String(model.dropLast()) : model) as NSString).lastPathComponent
    let output = options.output
    var lock = ModelLock.make(chosen, model: bundleName)
    if Self.mayHoldALock(output) {
      let previous: ModelLock
      do {
        previous = try ModelLock.read(output)
      } catch {
        throw MapcError(error)
      }
      // A shipped version stays locked as it was: an edit is refused, not recorded.
      let changed = previous.check(options.versions, bundle: model, lockPath: output).filter { $0.severity == .error }
      if !changed.isEmpty { throw .input([changed], notes: ["nothing was written; \(output) is unchanged"]) }
      let known = Set(previous.versions.map(\.name))
      lock.versions = previous.versions + lock.versions.filter { !known.contains($0.name) }
      lock.steps = previous.steps
    }
    lock.steps = Self.steps(lock, versions: options.versions, mappings: explicit, messages: messages)
    do {
      try AtomicFileWriter.replaceContents(of: output, with: lock.rendered())
    } catch {
      throw .stopped(
        message: "cannot write the lock file: \(error.reason)", id: "io-write", place: output, notes: [],
        status: .inputErrors)
    }
    return Report(bundleName: bundleName, lockedVersions: lock.versions.count)
  }

  /// Only a non-empty regular file can hold an earlier lock (a FIFO or a device is written to;
  /// an empty file made by `touch` or mktemp holds none).
  static func mayHoldALock(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_size > 0
  }

  /// The steps between consecutive locked versions whose hashes differ, each with what it drops
  /// (`StepAnalysis.droppable`): a step the lock already records is kept as it was (shipped); a
  /// new one is planned as mapc migrate plans it (a covering mapping, else inferred). A step
  /// that cannot be planned is left out, with a note.
  static func steps(
    _ lock: ModelLock, versions: ModelVersions, mappings: [ExplicitMapping], messages: ModelSource.Messages
  ) -> [ModelLock.Step] {
    var result: [ModelLock.Step] = []
    let indexes = lock.versions.compactMap { versions.index(named: $0.name) }
    for (i, j) in zip(indexes, indexes.dropFirst()) where i < j && !MigrationChain.isCompatible(versions, i, j) {
      let (from, to) = (versions.names[i], versions.names[j])
      if let kept = lock.steps.first(where: { $0.from == from && $0.to == to }) {
        result.append(kept)
        continue
      }
      let (step, _) = MigrationChain.planStep(versions: versions, mappings: mappings, from: i, to: j)
      guard let step else {
        let note =
          "the step '\(from)' → '\(to)' cannot be planned (no mapping covers it and it cannot be inferred): the lock records no drops for it"
        messages(.notes(DiagnosticLine.render(.note, note, id: nil, place: nil)))
        continue
      }
      result.append(ModelLock.Step(from: from, to: to, drops: StepAnalysis.analyze(step.plan).droppable))
    }
    return result
  }
}
