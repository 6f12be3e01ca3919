import MapModelReader
import MapRuntime
import MapSyntax

/// The source and destination models of an Xcode mapping model, and what the compiler uses.
///
/// The embedded snapshots are the models the mapping was made for (what Xcode's mapc compiles
/// into the `.cdm`). When the model files are found too (`--source`/`--destination`, or
/// `XcodeModelLocator`), they are what the app ships: mapc compiles against them and compares
/// the entity version hashes of the entities its entity mappings name with the snapshot's,
/// reporting each entity mapping whose recorded hash drifted (`xcmap-model-drift`): Core Data's "Mismatch between mapping and source/destination models"
/// on the device, found before shipping. Without model files the snapshot is used.
public enum XcodeModels {
  public struct Side: Sendable {
    public var model: ObjectModel
    public var hashes: [EntityHash]
    /// The model file used, when one was found or given (nil: the snapshot).
    public var file: String?
    public var snapshot: ObjectModel?
  }

  public static func resolve(
    _ mapping: XcodeMapping, side: String, override: MappingCompilation.ModelOverride?
  ) -> (Side?, [Diagnostic]) {
    var diagnostics: [Diagnostic] = []
    let blob = side == "source" ? mapping.sourceModelData : mapping.destinationModelData
    let recorded = side == "source" ? mapping.sourceModelPath : mapping.destinationModelPath
    var snapshot: ObjectModel?
    if let blob {
      do {
        snapshot = try ModelSnapshotReader.read(blob.bytes)
      } catch {
        diagnostics.append(
          .error(
            "xcmap-snapshot", "the embedded \(side) model (\(side)modeldata) cannot be read: \(error.message)",
            at: blob.location))
      }
    }
    var file: (path: String, version: String?)?
    if let override {
      file = (override.path, override.version)
    } else if let recorded, let found = XcodeModelLocator.locate(recorded.value, mappingPath: mapping.path) {
      file = (found, nil)
    }
    var fileModel: ObjectModel?
    if let file {
      do {
        let loaded = try ModelLoader.load(path: file.path, version: file.version)
        diagnostics += loaded.warnings
        fileModel = loaded.model
      } catch {
        diagnostics += error.diagnostics
        return (nil, diagnostics)
      }
    }
    guard let model = fileModel ?? snapshot else {
      if blob == nil {
        diagnostics.append(
          .error(
            "xcmap-missing-model",
            "the mapping holds no \(side) model snapshot\(recorded.map { " and \($0.value) was not found" } ?? ""); pass --\(side) MODEL",
            at: mapping.location))
      }
      return (nil, diagnostics)
    }
    let hashes = VersionHasher.entityHashes(of: model)
    if let fileModel, let snapshot, let file {
      diagnostics += ModelDrift.compare(
        snapshot: snapshot, file: fileModel, fileHashes: hashes, side: side, filePath: file.path,
        listed: ModelDrift.listed(mapping, side: side), at: blob?.location ?? mapping.location)
    }
    return (Side(model: model, hashes: hashes, file: file?.path, snapshot: snapshot), diagnostics)
  }
}
