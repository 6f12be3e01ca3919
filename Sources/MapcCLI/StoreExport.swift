import ArgumentParser
import Foundation
import MapCompiler
import MapRuntime
import MapSQLite

extension MapcCommand {
  struct StoreExport: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Convert a Core Data SQLite store to a JSON store.",
      discussion: """
        Finds the version of the model bundle whose entity version hashes the store holds, \
        reads every object of the store with that version's model, and writes the JSON \
        store of mapc run (atomically). The store is only read; its -wal is honoured. Exit \
        status: 0 written, 1 the model cannot be read, 2 the store cannot be read or matches \
        no version (nothing written), 64 usage error.
        """)

    @Argument(help: "The Core Data SQLite store.")
    var store: String

    @Option(help: "The model bundle (.xcdatamodeld) that wrote the store.")
    var model: String

    @Option(name: .shortAndLong, help: "Where to write the JSON store.")
    var output: String

    @Flag(help: "Write the JSON store without whitespace.")
    var compact = false

    func run() throws {
      let versions: ModelVersions
      do {
        versions = try ModelVersions.load(bundle: model)
      } catch {
        throw DiagnosticOutput.failure(error)
      }
      let format = SQLiteStoreFormat()
      let storePath = store
      let result = Result { () throws(MigrationFailure) -> Int in
        let version = try StoreConversion.version(of: try format.peekMetadata(storePath), in: versions, bundle: model, path: storePath)
        let (graph, metadata) = try format.read(storePath, layout: StoreLayout(model: version.model), options: StoreReadOptions())
        let out = StoreWriter.Metadata(
          modelVersionIdentifiers: metadata.modelVersionIdentifiers ?? version.model.versionIdentifiers,
          entityHashes: version.hashes, extra: metadata.extra)
        try JSONStoreFormat().write(
          graph, source: nil, metadata: out, to: output, backup: nil,
          options: StoreWriteOptions(style: compact ? .compact : .indented))
        return graph.objectCount
      }
      switch result {
      case .success(let n):
        FileHandle.standardError.write(Data("mapc: exported \(n) objects from \(store); wrote \(output)\n".utf8))
      case .failure(let failure):
        FileHandle.standardError.write(Data((failure.description + "\nmapc: note: nothing was written\n").utf8))
        throw ExitCode(2)
      }
    }
  }
}
