import ArgumentParser
import Foundation
import MapRuntime
import MapcKit
import MapTools

extension MapcCommand {
  struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show what changed between two versions of a data model, and whether Core Data can infer the step.",
      discussion: """
        Entities, attributes and relationships added, removed, renamed (by renaming \
        identifier) and changed (type, optionality, default, delete rule, ordered, to-many, \
        transient, indexes, constraints, hash modifier), and whether Core Data's lightweight \
        migration can infer the step without losing data. Give a bundle with --from and --to (default: the current version \
        and the one before it in chain order), or two models. Formats: text, markdown (for a \
        pull-request comment), json, and the pictures mermaid, svg and html (the destination \
        model as an entity-relationship diagram with the changes marked). Exit status: 0 \
        printed, 1 a model cannot be read, 64 usage error.
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
      case text, markdown, json, mermaid, svg, html
    }

    @Argument(help: "A model bundle (.xcdatamodeld), or two models (.xcdatamodel folders, contents files or bundles).")
    var models: [String]

    @Option(help: "With a bundle: the version to diff from (default: the one before --to in chain order).")
    var from: String?

    @Option(help: "With a bundle: the version to diff to (default: the bundle's current version).")
    var to: String?

    @Option(help: "text, markdown, json, mermaid, svg or html.")
    var format: Format = .text

    @Option(name: [.customShort("o"), .long], help: "Write here instead of standard output.")
    var output: String?

    @Flag(
      help:
        "Also say whether mapc migrate --to the first version can reverse the step, and what the reverse loses (text and markdown)."
    )
    var reverse = false

    @OptionGroup var swiftSources: SwiftSourceOptions

    func run() throws {
      if reverse && ![.text, .markdown].contains(format) {
        throw ValidationError("--reverse goes with --format text or markdown")
      }
      let (a, b) = try versions()
      let report = ModelVersionDiffer().diff(
        from: a, to: b, modelName: models.joined(separator: ", "), reverse: reverse)
      let (diff, back) = (report.diff, report.reverse)
      let text: String
      switch format {
      case .text:
        text =
          TerminalText.escapedLines(diff.text()) + (back.map { TerminalText.escaped("Reverse: \($0)") + "\n" } ?? "")
      case .markdown: text = diff.markdown() + (back.map { "\n**Reverse:** \(TerminalText.escaped($0))\n" } ?? "")
      case .json: text = diff.json()
      case .mermaid, .svg, .html: text = try Diagrams.render(diff: diff, format: format.rawValue)
      }
      try Diagrams.emit(text, to: output, reading: models)
    }

    /// The two versions to compare.
    func versions() throws -> (ModelVersion, ModelVersion) {
      switch models.count {
      case 1:
        let versions: ModelVersions
        do {
          versions = try ModelInput.versions(ModelArgument([models[0]], swift: swiftSources))
        } catch {
          throw Console.failure(error)
        }
        let chosen: (from: ModelVersion, to: ModelVersion)?
        do {
          chosen = try ModelVersionDiffer().versions(versions, from: from, to: to)
        } catch {
          throw Console.failure(error)
        }
        guard let chosen else {
          throw ValidationError(
            "'\(to ?? versions.names[versions.current])' is the bundle's first version: give --from")
        }
        return (chosen.from, chosen.to)
      case 2:
        if from != nil || to != nil {
          throw ValidationError("--from and --to choose versions of one bundle; with two models, give none")
        }
        return (try load(models[0]), try load(models[1]))
      default:
        throw ValidationError("give one model bundle, or two models")
      }
    }

    func load(_ path: String) throws -> ModelVersion {
      do {
        let loaded = try ModelInput.load(ModelArgument([path], swift: swiftSources), version: nil)
        Console.report(loaded.warnings)
        let name = loaded.model.versionName ?? ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return ModelVersion(name: name, model: loaded.model)
      } catch {
        throw Console.failure(error)
      }
    }
  }
}
