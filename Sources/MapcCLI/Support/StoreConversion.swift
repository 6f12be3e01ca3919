import ArgumentParser
import Foundation
import MapCompiler
import MapRuntime

/// What `mapc store export` and `mapc store import` share: the version of the bundle whose
/// hashes the store records, read in one format and written in the other.
enum StoreConversion {
  /// Converts `store` to `output`, printing `mapc: VERB N objects from STORE; wrote OUTPUT`, or
  /// the errors and exit status 2 with nothing written (1 when the bundle cannot be read).
  static func convert(
    _ store: String, bundle: String, output: String, from source: any StoreFormat, to destination: any StoreFormat,
    options: StoreWriteOptions, verb: String
  ) throws {
    let versions: ModelVersions
    do {
      versions = try ModelVersions.load(bundle: bundle)
    } catch {
      throw Console.failure(error)
    }
    try convert(
      store, versions: versions, bundle: bundle, output: output, from: source, to: destination, options: options,
      verb: verb)
  }

  /// The conversion with the versions already loaded (a bundle's, or the one model a store
  /// carries: `CachedModel`).
  static func convert(
    _ store: String, versions: ModelVersions, bundle: String, output: String, from source: any StoreFormat,
    to destination: any StoreFormat, options: StoreWriteOptions, verb: String
  ) throws {
    let result = Result { () throws(MigrationFailure) -> Int in
      let version = try Self.version(of: try source.peekMetadata(store), in: versions, bundle: bundle, path: store)
      let (graph, metadata) = try source.read(
        store, layout: StoreLayout(model: version.model), options: StoreReadOptions())
      let out = StoreWriteMetadata(
        modelVersionIdentifiers: metadata.modelVersionIdentifiers ?? version.model.versionIdentifiers,
        entityHashes: version.hashes, extra: metadata.extra)
      try destination.write(graph, source: nil, metadata: out, to: output, backup: nil, options: options)
      return graph.objectCount
    }
    switch result {
    case .success(let n):
      Console.say("mapc: \(verb) \(n) objects from \(store); wrote \(output)")
      for line in AncillaryTables.notes(store: store, format: source, into: output) { Console.note(line) }
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
