import ArgumentParser
import Foundation
import MapRuntime
import MapcKit
import MapTools

extension MapcCommand {
  struct Lock: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Record the hashes of a model bundle's shipped versions in a lock file.",
      discussion: """
        Writes each version's entity and property version hashes and its version checksum \
        (NSManagedObjectModel.versionChecksum, what NSStagedMigrationManager's stages and a \
        store's NSStoreModelVersionChecksumKey name it by) to the lock file (JSON, with \
        a readable summary of what each property hash covers). `mapc lint BUNDLE --lock FILE` then fails when a locked version \
        is edited. Versions already in an existing lock must be unchanged: lock refuses to \
        record an edited shipped version. --print-checksums prints the checksums instead. \
        Exit status: 0 written, 1 the model cannot be read or a locked version changed, \
        64 usage error.
        """)

    @Argument(help: "The model bundle (.xcdatamodeld), or a SwiftData schema (.swift, a folder, an .xcodeproj).")
    var model: String

    @OptionGroup var swiftSources: SwiftSourceOptions

    @Option(name: [.customShort("o"), .long], help: "The lock file to write (or to add versions to).")
    var output: String?

    @Option(help: "Lock the versions up to this one in chain order (default: every version).")
    var through: String?

    @Flag(help: "Print each version's name and version checksum, and write nothing.")
    var printChecksums = false

    @Option(
      help: "A folder of mappings (as mapc migrate takes) for the steps between locked versions that are not inferred.")
    var mappings: String?

    func run() throws {
      if output == nil && !printChecksums { throw ValidationError("give -o LOCKFILE, or --print-checksums") }
      if output != nil && printChecksums { throw ValidationError("give either -o LOCKFILE or --print-checksums") }
      try ModelArgument([model], swift: swiftSources).validate(option: "the model")
      let versions: ModelVersions
      do {
        versions = try ModelInput.versions(ModelArgument([model], swift: swiftSources))
      } catch {
        throw Console.failure(error)
      }
      let chosen: [ModelVersion]
      do {
        chosen = try ModelLocker.versions(versions, through: through)
      } catch {
        throw Console.failure(error)
      }
      if printChecksums {
        let sums = ModelLocker.checksums(chosen)
        let width = sums.map(\.name.count).max() ?? 0
        for (name, checksum) in sums {
          print(TerminalText.escaped("\(name + String(repeating: " ", count: width - name.count))  \(checksum)"))
        }
        return
      }
      guard let output else { return }
      var files = OutputTarget()
      files.reads(model, as: "model")
      files.reads(mappings, as: "mappings")
      files.writes(output, option: "--output")
      try files.refuseClash()
      var options = ModelLocker.Options(versions: versions, bundle: model, output: output)
      options.through = through
      options.mappings = mappings
      let report: ModelLocker.Report
      do {
        report = try ModelLocker().lock(options, messages: ModelInput.print)
      } catch {
        throw Console.failure(error)
      }
      Console.say("mapc: locked \(report.lockedVersions) versions of \(report.bundleName) in \(output)")
    }
  }
}
