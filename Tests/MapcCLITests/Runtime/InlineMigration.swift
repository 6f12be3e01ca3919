import Foundation
import MapCompiler
import MapJSON
import MapModelReader
import MapRuntime
import MapTestSupport
import Testing

/// Writes `contents` as `<name>.xcdatamodel/contents` in `dir` and returns the folder.
@discardableResult
func writeModelFolder(_ contents: String, named name: String, in dir: URL) throws -> URL {
  let folder = dir.appendingPathComponent("\(name).xcdatamodel")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  try contents.write(to: folder.appendingPathComponent("contents"), atomically: false, encoding: .utf8)
  return folder
}

/// The store layout of a model written in a test (loaded from a temporary model folder).
func storeLayout(ofModel contents: String) throws -> StoreLayout {
  let dir = URL(fileURLWithPath: FileManagerTemp.path("model"))
  defer { FileManagerTemp.remove(dir.path) }
  let folder = try writeModelFolder(contents, named: "m", in: dir)
  return StoreLayout(model: try ModelLoader.load(path: folder.path).model)
}

/// Runs a mapping written in a test (models `v1` and `v2`, the mapping naming them as
/// `v1.xcdatamodel` and `v2.xcdatamodel`) over a store written in the test, and returns the
/// migrated store's `objects`, read back with Foundation's JSON parser.
func migrateInline(
  sourceModel: String, destinationModel: String, mapping: String, store: String, label: String
) throws -> [String: [[String: Any]]] {
  let outcome = try runInline(
    sourceModel: sourceModel, destinationModel: destinationModel, mapping: mapping, store: store, label: label)
  let text = try outcome.get().text
  let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  return try #require(json["objects"] as? [String: [[String: Any]]])
}

/// `migrateInline`'s run: the migrated store's text and the run's summary, or the errors of the
/// run. Pass 1 spreads entity mappings with at least `parallelMinimum` source objects over the
/// cores; arrays of objects with at least `splitMinimum` bytes after them are read on two
/// threads.
func runInline(
  sourceModel: String, destinationModel: String, mapping: String, store: String, label: String,
  parallelMinimum: Int = MigrationManager.Options().parallelMinimum, splitMinimum: Int = StoreReader.defaultSplitMinimum
) throws -> Result<(text: String, summary: MigrationRun.Summary), MigrationFailure> {
  let dir = URL(fileURLWithPath: FileManagerTemp.path(label))
  defer { FileManagerTemp.remove(dir.path) }
  try writeModelFolder(sourceModel, named: "v1", in: dir)
  try writeModelFolder(destinationModel, named: "v2", in: dir)
  try mapping.write(to: dir.appendingPathComponent("m.xml"), atomically: false, encoding: .utf8)
  try store.write(to: dir.appendingPathComponent("in.json"), atomically: false, encoding: .utf8)

  let compiled = MappingCompilation.compile(mappingPath: dir.appendingPathComponent("m.xml").path)
  #expect(!compiled.diagnostics.hasErrors, "\(compiled.diagnostics)")
  let plan = try #require(compiled.plan)
  let out = dir.appendingPathComponent("out.json").path
  var options = MigrationRun.Options(output: .file(out), storeFormat: JSONStoreFormat(splitMinimum: splitMinimum))
  options.parallelMinimum = parallelMinimum
  let summary: MigrationRun.Summary
  do {
    summary = try MigrationRun.run(plan: plan, storePath: dir.appendingPathComponent("in.json").path, options: options)
  } catch {
    return .failure(error)
  }
  return .success((try String(contentsOfFile: out, encoding: .utf8), summary))
}

/// A failed run's errors as code, line, column and message: comparable between runs made in
/// different folders.
func errorLines(_ f: MigrationFailure) -> [String] {
  f.errors.map { "\($0.code) \($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message)" }
}

/// Compiles the diary fixture's mapping into `work` with the built mapc; returns the plan's path.
func compileDiaryPlan(in work: URL) throws -> String {
  let mapping = SharedPaths.fixtures!.appendingPathComponent("diary/SQADMappingModel1_2.xml").path
  let plan = work.appendingPathComponent("diary.cdm").path
  let compile = runMapc(["compile", mapping, "-o", plan])
  try #require(compile.exitCode == 0, "\(compile.stderr)")
  return plan
}
