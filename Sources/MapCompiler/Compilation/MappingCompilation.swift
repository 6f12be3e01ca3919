import Crypto
import Foundation
import MapModelReader
import MapRuntime
import MapSyntax

/// Compiles a mapping file: reads it, loads the two models it names (or the ones given),
/// checks pinned hashes, checks every mapping, and builds the plan.
public enum MappingCompilation {
  /// A model to use instead of the one the mapping names.
  public struct ModelOverride: Sendable {
    public var path: String
    public var version: String?
    public init(path: String, version: String? = nil) {
      self.path = path
      self.version = version
    }
  }

  /// The result: a plan when there was no error, and every diagnostic (warnings included).
  public struct Output: Sendable {
    public var plan: MigrationPlan?
    public var diagnostics: [Diagnostic]
    public var document: MappingDocument?
    public var models: MappingCompiler.Models?
  }

  public static func compile(
    mappingPath: String, source: ModelOverride? = nil, destination: ModelOverride? = nil
  ) -> Output {
    let xml: XML.Document
    do {
      xml = try XMLReader.parse(contentsOf: XcodeMappingReader.documentPath(mappingPath))
    } catch {
      return Output(plan: nil, diagnostics: error.diagnostics)
    }
    if xml.root.name == "database" {
      return compileXcode(xml, source: source, destination: destination)
    }
    let (read, readDiagnostics) = MappingReader.read(xml)
    guard let document = read else { return Output(plan: nil, diagnostics: readDiagnostics) }
    var diagnostics = readDiagnostics
    let folder = PathText.folder(of: mappingPath)
    // The two models are independent: they are read and hashed at the same time.
    let (sourceSide, destinationSide) = Concurrently.both(
      { loadAndHash(document.sourceModel, override: source, side: "source", folder: folder, document: document) },
      {
        loadAndHash(
          document.destinationModel, override: destination, side: "destination", folder: folder, document: document)
      })
    diagnostics += sourceSide.diagnostics + destinationSide.diagnostics
    // Structure errors in the mapping do not stop the checks: the elements that were read are
    // still checked, so every problem is reported at once. Without both models nothing can be.
    guard let (sm, sourceHashes) = sourceSide.model, let (dm, destinationHashes) = destinationSide.model else {
      return Output(plan: nil, diagnostics: diagnostics.sortedByLocation(), document: document)
    }
    let models = MappingCompiler.Models(
      source: sm, destination: dm, sourceHashes: sourceHashes, destinationHashes: destinationHashes)
    diagnostics += PinCheck.check(document.sourceModel, models.sourceHashes, side: "source")
    diagnostics += PinCheck.check(document.destinationModel, models.destinationHashes, side: "destination")
    let result = MappingCompiler.compile(document, models: models)
    diagnostics += result.diagnostics
    diagnostics = diagnostics.sortedByLocation()
    return Output(
      plan: diagnostics.hasErrors ? nil : result.plan, diagnostics: diagnostics, document: document, models: models)
  }

  private struct LoadedSide: Sendable {
    var model: (ObjectModel, [EntityHash])?
    var diagnostics: [Diagnostic]
  }

  private static func loadAndHash(
    _ reference: ModelReference?, override: ModelOverride?, side: String, folder: String, document: MappingDocument
  ) -> LoadedSide {
    var diagnostics: [Diagnostic] = []
    let model = loadModel(reference, override: override, side: side, folder: folder, document: document, &diagnostics)
    return LoadedSide(model: model.map { ($0, VersionHasher.entityHashes(of: $0)) }, diagnostics: diagnostics)
  }

  private static func loadModel(
    _ reference: ModelReference?, override: ModelOverride?, side: String, folder: String,
    document: MappingDocument, _ diagnostics: inout [Diagnostic]
  ) -> ObjectModel? {
    let path: String
    let version: String?
    if let override {
      path = override.path
      version = override.version
    } else if let reference {
      let p = reference.path.value
      path = p.hasPrefix("/") ? p : (folder.isEmpty ? p : folder + "/" + p)
      version = reference.version?.value
    } else {
      diagnostics.append(
        .error(
          "map-missing-model",
          "the mapping names no \(side) model: add <\(side)Model path=\"…\"/> or pass --\(side) MODEL",
          at: document.location))
      return nil
    }
    if XcodeMappingReader.isXcodeMapping(path) {
      return snapshotModel(path: path, side: side, &diagnostics)
    }
    do {
      let loaded = try ModelLoader.load(path: path, version: version)
      diagnostics += loaded.warnings
      return loaded.model
    } catch {
      if let reference, override == nil, error.diagnostics.allSatisfy({ $0.location == nil }) {
        // The model file itself could not be found or opened: point at the reference too.
        diagnostics += error.diagnostics.map { d in
          var x = d
          x.location = reference.path.location
          x.message = "\(side) model \(reference.path.value): \(d.message)"
          return x
        }
      } else {
        diagnostics += error.diagnostics
      }
      return nil
    }
  }
}

extension MappingCompilation {
  /// Compiles an Xcode mapping model (`xcmapping.xml`, `Specs/xcmappingmodel.md`).
  static func compileXcode(_ xml: XML.Document, source: ModelOverride?, destination: ModelOverride?) -> Output {
    let (read, readDiagnostics) = XcodeMappingReader.read(xml)
    guard let mapping = read else { return Output(plan: nil, diagnostics: readDiagnostics.sortedByLocation()) }
    let (document, documentDiagnostics) = XcodeMappingDocument.document(mapping)
    var diagnostics = readDiagnostics + documentDiagnostics
    let (sourceSide, destinationSide) = Concurrently.both(
      { XcodeModels.resolve(mapping, side: "source", override: source) },
      { XcodeModels.resolve(mapping, side: "destination", override: destination) })
    diagnostics += sourceSide.1 + destinationSide.1
    guard let s = sourceSide.0, let d = destinationSide.0 else {
      return Output(plan: nil, diagnostics: diagnostics.sortedByLocation(), document: document)
    }
    let models = MappingCompiler.Models(
      source: s.model, destination: d.model, sourceHashes: s.hashes, destinationHashes: d.hashes)
    let result = MappingCompiler.compile(document, models: models)
    diagnostics = (diagnostics + result.diagnostics).sortedByLocation()
    return Output(
      plan: diagnostics.hasErrors ? nil : result.plan, diagnostics: diagnostics, document: document, models: models)
  }

  /// A model reference that names an Xcode mapping model: the snapshot of that side embedded in
  /// it (`Specs/mapping-xml.md`, `<sourceModel>`).
  static func snapshotModel(path: String, side: String, _ diagnostics: inout [Diagnostic]) -> ObjectModel? {
    let xml: XML.Document
    do {
      xml = try XMLReader.parse(contentsOf: XcodeMappingReader.documentPath(path))
    } catch {
      diagnostics += error.diagnostics
      return nil
    }
    let (read, readDiagnostics) = XcodeMappingReader.read(xml)
    diagnostics += readDiagnostics.filter { $0.severity == .error }
    guard let mapping = read else { return nil }
    guard let blob = side == "source" ? mapping.sourceModelData : mapping.destinationModelData else {
      diagnostics.append(
        .error("xcmap-missing-model", "the mapping model holds no \(side) model snapshot", at: mapping.location))
      return nil
    }
    do {
      var model = try ModelSnapshotReader.read(blob.bytes)
      model.path = path
      return model
    } catch {
      diagnostics.append(
        .error("xcmap-snapshot", "the embedded \(side) model cannot be read: \(error.message)", at: blob.location))
      return nil
    }
  }
}

/// Pinned model hashes (`versionHash` and `<entityVersionHash>` in `<sourceModel>` /
/// `<destinationModel>`): the mapping was written against models with these hashes, and Core
/// Data refuses a mapping whose hashes do not match the store's model ("Mismatch between
/// mapping and source/destination models").
public enum PinCheck {
  /// The model's combined hash: base64 SHA-256 over `name NUL hash` of every entity, by name.
  public static func modelHash(_ hashes: [EntityHash]) -> String {
    var data: [UInt8] = []
    for h in hashes.sorted(by: { $0.entity < $1.entity }) {
      data += Array(h.entity.utf8)
      data.append(0)
      data += h.hash
    }
    return Data(SHA256.hash(data: data)).base64EncodedString()
  }

  public static func check(_ reference: ModelReference?, _ hashes: [EntityHash], side: String) -> [Diagnostic] {
    guard let reference else { return [] }
    var result: [Diagnostic] = []
    let byName = Dictionary(
      hashes.map { ($0.entity, Data($0.hash).base64EncodedString()) }, uniquingKeysWith: { a, _ in a })
    for pin in reference.entityPins {
      guard let actual = byName[pin.entity] else {
        result.append(
          .error(
            "map-pinned-hash-mismatch",
            "the \(side) model no longer has entity \(pin.entity), which this mapping was written for (Core Data: \"Mismatch between mapping and \(side) model\"); run mapc lint --update-pins after checking the mapping",
            at: pin.location))
        continue
      }
      if actual != pin.hash {
        result.append(
          .error(
            "map-pinned-hash-mismatch",
            "entity \(pin.entity) of the \(side) model changed since this mapping was written: pinned hash \(pin.hash), model hash \(actual) (Core Data: \"Mismatch between mapping and \(side) model\"); check the mapping, then run mapc lint --update-pins",
            at: pin.location))
      }
    }
    // A changed entity pin already explains a changed model hash.
    if let pinned = reference.versionHash, result.isEmpty, pinned.value != modelHash(hashes) {
      result.append(
        .error(
          "map-pinned-hash-mismatch",
          "the \(side) model changed since this mapping was written: pinned versionHash \(pinned.value), model hash \(modelHash(hashes)) (Core Data: \"Mismatch between mapping and \(side) model\"); check the mapping, then run mapc lint --update-pins",
          at: pinned.location))
    }
    return result
  }
}

extension MappingCompilation.Output {
  /// The model files and folders a compilation of `mapping` read: the overrides given, else the
  /// models the mapping names (relative to the mapping's folder). For the output check of the
  /// commands that write files (`OutputTarget`).
  public func modelPaths(
    mapping: String, source: MappingCompilation.ModelOverride?, destination: MappingCompilation.ModelOverride?
  ) -> [String] {
    let folder = PlanReader.folder(of: mapping)
    func resolve(_ p: String?) -> String? {
      guard let p else { return nil }
      return p.hasPrefix("/") ? p : folder + "/" + p
    }
    return [
      source?.path ?? resolve(document?.sourceModel?.path.value),
      destination?.path ?? resolve(document?.destinationModel?.path.value),
    ].compactMap { $0 }
  }
}
