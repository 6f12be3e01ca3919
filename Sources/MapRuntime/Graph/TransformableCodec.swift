import MapArchives

/// How the payloads of a graph's Transformable values (`Value.transformable`, slices of its
/// input bytes) are encoded. The store format that reads a graph supplies the codec with the
/// bytes (`ObjectGraph.transformableCodec`); the interpreter looks inside a payload only
/// through it, so it knows no store's encoding.
package protocol TransformableCodec {
  /// The value a payload holds: strings as slices of `input`, arrays as `.array`, objects as
  /// `.dictionary`.
  static func value(_ input: InputBytes, _ payload: ByteSlice) throws -> Value

  /// The elements of a payload that holds an array, into `items` (emptied first, its storage
  /// reused); false, with `items` empty, for any other value.
  static func elements(_ input: InputBytes, _ payload: ByteSlice, into items: inout [Value]) -> Bool

  /// How many elements a payload that holds an array has, without reading them; nil for any
  /// other value.
  static func arrayCount(_ input: InputBytes, _ payload: ByteSlice) -> Int?

  /// The payload in no store's encoding, for a store of another format to write: the bytes
  /// it is stored as and the value they archive, or a value with no bytes yet.
  static func payload(_ input: InputBytes, _ payload: ByteSlice) throws(ArchivedValueError) -> TransformablePayload

  /// Why the payload's value cannot be read at all, when it cannot: nil for every payload whose
  /// value can be read. A store of the same format copies such a payload as it is (a Binary
  /// value Core Data's SQLite store keeps in a file that is missing: Specs/sqlite-store.md §5);
  /// anything that needs the value refuses it with this reason (`run-external-data-missing`).
  static func unreadable(_ input: InputBytes, _ payload: ByteSlice) -> String?
}

extension TransformableCodec {
  package static func unreadable(_ input: InputBytes, _ payload: ByteSlice) -> String? { nil }
}
