import ArgumentParser
import Foundation
import MapRuntime
import MapSQLite
import MapTools

extension MapcCommand {
  struct StoreCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "check",
      abstract: "Find what would make Core Data fail or lose data on opening a Core Data SQLite store.",
      discussion: """
        Checks the store's metadata hashes against the model's versions, its tables, columns \
        and indexes against the layout Core Data makes for the version, Z_PRIMARYKEY's \
        counters, each row's Z_ENT, to-one references and join rows that name no row, ordered \
        positions that collide, mandatory values that are NULL, values that do not decode, \
        external data files that are missing, and SQLite's integrity check. Each finding \
        names its table, column, row (Z_PK) and entity, its id and what mapc store repair does \
        about it. Without --model, the model the store carries (Z_MODELCACHE) is used. The \
        store is only read. Exit status: 0 no error or warning (notes may have been printed), \
        1 the store has errors or warnings, or a model cannot be read, 2 the store cannot be \
        read or carries no model, 64 usage error.
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
      case text, json, sarif
    }

    @Argument(help: "The Core Data SQLite store.")
    var store: String

    @Option(help: "A model bundle (.xcdatamodeld), model (.xcdatamodel) or SwiftData schema (.swift).")
    var model: String?

    @OptionGroup var swiftSources: SwiftSourceOptions

    func validate() throws {
      try ModelArgument(model.map { [$0] } ?? [], swift: swiftSources).validate(option: "--model")
    }

    @Option(help: "Output format: text (on standard error), json or sarif (on standard output).")
    var format: Format = .text

    func run() throws {
      let resolved = try StoreCheckModel.resolve(
        store: store, model: model, swift: swiftSources, command: "store check")
      let findings: [StoreFinding]
      do {
        findings = try MapSQLite.StoreCheck.run(storeAt: store, model: resolved.model)
      } catch {
        throw Console.failure(error)
      }
      let report = StoreCheckReport(
        store: store, version: resolved.version, findings: (resolved.unknown.map { [$0] } ?? []) + findings)
      switch format {
      case .text:
        if !report.findings.isEmpty { Console.sayRendered(report.text()) }
      case .json:
        FileHandle.standardOutput.write(Data(report.json().utf8))
      case .sarif:
        let sarif = report.sarif(
          toolVersion: MapcCommand.configuration.version, workingDirectory: FileManager.default.currentDirectoryPath)
        FileHandle.standardOutput.write(Data(sarif.utf8))
      }
      Console.say(report.summary)
      if report.fails { throw ExitCode(.inputErrors) }
    }
  }
}
