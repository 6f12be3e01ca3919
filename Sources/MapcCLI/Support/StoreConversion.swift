import ArgumentParser
import Foundation
import MapRuntime
import MapcKit
import MapTools

/// What `mapc store convert` and its aliases `store export` and `store import` share: the
/// command line's files checked, the model read, MapcKit's `StoreConverter` called and its
/// report printed.
package enum StoreConversion {
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
      guard source.carriesModels else {
        throw Console.failure(
          MigrationFailure([
            MigrationError(
              "store-no-model-cache",
              "a \(source.name) store carries no model and no --model was given: give the model bundle whose version the store is at with --model",
              file: store)
          ]), notes: ["nothing was written"])
      }
      let versions = try CachedModel.versions(store: store, format: source, command: command)
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

  /// The conversion (MapcKit's `StoreConverter`) with the versions already loaded (a bundle's,
  /// or the one model a store carries: `CachedModel`).
  static func convert(
    _ store: String, versions: ModelVersions, bundle: String, output: String, from source: any StoreFormat,
    to destination: any StoreFormat, verb: String, quiet: Bool = false, progress: ProgressReporter? = nil
  ) throws {
    var options = StoreConverter.Options(
      store: store, output: output, versions: versions, modelName: bundle, source: source, destination: destination)
    options.ioProgress = progress?.ioCallback
    let report: StoreConverter.Report
    do {
      report = try StoreConverter().convert(options)
    } catch {
      progress?.finish(completed: false)
      throw Console.failure(error)
    }
    progress?.finish()
    if !quiet {
      let chunks = MemoryLimitOption.chunksText(report.chunks ?? 0)
      Console.say("mapc: \(verb) \(report.objectCount) objects\(chunks) from \(store); wrote \(output)")
    }
    for line in report.notes { Console.note(line) }
  }
}
