import FuzzMain
import MapCompiler

/// Mapping XML bytes: parsed and read into a mapping document (expressions parsed).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data = pointer else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let document = try? XMLReader.parse(bytes: bytes, path: "m.xml") else { return 0 }
  _ = MappingReader.read(document)
  return 0
}

@_cdecl("mapping_xml_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  runFuzzer(argc, argv) { fuzz($0, $1) }
}
