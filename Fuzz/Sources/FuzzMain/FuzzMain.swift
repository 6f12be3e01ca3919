/// The entry point of every fuzz target. SwiftPM links an executable target `T` with
/// `main = T_main` (Swift's entry point renamed), so each target defines `T_main` (with
/// `@_cdecl`) and calls this, which hands over to libFuzzer's driver (`LLVMFuzzerRunDriver`,
/// from `-sanitize=fuzzer`) with the target's `LLVMFuzzerTestOneInput`.
public typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

@_silgen_name("LLVMFuzzerRunDriver")
func llvmFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: FuzzCallback
) -> Int32

public func runFuzzer(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ callback: FuzzCallback
) -> Int32 {
  var count = argc
  var vector = argv
  return llvmFuzzerRunDriver(&count, &vector, callback)
}
