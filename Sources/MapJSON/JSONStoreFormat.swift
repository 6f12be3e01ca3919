#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import MapJSONText
import MapRuntime

/// The JSON object store of `Specs/store-format.md`, read by `StoreReader` and written by
/// `StoreWriter` through `AtomicFileWriter`.
public struct JSONStoreFormat: StoreFormat {
  /// Indented (`Specs/store-format.md`) or compact (`--compact`).
  public var style: JSONOutput.Style
  /// See `StoreReader.read`.
  public var splitMinimum: Int

  public init(style: JSONOutput.Style = .indented, splitMinimum: Int = StoreReader.defaultSplitMinimum) {
    self.style = style
    self.splitMinimum = splitMinimum
  }

  public var name: String { "json" }

  /// A JSON store starts with `{` after optional whitespace; JSON is also the format of last
  /// resort, so a file no format recognizes is read as JSON and its errors come from there.
  public func recognizes(prefix: [UInt8]) -> Bool {
    prefix.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 } == UInt8(ascii: "{")
  }

  /// Reads and checks the store. The file's bytes are freed on return: the graph keeps only
  /// the strings it needs (see `StringCompaction`).
  public func read(_ path: String, layout: StoreLayout, options: StoreReadOptions) throws(MigrationFailure)
    -> (ObjectGraph, StoreMetadata)
  {
    let input: InputBytes
    do {
      input = try InputBytes(contentsOf: path, regularFileOnly: true, maxBytes: Limits.storeFileBytes)
    } catch {
      throw MigrationFailure(error, file: path)
    }
    return try StoreReader.read(
      input, layout: layout, maxErrors: options.maxErrors, splitMinimum: splitMinimum, progress: options.byteProgress)
  }

  public func peekMetadata(_ path: String) throws(MigrationFailure) -> StoreMetadataPeek {
    try StoreMetadataPeek.read(path)
  }

  public func write(
    _ graph: ObjectGraph, source: ObjectGraph?, metadata: StoreWriteMetadata, to target: String?,
    backup: String?, options: StoreWriteOptions
  ) throws(MigrationFailure) {
    var writer = StoreWriter(
      graph: graph, input: source?.input ?? graph.input,
      codec: source?.transformableCodec ?? graph.transformableCodec)
    writer.objectProgress = options.objectProgress
    do {
      if let target {
        let file = try AtomicFileWriter(target: target)
        var out = JSONOutput(
          fileDescriptor: file.fileDescriptor, path: target, style: style, startsWriteback: options.durable)
        try writer.write(metadata: metadata, to: &out)
        try file.commit(backupPath: backup, durable: options.durable)
      } else {
        let fd = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { if fd >= 0 { _ = close(fd) } }
        var out = JSONOutput(fileDescriptor: fd, path: "/dev/null", style: style)
        try writer.write(metadata: metadata, to: &out)
      }
    } catch let e as StoreWriteError {
      throw MigrationFailure([MigrationError("run-write", "cannot write the store: \(e)", file: target ?? "")])
    } catch let e as StoreIOError {
      throw MigrationFailure(e, file: target ?? "")
    } catch {
      throw MigrationFailure([MigrationError("run-write", "\(error)", file: target ?? "")])
    }
  }

  /// Compact: intermediate stores are read only by mapc.
  public var forIntermediateStores: any StoreFormat {
    var format = self
    format.style = .compact
    return format
  }
}
