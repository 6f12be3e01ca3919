import MapJSONText
import MapRuntime

extension StoreReader {
  /// The most bytes `leadingMetadata` reads: a store's metadata is a few kilobytes.
  static let leadingMetadataBytes = 1 << 20

  /// The metadata of the store at `path` when its text starts with it (`{"metadata": {…}`, as
  /// mapc writes it), read as `read` reads it, and the objects' highest numbers it records
  /// (taken out of the metadata, as `read` takes them); nil when
  /// the text starts otherwise, the metadata does not end within `leadingMetadataBytes`, or it
  /// has an error (the run reads it again and reports it).
  static func leadingMetadata(_ path: String, layout: StoreLayout) -> (
    StoreMetadata, keyHighWater: [String: Int64]
  )? {
    var limit = 1 << 14
    while true {
      guard
        let input = try? InputBytes(
          contentsOf: path, regularFileOnly: true, maxBytes: Limits.storeFileBytes, limit: limit)
      else { return nil }
      var reader = StoreReader(input: input, layout: layout, maxErrors: 1, splitMinimum: .max, expectedIDs: 1)
      do {
        guard try reader.scanner.next().kind == .beginObject, let key = try reader.scanner.nextKey(),
          reader.scanner.string(key, equals: "metadata")
        else { return nil }
        try reader.readMetadata()
        guard reader.errors.isEmpty else { return nil }
        reader.takeKeyHighWater()
        return (reader.metadata, reader.graph.keyHighWater)
      } catch {
        // Cut short: read more, up to the bound.
        guard input.isPrefix, limit < leadingMetadataBytes else { return nil }
        limit *= 8
      }
    }
  }
}
