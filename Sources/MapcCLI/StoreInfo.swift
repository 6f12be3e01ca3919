import ArgumentParser
import Foundation
import MapCompiler
import MapRuntime

extension MapcCommand {
  struct StoreInfo: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "info",
      abstract: "Print a store's format, model version, hashes, entities and row counts.",
      discussion: """
        With --model, also names the version of the bundle whose entity version hashes the \
        store holds. Exit status: 0 printed, 1 a model cannot be read, 2 the store cannot be \
        read, 64 usage error.
        """)

    @Argument(help: "A Core Data SQLite store or a JSON store.")
    var store: String

    @Option(help: "A model bundle (.xcdatamodeld): name the version the store is at.")
    var model: String?

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
      if let model {
        let versions: ModelVersions
        do {
          versions = try ModelVersions.load(bundle: model)
        } catch {
          throw Console.failure(error)
        }
        var byName: [String: String] = [:]
        for (e, h) in hashes { byName[e] = h }
        switch StoreVersion.identify(byName, in: versions) {
        case .version(let i): lines.append("model version: \(versions.versions[i].name)")
        case .unknown(let closest, let differing):
          lines.append(
            "model version: none of \(model) (closest '\(versions.versions[closest].name)', differs in \(differing.joined(separator: ", ")))"
          )
        }
      }
      lines.append("entity version hashes:")
      let width = hashes.map(\.0.count).max() ?? 0
      lines += hashes.map { "  " + $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 }
      if let entities = summary.entities { lines += [entities.heading] + entities.lines }
      print(lines.map(TerminalText.escaped).joined(separator: "\n"))
    }
  }
}
