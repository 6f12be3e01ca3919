import FuzzMain
import MapCompiler
import MapRuntime

/// Model XML (`contents`) bytes: parsed, loaded and checked; the entity hashes computed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data = pointer else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let document = try? XMLReader.parse(bytes: bytes, path: "contents"),
    let loaded = try? ModelLoader.load(document: document, versionName: nil)
  else { return 0 }
  _ = VersionHasher.entityHashes(of: loaded.model)
  _ = StoreLayout(model: loaded.model)
  return 0
}

@_cdecl("model_xml_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  runFuzzer(argc, argv) { fuzz($0, $1) }
}
