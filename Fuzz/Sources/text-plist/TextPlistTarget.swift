// Fuzz target `text-plist`: the old text property list reader (`FuzzEntries.textPlist`, Sources/MapFuzzing).
import FuzzMain
import MapFuzzing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let pointer else { return 0 }
  FuzzEntries.textPlist(Array(UnsafeBufferPointer(start: pointer, count: size)))
  return 0
}

@_cdecl("text_plist_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  runFuzzer(argc, argv) { fuzz($0, $1) }
}
