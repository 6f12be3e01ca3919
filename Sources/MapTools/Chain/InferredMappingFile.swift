import Foundation
import MapCompiler
import MapModelReader
import MapRuntime
import MapSyntax

/// `mapc infer`: the inferred mapping between two model files, as a mapping XML file that
/// names them relative to where it is written.
public enum InferredMappingFile {
  public struct Output: Sendable {
    public var text: String?
    public var diagnostics: [Diagnostic]
    /// What the mapping drops (empty when nothing is written).
    public var drops = Drops()
  }

  /// What an inferred mapping drops, as `mapc lint` names it for `chain-step-drops-data`
  /// (`Specs/migrate.md` §6, §7): source entities no entity mapping reads (their objects),
  /// attributes (their values) and relationships (their links; not one whose inverse is kept),
  /// `Entity.property`, a property every concrete entity having it drops named once on its parent.
  public struct Drops: Sendable, Hashable {
    public var entities: [String] = []
    public var attributes: [String] = []
    public var relationships: [String] = []

    /// One line per kind that drops anything, for standard error.
    public var lines: [String] {
      func line(_ names: [String], _ one: String, _ many: String, _ what: String) -> String? {
        guard !names.isEmpty else { return nil }
        let kind = names.count == 1 ? one : many
        return
          "the inferred mapping drops \(names.count) \(kind) (\(names.count == 1 ? "its" : "their") \(what) are lost): "
          + names.joined(separator: ", ")
      }
      return [
        line(entities, "entity", "entities", "objects"),
        line(attributes, "attribute", "attributes", "values"),
        line(relationships, "relationship", "relationships", "links"),
      ].compactMap { $0 }
    }

    static func of(_ plan: MigrationPlan) -> Drops {
      let analysis = StepAnalysis.analyze(plan)
      var drops = Drops()
      for name in ChainCheck.dropped(analysis, model: plan.sourceModel) {
        if name.hasPrefix("entity ") {
          drops.entities.append(String(name.dropFirst("entity ".count)))
          continue
        }
        let dot = name.firstIndex(of: ".")!
        let (entity, property) = (String(name[..<dot]), String(name[name.index(after: dot)...]))
        let isRelationship =
          analysis.entity(named: entity)?.properties.first { $0.name == property }?.isRelationship ?? false
        if isRelationship { drops.relationships.append(name) } else { drops.attributes.append(name) }
      }
      return drops
    }
  }

  public static func text(
    source: MappingCompilation.ModelOverride, destination: MappingCompilation.ModelOverride, outputPath: String
  ) -> Output {
    var diagnostics: [Diagnostic] = []
    var loaded: [LoadedModel] = []
    for side in [source, destination] {
      do {
        loaded.append(try ModelLoader.load(path: side.path, version: side.version))
      } catch {
        diagnostics += error.diagnostics
      }
    }
    guard loaded.count == 2 else { return Output(text: nil, diagnostics: diagnostics) }
    let (s, d) = (loaded[0].model, loaded[1].model)
    let (sh, dh) = (VersionHasher.entityHashes(of: s), VersionHasher.entityHashes(of: d))
    let inferred = MappingInference.infer(
      source: s, destination: d, sourceHashes: sh, destinationHashes: dh, path: outputPath)
    diagnostics += inferred.diagnostics
    guard let document = inferred.document else { return Output(text: nil, diagnostics: diagnostics) }
    // What is written must compile to the plan a migration would run.
    let compiled = MappingCompiler.compile(
      document, models: MappingCompiler.Models(source: s, destination: d, sourceHashes: sh, destinationHashes: dh))
    diagnostics += compiled.diagnostics
    guard let plan = compiled.plan else { return Output(text: nil, diagnostics: diagnostics) }
    let folder = PathText.folder(of: PathText.absolute(outputPath))
    func reference(_ m: MappingCompilation.ModelOverride) -> MappingTextWriter.ModelPath {
      .init(path: PathText.relative(PathText.absolute(m.path), from: folder), version: m.version)
    }
    let text = MappingTextWriter.text(
      document, source: reference(source), destination: reference(destination),
      comment: "Inferred by mapc infer with Core Data's lightweight rules: \(inferred.summary).")
    return Output(text: text, diagnostics: diagnostics, drops: .of(plan))
  }
}
