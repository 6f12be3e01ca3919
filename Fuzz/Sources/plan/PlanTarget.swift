// Fuzz target `plan`: the plan verifier and decoder (`FuzzEntries.plan`, Sources/MapFuzzing).
// Run with FUZZ_PLAN_SEEDS (mapping files, one per line) and FUZZ_PLAN_CORPUS (a folder), it
// compiles each mapping into a plan in that folder and ends, without fuzzing: Fuzz/run.sh seeds
// the target that way, so no prebuilt mapc is needed.
import FuzzMain
import MapFuzzing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let pointer else { return 0 }
  FuzzEntries.plan(Array(UnsafeBufferPointer(start: pointer, count: size)))
  return 0
}

/// Writes the seed plans; the number written.
func writeSeeds(mappings: String, corpus: String) -> Int {
  var written = 0
  for (index, path) in mappings.split(separator: "\n").map(String.init).enumerated() {
    guard let bytes = FuzzEntries.planSeed(mapping: path),
      let file = fopen("\(corpus)/seed-plan-\(index).cdm", "wb")
    else { continue }
    if fwrite(bytes, 1, bytes.count, file) == bytes.count { written += 1 }
    fclose(file)
  }
  return written
}

@_cdecl("plan_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  if let mappings = getenv("FUZZ_PLAN_SEEDS"), let corpus = getenv("FUZZ_PLAN_CORPUS") {
    let count = writeSeeds(mappings: String(cString: mappings), corpus: String(cString: corpus))
    print("plan: \(count) seed plans compiled")
    return 0
  }
  return runFuzzer(argc, argv) { fuzz($0, $1) }
}
