#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
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
      files.reads(mappings, as: "mappings")
      files.writes(output, option: "--output")
      try files.refuseClash()
      var explicit: [ExplicitMapping] = []
      if let mappings {
        let (found, diagnostics) = ExplicitMapping.find(in: [mappings], versions: versions)
        Console.report(diagnostics)
        if diagnostics.hasErrors { throw ExitCode(.inputErrors) }
        explicit = found
      }
      let bundleName = ((model.hasSuffix("/") ? String(model.dropLast()) : model) as NSString).lastPathComponent
      var lock = ModelLock.make(chosen, model: bundleName)
      // Only a regular file can hold an earlier lock (a FIFO or a device is written to).
      var info = stat()
      // An empty file (made by `touch` or mktemp) holds no earlier lock either.
      if stat(output, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 {
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
        lock.steps = previous.steps
      }
      lock.steps = Self.steps(lock, versions: versions, mappings: explicit)
      do {
        try AtomicFileWriter.replaceContents(of: output, with: lock.rendered())
      } catch {
        throw Console.writeFailure("lock file", path: output, error: error)
      }
      Console.say("mapc: locked \(lock.versions.count) versions of \(bundleName) in \(output)")
    }

    /// The steps between consecutive locked versions whose hashes differ, each with what it drops
    /// (`StepAnalysis.droppable`): a step the lock already records is kept as it was (shipped); a
    /// new one is planned as mapc migrate plans it (a covering mapping, else inferred). A step
    /// that cannot be planned is left out, with a note.
    static func steps(_ lock: ModelLock, versions: ModelVersions, mappings: [ExplicitMapping]) -> [ModelLock.Step] {
      var result: [ModelLock.Step] = []
      let indexes = lock.versions.compactMap { versions.index(named: $0.name) }
      for (i, j) in zip(indexes, indexes.dropFirst()) where i < j && !MigrationChain.isCompatible(versions, i, j) {
        let (from, to) = (versions.names[i], versions.names[j])
        if let kept = lock.steps.first(where: { $0.from == from && $0.to == to }) {
          result.append(kept)
          continue
        }
        let (step, _) = MigrationChain.planStep(versions: versions, mappings: mappings, from: i, to: j)
        guard let step else {
          Console.note(
            "the step '\(from)' → '\(to)' cannot be planned (no mapping covers it and it cannot be inferred): the lock records no drops for it"
          )
          continue
        }
        result.append(ModelLock.Step(from: from, to: to, drops: StepAnalysis.analyze(step.plan).droppable))
      }
      return result
    }
  }
}
