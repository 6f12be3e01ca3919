import Foundation
import MapRuntime
import MapTestSupport
import MapTools
import Testing

/// The policy the catalogue's examples name: registered as `App.LegacyToModernPolicy`,
/// answering `slugFromTitle:`.
final class ExampleLegacyToModernPolicy: EntityMigrationPolicy, @unchecked Sendable {
  override class var selectors: [String] { ["slugFromTitle:"] }
}

let registerExamplePolicy: Void = {
  PolicyRegistry.register(ExampleLegacyToModernPolicy.self, as: "App.LegacyToModernPolicy")
}()

/// Writes an example into a temporary folder and lints it (with its baseline, if any).
func lintExample(_ e: LintExample) throws -> (folder: String, findings: [LintFinding]) {
  _ = registerExamplePolicy
  let folder = try FileManagerTemp.folder("lint").path
  let mapping = try e.write(to: folder)
  let baseline = e.baseline == nil ? nil : try LintBaseline.load(path: folder + "/" + LintExample.baselineFileName)
  return (folder, LintRunner.run(files: [mapping], baseline: baseline).findings)
}

/// Source model entities, destination model entities and a mapping body, written as
/// `Source.xcdatamodel`, `Destination.xcdatamodel` and `m.xml`; returns the active findings.
func lint(source: String, destination: String, mapping body: String, file: String = "m.xml") throws -> [LintFinding] {
  _ = registerExamplePolicy
  let folder = try FileManagerTemp.folder("lint").path
  defer { try? FileManager.default.removeItem(atPath: folder) }
  var e = LintExample(source: source, destination: destination, mapping: "")
  e.mapping = """
    <?xml version="1.0" encoding="UTF-8"?>
    <mappingModel name="T" formatVersion="1">
      <sourceModel path="Source.xcdatamodel"/>
      <destinationModel path="Destination.xcdatamodel"/>
    \(body)
    </mappingModel>

    """
  let path = try e.write(to: folder)
  try FileManager.default.moveItem(atPath: path, toPath: folder + "/" + file)
  return Linter.lint(path: folder + "/" + file).filter(\.isActive)
}

/// `rule line:column` of each finding, for readable comparisons.
func positions(_ findings: [LintFinding]) -> [String] {
  findings.map { "\($0.ruleId) \($0.diagnostic.location.map { "\($0.line):\($0.column)" } ?? "-")" }
}
