import Foundation
import MapRuntime

/// `mapc infer`: the inferred mapping between two model files, as a mapping XML file that
/// names them relative to where it is written.
public enum InferredMappingFile {
  public struct Output: Sendable {
    public var text: String?
    public var diagnostics: [Diagnostic]
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
    guard compiled.plan != nil else { return Output(text: nil, diagnostics: diagnostics) }
    let folder = (PathText.absolute(outputPath) as NSString).deletingLastPathComponent
    func reference(_ m: MappingCompilation.ModelOverride) -> MappingTextWriter.ModelPath {
      .init(path: PathText.relative(PathText.absolute(m.path), from: folder), version: m.version)
    }
    let text = MappingTextWriter.text(
      document, source: reference(source), destination: reference(destination),
      comment: "Inferred by mapc infer with Core Data's lightweight rules: \(inferred.summary).")
    return Output(text: text, diagnostics: diagnostics)
  }
}
