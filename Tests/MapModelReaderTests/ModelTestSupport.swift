import Foundation
import MapModelReader
import MapRuntime
import MapSyntax
import Testing

/// A `contents` document whose `body` starts on line 3 (the `<model>` element is line 2).
func modelText(_ body: String) -> String {
  "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
    + "<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\" userDefinedModelVersionIdentifier=\"v7\">\n"
    + body + "\n</model>\n"
}

/// Loads a model from text; the diagnostics when it fails.
func loadModel(_ text: String, path: String = "m/contents") -> Result<LoadedModel, DiagnosticsError> {
  do {
    let document = try XMLReader.parse(bytes: Array(text.utf8), path: path)
    return .success(try ModelLoader.load(document: document, versionName: "m"))
  } catch {
    return .failure(error)
  }
}

/// The diagnostics of a model that must fail to load.
func loadErrors(_ body: String) -> [Diagnostic] {
  switch loadModel(modelText(body)) {
  case .success:
    Issue.record("the model loaded, but should have failed")
    return []
  case .failure(let error):
    return error.diagnostics
  }
}

/// Every file named `contents` under `root`, sorted.
func contentsFiles(under root: URL) -> [URL] {
  let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
  var found: [URL] = []
  while let url = enumerator?.nextObject() as? URL {
    if url.lastPathComponent == "contents" { found.append(url) }
  }
  return found.sorted { $0.path < $1.path }
}
