import Foundation
import MapRuntime
import MapSQLite
import MapcKit
import MapTools

/// The model a Core Data SQLite store carries (`Z_MODELCACHE`, Specs/sqlite-store.md §7.2), for
/// the commands that take it when no `--model` is given (`store model`, `store info`,
/// `store export`, `migrate`).
enum CachedModel {
  /// The cached model of the store at `path`, asked of `format` when given (else read as Core
  /// Data's `Z_MODELCACHE`); nil when the store has no cache. A cache that cannot be read prints
  /// its error and exits 2.
  static func read(store path: String, format: (any StoreFormat)? = nil, writes: Bool = true) throws -> CarriedModel? {
    do {
      if let format { return try format.carriedModel(path) }
      return try CoreDataModelCacheReader.read(storeAt: path).map { CarriedModel(model: $0.model, omitted: $0.omitted) }
    } catch {
      throw Console.failure(error, notes: writes ? ["nothing was written"] : [])
    }
  }

  /// The cached model as the one version of a bundle named after the store (MapcKit's
  /// `StoreModelCache`), for the commands that look a store's version up in a bundle; exit 2
  /// with the error printed when the store carries none. Says on standard error that the
  /// store's own model is used. `writes`: whether the command writes a file (its errors then say
  /// nothing was written); `format`: the store's, which reads its model (else Core Data SQLite).
  static func versions(
    store path: String, format: (any StoreFormat)? = nil, command: String, writes: Bool = true
  ) throws -> ModelVersions {
    let found: (versions: ModelVersions, notes: [String])
    do {
      found = try StoreModelCache.versions(store: path, format: format, command: command, writes: writes)
    } catch {
      throw Console.failure(error)
    }
    for line in found.notes { Console.note(line) }
    return found.versions
  }
}
