import FuzzMain
import MapRuntime

/// Binary property list bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data = pointer else { return 0 }
  _ = try? BinaryPropertyListReader.read(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}

@_cdecl("bplist_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  runFuzzer(argc, argv) { fuzz($0, $1) }
}
