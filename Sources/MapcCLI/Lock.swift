import ArgumentParser
import Foundation
import MapCompiler
import MapRuntime

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

    @Argument(help: "The model bundle (.xcdatamodeld).")
    var model: String

    @Option(name: [.customShort("o"), .long], help: "The lock file to write (or to add versions to).")
    var output: String?

    @Option(help: "Lock the versions up to this one in chain order (default: every version).")
    var through: String?

    @Flag(help: "Print each version's name and version checksum, and write nothing.")
    var printChecksums = false

    func run() throws {
      if output == nil && !printChecksums { throw ValidationError("give -o LOCKFILE, or --print-checksums") }
      if output != nil && printChecksums { throw ValidationError("give either -o LOCKFILE or --print-checksums") }
      let versions: ModelVersions
      do {
        versions = try ModelInput.versions(model)
      } catch {
        throw Console.failure(error)
      }
      var chosen = versions.versions
      if let through {
        guard let i = versions.index(named: through) else {
          Console.error(
            "the bundle has no version '\(through)' (versions: \(versions.names.map { "'\($0)'" }.joined(separator: ", ")))",
            id: "model-version-not-found")
          throw ExitCode(.inputErrors)
        }
        chosen = Array(versions.versions[...i])
      }
      if printChecksums {
        let width = chosen.map(\.name.count).max() ?? 0
        for v in chosen {
          let name = v.name + String(repeating: " ", count: width - v.name.count)
          print(TerminalText.escaped("\(name)  \(ModelLock.checksum(v.hashes))"))
        }
        return
      }
      guard let output else { return }
      var files = OutputTarget()
      files.reads(model, as: "model")
      files.writes(output, option: "--output")
      try files.refuseClash()
      let bundleName = ((model.hasSuffix("/") ? String(model.dropLast()) : model) as NSString).lastPathComponent
      var lock = ModelLock.make(chosen, model: bundleName)
      if FileManager.default.fileExists(atPath: output) {
        let previous: ModelLock
        do {
          previous = try ModelLock.read(output)
        } catch {
          throw Console.failure(error)
        }
        // A shipped version stays locked as it was: an edit is refused, not recorded.
        let changed = previous.check(versions, bundle: model, lockPath: output).filter { $0.severity == .error }
        if !changed.isEmpty {
          Console.report(changed)
          Console.note("nothing was written; \(output) is unchanged")
          throw ExitCode(.inputErrors)
        }
        let known = Set(previous.versions.map(\.name))
        lock.versions = previous.versions + lock.versions.filter { !known.contains($0.name) }
      }
      do {
        try AtomicFileWriter.replaceContents(of: output, with: lock.rendered())
      } catch {
        throw Console.writeFailure("lock file", path: output, error: error)
      }
      Console.say("mapc: locked \(lock.versions.count) versions of \(bundleName) in \(output)")
    }
  }
}
