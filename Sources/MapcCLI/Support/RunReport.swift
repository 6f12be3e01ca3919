import Foundation
import MapRuntime
import MapcKit
import MapTools

/// What `--report FILE.json` of `mapc run` and `mapc migrate` holds, and the summary lines that
/// account for objects: per step, per entity mapping the source objects read, the ones it made
/// objects from and the objects made, and the losses accepted (`Specs/migrate.md` §6).
struct RunReport: Encodable {
  var command: String
  var store: String
  /// Where the result was written; nil for a dry run.
  var output: String?
  var steps: [Step] = []

  struct Step: Encodable {
    var from: String?
    var to: String?
    var mapping: String
    var objectsRead: Int
    var objectsMade: Int
    var entityMappings: [MigrationManager.MappingCount]
    var dropped: [DataLoss]
  }

  static func step(
    _ summary: MigrationRun.Summary, mapping: String, from: String? = nil, to: String? = nil, dropped: [DataLoss]
  ) -> Step {
    Step(
      from: from, to: to, mapping: mapping, objectsRead: summary.read.reduce(0) { $0 + $1.count },
      objectsMade: summary.created.reduce(0) { $0 + $1.count }, entityMappings: summary.mappings, dropped: dropped)
  }

  /// A step of MapcKit's report.
  static func step(_ result: MigrationStepResult) -> Step {
    step(result.summary, mapping: result.mapping, from: result.from, to: result.to, dropped: result.dropped)
  }

  /// `mapc:   M: 3 Records read, 8 Question made` per entity mapping, then the accepted losses.
  static func lines(_ step: Step) -> [String] {
    var result = step.entityMappings.map { m in
      let read = m.sourceEntity.map { "\(m.read) \($0) read" + (m.used != m.read ? " (\(m.used) used)" : "") + ", " }
      return "mapc:   \(m.mapping): \(read ?? "")\(m.made) \(m.destinationEntity ?? "") made"
    }
    if !step.dropped.isEmpty { result.append("mapc:   dropped (accepted): \(DataLoss.describe(step.dropped))") }
    return result
  }

  /// Writes the report; exit 1 when it cannot be written.
  func write(to path: String) throws {
    do {
      // The one way mapc writes a file: replaced atomically, or written to when it is a stream
      // (`--report /dev/stdout`).
      try AtomicFileWriter.replaceContents(of: path, with: StepTable.encode(self))
    } catch {
      throw Console.writeFailure("report", path: path, error: error)
    }
  }
}
