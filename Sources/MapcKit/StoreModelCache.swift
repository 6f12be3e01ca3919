import Foundation
import MapRuntime
import MapSQLite
import MapTools

/// The model a Core Data SQLite store carries (`Z_MODELCACHE`, Specs/sqlite-store.md §7.2), for
/// reading or converting a store when no model is given.
public enum StoreModelCache {
  /// The model the store at `store` carries, as the one version of a model named after the
  /// store, with the notes to show (that the store's own model is used, named `command` there,
  /// and what of the cache mapc leaves out). Throws when the store has no cache or it cannot be
  /// read (exit status 2); `writes`: whether the caller writes a file (the error's notes then
  /// say that nothing was written). `format`: the store's format, which reads the model it
  /// carries (`StoreFormat.carriedModel`); without one the store is read as Core Data SQLite.
  public static func versions(
    store path: String, format: (any StoreFormat)? = nil, command: String, writes: Bool = true
  ) throws(MapcError) -> (versions: ModelVersions, notes: [String]) {
    let notes = writes ? ["nothing was written"] : []
    let found: CarriedModel?
    do {
      if let format {
        found = try format.carriedModel(path)
      } else {
        found = try CoreDataModelCacheReader.read(storeAt: path).map {
          CarriedModel(model: $0.model, omitted: $0.omitted)
        }
      }
    } catch {
      throw .run(error, notes: notes)
    }
    guard let cached = found else {
      throw .run(
        MigrationFailure([
          MigrationError(
            "store-no-model-cache",
            "the store carries no model (no Z_MODELCACHE row) and no --model was given: give the model bundle that wrote it with --model",
            file: path)
        ]), notes: notes)
    }
    let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    var model = cached.model
    model.versionName = name
    let said =
      [
        "\(command): no --model given; using the model the store carries (Z_MODELCACHE, \(model.entities.count) entities)"
      ] + cached.omitted.map { "the store's model cache holds \($0), which mapc leaves out" }
    return (ModelVersions(bundlePath: path, single: ModelVersion(name: name, model: model)), said)
  }
}
