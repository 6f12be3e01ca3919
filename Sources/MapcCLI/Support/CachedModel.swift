import Foundation
import MapCompiler
import MapRuntime
import MapSQLite

/// The model a Core Data SQLite store carries (`Z_MODELCACHE`, Specs/sqlite-store.md §7.2), for
/// the commands that take it when no `--model` is given (`store model`, `store info`,
/// `store export`, `migrate`).
enum CachedModel {
  /// The cached model of the store at `path`; nil when the store has no cache. A cache that
  /// cannot be read prints its error and exits 2.
  static func read(store path: String, writes: Bool = true) throws -> CoreDataModelCacheReader.Result? {
    do {
      return try CoreDataModelCacheReader.read(storeAt: path)
    } catch {
      throw Console.failure(error, notes: writes ? ["nothing was written"] : [])
    }
  }

  /// The cached model as the one version of a bundle named after the store, for the commands
  /// that look a store's version up in a bundle; nil (with an error printed) when the store
  /// carries none. Says on standard error that the store's own model is used.
  /// `writes`: whether the command writes a file (its errors then say nothing was written).
  static func versions(store path: String, command: String, writes: Bool = true) throws -> ModelVersions {
    guard let cached = try read(store: path, writes: writes) else {
      throw Console.failure(
        MigrationFailure([
          MigrationError(
            "store-no-model-cache",
            "the store carries no model (no Z_MODELCACHE row) and no --model was given: give the model bundle that wrote it with --model",
            file: path)
        ]), notes: writes ? ["nothing was written"] : [])
    }
    let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    var model = cached.model
    model.versionName = name
    Console.note(
      "\(command): no --model given; using the model the store carries (Z_MODELCACHE, \(model.entities.count) entities)"
    )
    for line in cached.omitted { Console.note("the store's model cache holds \(line), which mapc leaves out") }
    return ModelVersions(bundlePath: path, single: ModelVersion(name: name, model: model))
  }
}
