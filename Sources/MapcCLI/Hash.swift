import ArgumentParser
import Foundation
import MapModelReader
import MapJSONText
import MapRuntime
import MapcKit
import MapTools

extension MapcCommand {
  struct Hash: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print Core Data's entity version hashes of a model (base64).",
      discussion: """
        Prints the version hash Core Data computes for every entity of the model (the values \
        found in a compiled model's VersionInfo.plist and in a store's metadata), and the \
        model's version identifiers. Given a Core Data SQLite store, hashes the model the \
        store carries (Z_MODELCACHE). Exit status: 0 on success, 1 when the model cannot be \
        read (diagnostics on standard error), 2 when the store cannot be read or carries no \
        model, 64 on a usage error.
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
      case text, json
    }

    @Argument(
      help: ArgumentHelp(
        "A .xcdatamodeld bundle, a .xcdatamodel folder, a contents file, a SwiftData schema (.swift files, folders, "
          + "an .xcodeproj: several are read together), or a Core Data SQLite store (its own model)."))
    var models: [String]

    /// The model: the first path (the only one unless they are Swift source).
    var model: String { models[0] }

    @Option(help: "The version of a .xcdatamodeld bundle to read (default: its current version).")
    var modelVersion: String?

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @OptionGroup var swiftSources: SwiftSourceOptions

    func validate() throws {
      guard !models.isEmpty else { throw ValidationError("give the model to hash") }
      try ModelArgument(models, swift: swiftSources).validate(option: "the model")
    }

    func run() throws {
      let prefix = Self.prefix(model)
      if let store = StoreFormatChoice.formats.first(where: { $0.carriesModels && $0.recognizes(prefix: prefix) }) {
        guard let cached = try CachedModel.read(store: model, format: store) else {
          throw Console.failure(
            MigrationFailure([
              MigrationError(
                "store-no-model-cache", "the store carries no model (no Z_MODELCACHE row) to hash", file: model)
            ]))
        }
        let hashes = VersionHasher.entityHashes(of: cached.model)
        print(format == .text ? Self.text(cached.model, hashes) : Self.json(cached.model, hashes), terminator: "")
        return
      }
      let loaded: LoadedModel
      do {
        loaded = try ModelInput.load(ModelArgument(models, swift: swiftSources), version: modelVersion)
      } catch {
        throw Console.failure(error)
      }
      Console.report(loaded.warnings)
      let hashes = VersionHasher.entityHashes(of: loaded.model)
      let output: String
      switch format {
      case .text: output = Self.text(loaded.model, hashes)
      case .json: output = Self.json(loaded.model, hashes)
      }
      print(output, terminator: "")
    }

    static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    /// The first bytes of a regular file (a store is recognised by them), empty otherwise.
    static func prefix(_ path: String) -> [UInt8] {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
        let handle = FileHandle(forReadingAtPath: path)
      else { return [] }
      defer { try? handle.close() }
      return [UInt8]((try? handle.read(upToCount: 16)) ?? Data())
    }

    /// Aligned `label  value` lines: version name, version identifiers, then one line per entity.
    static func text(_ model: ObjectModel, _ hashes: [EntityHash]) -> String {
      let identifiers =
        model.versionIdentifiers.isEmpty
        ? "(none)" : model.versionIdentifiers.map(JSONValue.quoted).joined(separator: ", ")
      var rows = [
        ("version name:", model.versionName ?? "(none)"),
        ("version identifiers:", identifiers),
      ]
      rows += hashes.map { ($0.entity, base64($0.hash)) }
      let width = rows.map { $0.0.count }.max() ?? 0
      return rows.map { label, value in
        TerminalText.escaped(label + String(repeating: " ", count: width - label.count + 2) + value) + "\n"
      }.joined()
    }

    /// `{"versionName", "modelVersionIdentifiers", "entityVersionHashes"}` in that order,
    /// entities sorted by name, two-space indentation.
    static func json(_ model: ObjectModel, _ hashes: [EntityHash]) -> String {
      JSONValue.object([
        ("versionName", model.versionName.map(JSONValue.string) ?? .null),
        ("modelVersionIdentifiers", .array(model.versionIdentifiers.map(JSONValue.string))),
        ("entityVersionHashes", .object(hashes.map { ($0.entity, .string(base64($0.hash))) })),
      ]).rendered()
    }
  }
}
