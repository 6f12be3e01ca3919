// Fuzz target `swift-schema`: the SwiftData schema reader on one Swift file (`FuzzEntries.swiftSchema`, Sources/MapFuzzing).
import FuzzMain
import MapFuzzing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let pointer else { return 0 }
  FuzzEntries.swiftSchema(Array(UnsafeBufferPointer(start: pointer, count: size)))
  return 0
}

@_cdecl("swift_schema_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  runFuzzer(argc, argv) { fuzz($0, $1) }
}
