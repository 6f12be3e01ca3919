import FuzzMain
import MapRuntime

/// Plan (`.cdm`) bytes: verified, then decoded.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data = pointer else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  _ = try? PlanReader.verify(bytes)
  _ = try? PlanReader.decode(bytes)
  return 0
}

@_cdecl("plan_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  runFuzzer(argc, argv) { fuzz($0, $1) }
}
