import FuzzMain
import MapCompiler

/// `xcmapping.xml` bytes (Xcode's XML store of a mapping model, with archived expressions
/// and model snapshots inside).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data = pointer else { return 0 }
  if let xml = try? XMLReader.parse(bytes: Array(UnsafeBufferPointer(start: data, count: size)), path: "xcmapping.xml")
  {
    _ = XcodeMappingReader.read(xml)
  }
  return 0
}

@_cdecl("xcmappingmodel_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  runFuzzer(argc, argv) { fuzz($0, $1) }
}
