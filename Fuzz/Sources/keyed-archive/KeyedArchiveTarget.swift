import FuzzMain
import MapCompiler

/// NSKeyedArchiver archives as .xcmappingmodel files hold them: value expressions, predicates
/// and user-info dictionaries.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data = pointer else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  _ = try? ExpressionArchiveReader.expression(bytes)
  _ = try? ExpressionArchiveReader.predicate(bytes)
  _ = try? ExpressionArchiveReader.userInfo(bytes)
  return 0
}

@_cdecl("keyed_archive_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  runFuzzer(argc, argv) { fuzz($0, $1) }
}
