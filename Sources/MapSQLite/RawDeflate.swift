internal import CZlib

/// A raw DEFLATE stream (RFC 1951: no zlib header or checksum), as Core Data stores the
/// `Z_MODELCACHE` row (reference §2.3; Python reads it with `zlib.decompressobj(-15)`). The
/// system zlib at its default level: the same bytes in give the same bytes out.
enum RawDeflate {
  struct Failure: Error, CustomStringConvertible {
    var code: Int32
    var description: String { "zlib deflate failed (\(code))" }
  }

  static func compress(_ input: [UInt8]) throws(Failure) -> [UInt8] {
    var stream = z_stream()
    let initCode = czlib_deflate_init_raw(&stream, Z_DEFAULT_COMPRESSION)
    guard initCode == Z_OK else { throw Failure(code: initCode) }
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
    let code: Int32 = input.withUnsafeBufferPointer { source in
      output.withUnsafeMutableBufferPointer { target in
        stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
        stream.avail_in = uInt(source.count)
        stream.next_out = target.baseAddress
        stream.avail_out = uInt(target.count)
        return deflate(&stream, Z_FINISH)
      }
    }
    // deflateBound leaves room for the whole stream, so one Z_FINISH call ends it.
    guard code == Z_STREAM_END else { throw Failure(code: code) }
    output.removeSubrange(Int(stream.total_out)...)
    return output
  }
}
