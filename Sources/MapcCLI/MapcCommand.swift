import ArgumentParser
import Foundation
import MapRuntime

/// The `mapc` command. An app that links `MapcCLI` can register its own migration policies
/// (see `PolicyRegistry` in MapRuntime) and then call `MapcCommand.main()`.
public struct MapcCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    // The executable's own name, so that an app's build (`SongbookSimple`) shows its name in
    // usage lines.
    commandName: CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent } ?? "mapc",
    abstract: "Core Data mapping models on Linux and CI: compile, run, lint.",
    version: "0.1.0",
    subcommands: [
      Compile.self, Run.self, Lint.self, Dump.self, Hash.self, Import.self, Export.self, Eval.self, Infer.self,
      Migrate.self, Store.self, Test.self, Lock.self, Diff.self, ModelFromSwift.self,
    ]
  )

  public init() {}

  /// Runs the command line. Temporary files of every command that writes (`run`, `migrate`,
  /// `store export`/`import`, `compile`, …) are removed on SIGINT, SIGTERM and SIGHUP before the
  /// process ends of the signal.
  /// Unknown commands after `help` and unknown options are usage errors naming them (exit 64,
  /// `CommandLineCheck`).
  public static func main() {
    TemporaryFiles.installSignalHandlers()
    TemporaryFiles.endWithParent()
    let given = Array(CommandLine.arguments.dropFirst())
    if let problem = CommandLineCheck.problem(given) { CommandLineCheck.fail(problem, given) }
    main(CommandLineCheck.evalFormat(given))
  }
}
