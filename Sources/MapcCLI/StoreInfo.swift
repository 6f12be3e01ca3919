import ArgumentParser
import Foundation
import MapRuntime
import MapcKit
import MapTools

extension MapcCommand {
  struct StoreInfo: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "info",
      abstract: "Print a store's format, model version, hashes, entities and row counts.",
      discussion: """
        With --model, also names the version of the bundle whose entity version hashes the \
        store holds, and when the store carries its model (Z_MODELCACHE), what differs \
        between that version and it, by entity and property. Without --model, the model the \
        store carries is named. Core Data's own tables (persistent history, CloudKit \
        mirroring) are listed apart from the entities. Exit status: 0 printed, 1 a model cannot be read, 2 the store cannot be \
        read, 64 usage error.
        """)

    @Argument(help: "A Core Data SQLite store or a JSON store.")
    var store: String

    @Option(
      help:
        "A model bundle (.xcdatamodeld) or SwiftData schema (.swift, a folder, an .xcodeproj): name the store's version. Repeated, the Swift files of all its paths are read together."
    )
    var model: [String] = []

    @OptionGroup var swiftSources: SwiftSourceOptions

    func validate() throws {
      try ModelArgument(model, swift: swiftSources).validate(option: "--model")
    }

    func run() throws {
      let format = StoreFormatChoice.detect(store)
      let summary: StoreSummary
      do {
        summary = try format.summary(store)
      } catch {
        throw Console.failure(error)
      }
      var lines = ["format: \(format.name)"] + summary.facts.map { "\($0.label): \($0.value)" }
      let hashes = summary.entityVersionHashes
      var cached: CarriedModel? = nil
      if format.carriesModels {
        do {
          cached = try format.carriedModel(store)
        } catch {
          // The rest of the store is still described.
          lines.append("model cache: unreadable (\(error.errors.first?.message ?? "\(error)"))")
        }
      }
      if !model.isEmpty {
        let argument = ModelArgument(model, swift: swiftSources)
        let model = argument.display
        var versions: ModelVersions
        do {
          versions = try ModelInput.versions(argument)
        } catch {
          throw Console.failure(error)
        }
        var byName: [String: String] = [:]
        for (e, h) in hashes { byName[e] = h }
        let match = versions.matchingConfiguration(of: byName)
        versions = match.versions
        if let configuration = match.configuration { lines.append("configuration: \(configuration)") }
        let compared: Int
        switch StoreVersion.identify(byName, in: versions) {
        case .version(let i):
          lines.append("model version: \(versions.versions[i].name)")
          compared = i
        case .unknown(let closest, let differing):
          lines.append(
            "model version: none of \(model) (closest '\(versions.versions[closest].name)', differs in \(differing.joined(separator: ", ")))"
          )
          compared = closest
        }
        if let cached {
          let version = versions.versions[compared]
          let differences = ModelDifference.lines(
            version.model, cached.model, a: "'\(version.name)'", b: "the store's model")
          if differences.isEmpty {
            lines.append("store's own model (Z_MODELCACHE): hashes like '\(version.name)'")
          } else {
            lines.append("store's own model (Z_MODELCACHE) differs from '\(version.name)':")
            lines += differences.map { "  " + $0 }
          }
        }
      } else if let cached {
        Console.note("store info: no --model given; naming the model the store carries (Z_MODELCACHE)")
        let own = ModelVersion(name: "", model: cached.model)
        let matches = own.base64Hashes == Dictionary(hashes, uniquingKeysWith: { x, _ in x })
        lines.append(
          "model version: the store's own model (Z_MODELCACHE): \(cached.model.entities.count) entities, "
            + (matches ? "hashes like the store's metadata" : "hashes unlike the store's metadata"))
        lines.append("model entities: " + cached.model.entities.map(\.name).joined(separator: ", "))
      }
      lines.append("entity version hashes:")
      let width = hashes.map(\.0.count).max() ?? 0
      lines += hashes.map { "  " + $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 }
      if let entities = summary.entities { lines += [entities.heading] + entities.lines }
      if let own = summary.ownTables { lines += [own.heading] + own.lines }
      print(lines.map(TerminalText.escaped).joined(separator: "\n"))
    }
  }
}
