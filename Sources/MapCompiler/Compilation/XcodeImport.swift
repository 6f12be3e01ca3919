import Foundation
import MapRuntime
import MapSyntax

/// `mapc import`: an Xcode mapping model as a mapping XML file that says the same thing, minimal
/// (`Specs/xcmappingmodel.md` §7). The models are referred to by the files the mapping belongs
/// to when they are found (paths relative to the output file), else by the mapping model itself,
/// whose embedded snapshots then serve as the models.
public enum XcodeImport {
  public struct Output: Sendable {
    public var text: String?
    public var diagnostics: [Diagnostic]
    /// The model files the mapping model names that were found, and the overrides given.
    public var models: [String] = []
  }

  public static func text(
    xcmappingPath: String, outputPath: String, source: MappingCompilation.ModelOverride? = nil,
    destination: MappingCompilation.ModelOverride? = nil
  ) -> Output {
    let documentPath = XcodeMappingReader.documentPath(xcmappingPath)
    let xml: XML.Document
    do {
      xml = try XMLReader.parse(contentsOf: documentPath)
    } catch {
      return Output(text: nil, diagnostics: error.diagnostics)
    }
    let (read, readDiagnostics) = XcodeMappingReader.read(xml)
    guard let mapping = read else { return Output(text: nil, diagnostics: readDiagnostics) }
    let (document, documentDiagnostics) = XcodeMappingDocument.document(mapping)
    let diagnostics = (readDiagnostics + documentDiagnostics).sortedByLocation()
    guard !diagnostics.hasErrors else { return Output(text: nil, diagnostics: diagnostics) }
    let folder = PathText.folder(of: PathText.absolute(outputPath))
    var models: [String] = []
    let wrapper = PathText.folder(of: PathText.absolute(documentPath))
    func reference(_ override: MappingCompilation.ModelOverride?, _ recorded: Located<String>?)
      -> MappingTextWriter.ModelPath
    {
      if let override {
        models.append(override.path)
        return .init(path: PathText.relative(PathText.absolute(override.path), from: folder), version: override.version)
      }
      if let recorded, let found = XcodeModelLocator.locate(recorded.value, mappingPath: documentPath) {
        models.append(found)
        return .init(path: PathText.relative(PathText.absolute(found), from: folder))
      }
      return .init(path: PathText.relative(wrapper, from: folder))
    }
    let text = MappingTextWriter.text(
      document, source: reference(source, mapping.sourceModelPath),
      destination: reference(destination, mapping.destinationModelPath),
      comment: "Imported by mapc import from \((wrapper as NSString).lastPathComponent); compiles to the same plan.")
    return Output(text: text, diagnostics: diagnostics, models: models)
  }
}
