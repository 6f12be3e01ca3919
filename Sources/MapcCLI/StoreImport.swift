import ArgumentParser
import Foundation
import MapCompiler
import MapRuntime
import MapSQLite

extension MapcCommand {
  struct StoreImport: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Convert a JSON store to a Core Data SQLite store.",
      discussion: """
        Finds the version of the model bundle whose entity version hashes the JSON store \
        records, reads it with that version's model, and writes a new SQLite store in the \
        layout Core Data creates for that version, replacing OUTPUT (with its -wal and -shm) \
        atomically. The store UUID and the metadata keys the JSON store carries are kept. Exit \
        status: 0 written, 1 the model cannot be read, 2 the store cannot be read, matches no \
        version or cannot be written (nothing written), 64 usage error.
        """)

    @Argument(help: "The JSON store.")
    var store: String

    @Option(help: "The model bundle (.xcdatamodeld) whose version the store is at.")
    var model: String

    @Option(name: .shortAndLong, help: "Where to write the SQLite store.")
    var output: String

    func run() throws {
      let versions: ModelVersions
      do {
        versions = try ModelVersions.load(bundle: model)
      } catch {
        throw DiagnosticOutput.failure(error)
      }
      TemporaryFiles.installSignalHandlers()
      let (storePath, outputPath, bundle) = (store, output, model)
      let result = Result { () throws(MigrationFailure) -> Int in
        let json = JSONStoreFormat()
        let version = try StoreConversion.version(of: try json.peekMetadata(storePath), in: versions, bundle: bundle, path: storePath)
        let (graph, metadata) = try json.read(storePath, layout: StoreLayout(model: version.model), options: StoreReadOptions())
        let out = StoreWriter.Metadata(
          modelVersionIdentifiers: metadata.modelVersionIdentifiers ?? version.model.versionIdentifiers,
          entityHashes: version.hashes, extra: metadata.extra)
        try SQLiteStoreFormat().write(graph, source: nil, metadata: out, to: outputPath, backup: nil, options: StoreWriteOptions())
        return graph.objectCount
      }
      switch result {
      case .success(let n):
        FileHandle.standardError.write(Data("mapc: imported \(n) objects from \(store); wrote \(output)\n".utf8))
      case .failure(let failure):
        FileHandle.standardError.write(Data((failure.description + "\nmapc: note: nothing was written\n").utf8))
        throw ExitCode(2)
      }
    }
  }
}

/// What `mapc store export` and `import` share: the bundle version a store's hashes name.
enum StoreConversion {
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
