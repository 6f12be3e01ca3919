import Foundation
import FuzzMain
import MapCompiler
import MapRuntime
import MapSQLite

/// Core Data SQLite store bytes, written to a file and read as `mapc store info`, `mapc migrate`
/// (the metadata peek) and `mapc run` / `store export` (every object) read a store. The model
/// is the version, among the bundles named in FUZZ_SQLITE_MODELS (one path a line, set by
/// Fuzz/run.sh from ../shared/stores), whose entity hashes the store holds, or the closest one,
/// so that the rows of a store that is still recognisable are read against its own layout.
/// Any error is fine; a crash, a leak, a hang or a file left in TMPDIR is not.
let bundles: [ModelVersions] = {
  let list = ProcessInfo.processInfo.environment["FUZZ_SQLITE_MODELS"] ?? ""
  return list.split(separator: "\n").compactMap { try? ModelVersions.load(bundle: String($0)) }
}()

/// A small model for stores that match no bundle at all.
let fallback: StoreLayout = {
  let contents = """
    <?xml version="1.0" encoding="UTF-8"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
    <entity name="A"><attribute name="s" optional="YES" attributeType="String"/>
    <relationship name="many" optional="YES" toMany="YES" destinationEntity="B" inverseName="one" inverseEntity="B"/></entity>
    <entity name="B"><attribute name="i" optional="YES" attributeType="Integer 64"/>
    <relationship name="one" optional="YES" maxCount="1" destinationEntity="A" inverseName="many" inverseEntity="A"/></entity>
    </model>
    """
  let document = try! XMLReader.parse(bytes: Array(contents.utf8), path: "contents")
  return StoreLayout(model: try! ModelLoader.load(document: document, versionName: nil).model)
}()

let path = NSTemporaryDirectory() + "fuzz-\(getpid()).sqlite"

func layout(for hashes: [String: String]?) -> StoreLayout {
  guard let hashes, !bundles.isEmpty else { return fallback }
  var closest: (versions: ModelVersions, index: Int, differing: Int)?
  for versions in bundles {
    switch StoreVersion.identify(hashes, in: versions) {
    case .version(let i): return StoreLayout(model: versions.versions[i].model)
    case .unknown(let i, let differing):
      if closest == nil || differing.count < closest!.differing { closest = (versions, i, differing.count) }
    }
  }
  guard let closest, closest.versions.versions.indices.contains(closest.index) else { return fallback }
  return StoreLayout(model: closest.versions.versions[closest.index].model)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data = pointer else { return 0 }
  guard FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size)) else {
    fatalError("cannot write \(path)")
  }
  let format = SQLiteStoreFormat()
  _ = try? SQLiteStoreFormat.info(path)
  let hashes = (try? format.peekMetadata(path))?.entityVersionHashes
  _ = try? format.read(path, layout: layout(for: hashes), options: StoreReadOptions(maxErrors: 20))
  // Reading never writes beside the store (its journal, -wal or -shm): the input is untouched.
  for suffix in ["-journal", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
    fatalError("reading the store created \(path)\(suffix)")
  }
  return 0
}

@_cdecl("sqlite_store_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  runFuzzer(argc, argv) { fuzz($0, $1) }
}
