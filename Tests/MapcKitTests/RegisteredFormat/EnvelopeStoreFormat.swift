import Foundation
import MapRuntime
import MapcKit

/// A tiny store format of the tests, for `StoreFormatRegistry`: a store is the line
/// `mapc-envelope 1` and then a JSON store (Specs/store-format.md), which mapc's JSON format
/// reads and writes. It declares none of the capabilities (the protocol's defaults answer).
struct EnvelopeStoreFormat: StoreFormat {
  static let header = Array("mapc-envelope 1\n".utf8)

  var name = "envelope"

  /// mapc's JSON format, which reads and writes what the envelope holds.
  var json: any StoreFormat { StoreFormatChoice.formats.first { $0.name == "json" }! }

  func recognizes(prefix: [UInt8]) -> Bool { prefix.starts(with: Self.header) }

  func read(_ path: String, layout: StoreLayout, options: StoreReadOptions) throws(MigrationFailure)
    -> (ObjectGraph, StoreMetadata)
  {
    let inner = try Self.unwrap(path)
    defer { try? FileManager.default.removeItem(atPath: inner) }
    return try json.read(inner, layout: layout, options: options)
  }

  func peekMetadata(_ path: String) throws(MigrationFailure) -> StoreMetadataPeek {
    let inner = try Self.unwrap(path)
    defer { try? FileManager.default.removeItem(atPath: inner) }
    return try json.peekMetadata(inner)
  }

  func write(
    _ graph: ObjectGraph, source: ObjectGraph?, metadata: StoreWriteMetadata, to target: String?,
    backup: String?, options: StoreWriteOptions
  ) throws(MigrationFailure) {
    guard let target else {
      return try json.write(graph, source: source, metadata: metadata, to: nil, backup: nil, options: options)
    }
    let inner = target + ".inner.json"
    defer { try? FileManager.default.removeItem(atPath: inner) }
    try json.write(graph, source: source, metadata: metadata, to: inner, backup: nil, options: options)
    do {
      let bytes = Self.header + [UInt8](try Data(contentsOf: URL(fileURLWithPath: inner)))
      try AtomicFileWriter.replaceContents(of: target, with: bytes)
    } catch {
      throw MigrationFailure([MigrationError("envelope-write", "\(error)", file: target)])
    }
  }

  /// The JSON store in the envelope at `path`, written to a file beside it.
  static func unwrap(_ path: String) throws(MigrationFailure) -> String {
    guard let bytes = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), bytes.starts(with: header) else {
      throw MigrationFailure([MigrationError("envelope-header", "not an envelope store", file: path)])
    }
    let inner = path + ".inner.json"
    do {
      try Data(bytes.dropFirst(header.count)).write(to: URL(fileURLWithPath: inner))
    } catch {
      throw MigrationFailure([MigrationError("envelope-read", "\(error)", file: path)])
    }
    return inner
  }
}
