import ArgumentParser
import Foundation
import MapRuntime
import MapSQLite
import MapcKit
import MapTools

extension MapcCommand {
  struct StoreRepair: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "repair",
      abstract: "Write a repaired copy of a Core Data SQLite store, for what mapc store check finds.",
      discussion: """
        Copies the store with SQLite (every row and Z_PK kept) and repairs what can be repaired \
        without losing data: Z_MAX raised, dangling optional to-one references set to NULL, \
        join rows that link to nothing deleted, colliding positions numbered again, missing \
        tables, columns and indexes made from the model's layout. A repair that loses data \
        (deleting rows whose Z_ENT names no entity, clearing values that do not decode or \
        whose external file is missing) is refused unless --allow-data-loss or --allow-drop \
        names it. Every change is printed with its rows; the copy is checked again. The store \
        is never written: the output may not be the store. Exit status: 0 written and the \
        copy passes mapc store check, 1 written but findings without a repair are left (listed), \
        or the store's metadata names no version of the model, or a model cannot be read \
        (nothing written), 2 the store cannot be read or a repair needs consent (nothing \
        written), 64 usage error or an output that would write over an input.
        """)

    @Argument(help: "The Core Data SQLite store.")
    var store: String

    @Option(name: .shortAndLong, help: "The repaired store to write.")
    var output: String

    @Option(help: "A model bundle (.xcdatamodeld), model (.xcdatamodel) or SwiftData schema (.swift).")
    var model: String?

    @OptionGroup var swiftSources: SwiftSourceOptions

    func validate() throws {
      try ModelArgument(model.map { [$0] } ?? [], swift: swiftSources).validate(option: "--model")
    }

    @OptionGroup var consentOptions: ConsentOptions

    func run() throws {
      var files = OutputTarget()
      files.reads(store, as: "store", kind: .store)
      files.reads(model, as: "model")
      files.writes(output, option: "--output", kind: .replacedStore)
      try files.refuseClash()
      let resolved = try StoreCheckModel.resolve(
        store: store, model: model, swift: swiftSources, command: "store repair")
      if let unknown = resolved.unknown {
        Console.error(unknown.message, id: unknown.id, place: store)
        Console.note(
          "the layout and the rows are repaired only for the version the metadata names; nothing was written")
        throw ExitCode(.inputErrors)
      }
      let findings: [StoreFinding]
      do {
        findings = try MapSQLite.StoreCheck.run(storeAt: store, model: resolved.model)
      } catch {
        throw Console.failure(error, notes: ["nothing was written"])
      }
      let consent = MapSQLite.StoreRepair.Consent(
        all: consentOptions.allowDataLoss, names: consentOptions.allowDrop)
      let refused = findings.filter {
        if case .withConsent = $0.fix { !consent.allows($0.fix) } else { false }
      }
      if !refused.isEmpty {
        for f in refused {
          Console.error(
            "\(f.place): \(f.message); the repair loses data: \(f.repair)", id: "check-repair-refused", place: store)
        }
        Console.note(
          "accept a loss with --allow-drop NAME (as each line says) or --allow-data-loss; nothing was written")
        throw ExitCode(.runFailed)
      }
      let changes: [MapSQLite.StoreRepair.Change]
      do {
        changes = try MapSQLite.StoreRepair.repair(
          storeAt: store, model: resolved.model, findings: findings, consent: consent, to: output)
      } catch {
        throw Console.failure(error, notes: ["nothing was written"])
      }
      for c in changes {
        Console.say("mapc: \(c.what)\(c.rows > 0 ? " (\(c.rows) row\(c.rows == 1 ? "" : "s"))" : "") [\(c.id)]")
      }
      let left: [StoreFinding]
      do {
        left = try MapSQLite.StoreCheck.run(storeAt: output, model: resolved.model).filter { $0.severity != .note }
      } catch {
        throw Console.failure(error)
      }
      Console.say(
        "mapc: wrote the repaired store to \(output): \(changes.count) change\(changes.count == 1 ? "" : "s")")
      guard left.isEmpty else {
        Console.sayRendered(StoreCheckReport(store: output, version: resolved.version, findings: left).text())
        Console.note(
          left.count == 1
            ? "1 finding of the copy has no repair mapc can make"
            : "\(left.count) findings of the copy have no repair mapc can make")
        throw ExitCode(.inputErrors)
      }
    }
  }
}
