internal import CZlib
import MapRuntime

/// Reads a raw DEFLATE stream (RFC 1951) back: the `Z_MODELCACHE` row of a Core Data store
/// (`RawDeflate` writes it). The output is bounded (`Limits.expandedBytes`, 16 MB; the largest real cache inflates to 45 KB): a stream that would
/// inflate past it, is cut short or holds bytes after its end is refused.
enum RawInflate {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  static func decompress(_ input: [UInt8], limit: Int = Limits.expandedBytes) throws(Failure) -> [UInt8] {
    var stream = z_stream()
    let initCode = czlib_inflate_init_raw(&stream)
    guard initCode == Z_OK else { throw Failure(description: "zlib inflate failed to start (\(initCode))") }
    defer { inflateEnd(&stream) }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    var code: Int32 = Z_OK
    input.withUnsafeBufferPointer { source in
      stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
      stream.avail_in = uInt(source.count)
      while code == Z_OK {
        let produced: Int = chunk.withUnsafeMutableBufferPointer { target in
          stream.next_out = target.baseAddress
          stream.avail_out = uInt(target.count)
          code = inflate(&stream, Z_NO_FLUSH)
          return target.count - Int(stream.avail_out)
        }
        output += chunk[0..<produced]
        if output.count > limit { return }
        if code == Z_BUF_ERROR && stream.avail_in == 0 { return }
        if code == Z_BUF_ERROR { code = Z_OK }
      }
    }
    guard output.count <= limit else {
      throw Failure(description: "the stream inflates to more than \(limit) bytes")
    }
    guard code == Z_STREAM_END else {
      throw Failure(
        description: code == Z_OK || code == Z_BUF_ERROR
          ? "the stream is cut short" : "the stream is not valid raw DEFLATE (zlib \(code))")
    }
    guard stream.avail_in == 0 else {
      throw Failure(description: "\(stream.avail_in) bytes follow the end of the stream")
    }
    return output
  }
}
