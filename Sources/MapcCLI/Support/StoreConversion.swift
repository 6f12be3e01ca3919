import ArgumentParser
import Foundation
import MapCompiler
import MapRuntime
import MapSQLite

/// What `mapc store convert` and its aliases `store export` and `store import` share: the
/// version of the bundle whose hashes the store records, read in the format of the store's
/// content and written in the format asked for.
package enum StoreConversion {
  /// The destination format: the one named `to`, else the one named by `output`'s extension
  /// (`out.json`, `App.sqlite`); nil when neither names one of `formats`.
  package static func destination(
    to name: String?, output: String, among formats: [any StoreFormat]
  ) -> (any StoreFormat)? {
    if let name { return StoreFormats.named(name, among: formats) }
    let file = (output as NSString).lastPathComponent
    guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return nil }
    return StoreFormats.named(String(file[file.index(after: dot)...]), among: formats)
  }

  /// Checks the command line's files (`OutputTarget`), then converts `store` (read as `source`,
  /// else in the format of its content) to `output`, printing
  /// `mapc: VERB N objects from STORE; wrote OUTPUT`, or the errors and exit status 2 with
  /// nothing written (1 when the bundle cannot be read, 64 when an output would write over an
  /// input). Without a bundle, the model the store carries is used (`CachedModel`), named
  /// `command` in the note that says so. `quiet`: no summary line; `progress`: where the read
  /// and write phases are shown.
  package static func run(
    _ store: String, bundle: String?, output: String, from source: (any StoreFormat)? = nil,
    to destination: any StoreFormat, among formats: [any StoreFormat], verb: String,
    command: String = "store convert", quiet: Bool = false, progress: ProgressReporter? = nil
  ) throws {
    try run(
      store, model: bundle.map { ModelArgument([$0]) }, output: output, from: source, to: destination, among: formats,
      verb: verb, command: command, quiet: quiet, progress: progress)
  }

  /// `run` with the model as the commands take it (several Swift paths, Swift options).
  static func run(
    _ store: String, model: ModelArgument?, output: String, from source: (any StoreFormat)? = nil,
    to destination: any StoreFormat, among formats: [any StoreFormat], verb: String,
    command: String = "store convert", quiet: Bool = false, progress: ProgressReporter? = nil
  ) throws {
    let source = source ?? StoreFormats.detect(store, among: formats)
    var files = OutputTarget()
    files.reads(store, as: "store", kind: source.hasCompanionFiles ? .store : .file)
    if let model { files.reads(model.paths, as: "model") }
    // An SQLite store needs a regular file (SQLite opens it, with its companions); JSON may stream.
    files.writes(output, option: "--output", kind: destination.hasCompanionFiles ? .replacedStore : .file)
    try files.refuseClash()
    guard let model else {
      guard source is SQLiteStoreFormat else {
        throw Console.failure(
          MigrationFailure([
            MigrationError(
              "store-no-model-cache",
              "a \(source.name) store carries no model and no --model was given: give the model bundle whose version the store is at with --model",
              file: store)
          ]), notes: ["nothing was written"])
      }
      let versions = try CachedModel.versions(store: store, command: command)
      try convert(
        store, versions: versions, bundle: "the store's own model", output: output, from: source, to: destination,
        verb: verb, quiet: quiet, progress: progress)
      return
    }
    try convert(
      store, model: model, output: output, from: source, to: destination, verb: verb, quiet: quiet,
      progress: progress)
  }

  /// Converts `store` to `output`, printing `mapc: VERB N objects from STORE; wrote OUTPUT`, or
  /// the errors and exit status 2 with nothing written (1 when the bundle cannot be read).
  static func convert(
    _ store: String, model: ModelArgument, output: String, from source: any StoreFormat,
    to destination: any StoreFormat, verb: String, quiet: Bool = false, progress: ProgressReporter? = nil
  ) throws {
    let bundle = model.display
    let versions: ModelVersions
    do {
      versions = try ModelInput.versions(model)
    } catch {
      throw Console.failure(error)
    }
    try convert(
      store, versions: versions, bundle: bundle, output: output, from: source, to: destination, verb: verb,
      quiet: quiet, progress: progress)
  }

  /// The conversion with the versions already loaded (a bundle's, or the one model a store
  /// carries: `CachedModel`).
  static func convert(
    _ store: String, versions: ModelVersions, bundle: String, output: String, from source: any StoreFormat,
    to destination: any StoreFormat, verb: String, quiet: Bool = false, progress: ProgressReporter? = nil
  ) throws {
    let report = progress?.ioCallback
    // Same format: nothing is converted, so the store's own bookkeeping is kept too.
    let sameFormat = type(of: source) == type(of: destination)
    var external: String?
    let result = Result { () throws(MigrationFailure) -> Int in
      let version = try Self.version(of: try source.peekMetadata(store), in: versions, bundle: bundle, path: store)
      if destination is SQLiteStoreFormat {
        external = ExternalDataNote.note(store: store, format: source, model: version.model, into: output)
      }
      let (graph, metadata) = try StoreIO.read(
        source, store, layout: StoreLayout(model: version.model), report: report)
      let out = StoreWriteMetadata(
        modelVersionIdentifiers: metadata.modelVersionIdentifiers ?? version.model.versionIdentifiers,
        entityHashes: version.hashes, extra: metadata.extra)
      try StoreIO.write(
        destination, graph, source: nil, metadata: out, to: output, backup: nil, report: report,
        bookkeepingFrom: sameFormat ? store : nil)
      return graph.objectCount
    }
    if case .success = result { progress?.finish() } else { progress?.finish(completed: false) }
    switch result {
    case .success(let n):
      if !quiet { Console.say("mapc: \(verb) \(n) objects from \(store); wrote \(output)") }
      if let external { Console.note(external) }
      if !sameFormat {
        for line in AncillaryTables.notes(store: store, format: source, into: output) { Console.note(line) }
      }
    case .failure(let failure):
      throw Console.failure(failure, notes: ["nothing was written"])
    }
  }

  static func version(
    of peek: StoreMetadataPeek, in versions: ModelVersions, bundle: String, path: String
  ) throws(MigrationFailure) -> ModelVersion {
    switch StoreVersion.identify(peek.entityVersionHashes ?? [:], in: versions) {
    case .version(let i): return versions.versions[i]
    case .unknown(let closest, let differing):
      throw MigrationFailure([
        MigrationError(
          "store-unknown-version",
          "the store's entity version hashes match no version of \(bundle); the closest is '\(versions.versions[closest].name)', which differs in \(differing.joined(separator: ", "))",
          file: path)
      ])
    }
  }
}
