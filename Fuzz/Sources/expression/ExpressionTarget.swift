import FuzzMain
import MapCompiler
import MapRuntime

/// Expression and predicate text: parsed, printed and parsed again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data = pointer else { return 0 }
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  if let e = try? ExpressionParser.parseExpression(text) {
    _ = try? ExpressionParser.parseExpression(e.description)
  }
  if let p = try? ExpressionParser.parsePredicate(text) {
    _ = try? ExpressionParser.parsePredicate(p.description)
  }
  return 0
}

@_cdecl("expression_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  runFuzzer(argc, argv) { fuzz($0, $1) }
}
