extension MigrationContext {
  /// The value of a Transformable payload kept unread in the source's input, read with the
  /// source's codec. The last two values read are cached, since a forEach collection and
  /// `$source.answers[$index]` are looked into repeatedly, and equal values of a column share
  /// their bytes (the store readers make sure of that).
  func transformableValue(_ s: ByteSlice) throws(MigrationError) -> Value {
    if state.transformableCacheStart.0 == s.start {
      state.transformableCacheLast = 0
      return state.transformableCacheValue0
    }
    if state.transformableCacheStart.1 == s.start {
      state.transformableCacheLast = 1
      return state.transformableCacheValue1
    }
    guard let input = source.input, let codec = source.transformableCodec else { return .null }
    if let why = codec.unreadable(input, s) { throw MigrationError("run-external-data-missing", why) }
    let v: Value
    do {
      v = try codec.value(input, s)
    } catch {
      throw MigrationError("run-json", "malformed Transformable value at byte \(s.start): \(error)")
    }
    if state.transformableCacheLast == 0 {
      state.transformableCacheStart.1 = s.start
      state.transformableCacheValue1 = v
      state.transformableCacheLast = 1
    } else {
      state.transformableCacheStart.0 = s.start
      state.transformableCacheValue0 = v
      state.transformableCacheLast = 0
    }
    return v
  }

  /// The value of a payload a mapping looks inside (a key, an index, a forEach): a payload
  /// whose value mapc cannot read (bytes that are not an archive of property-list classes: a
  /// custom class, a custom value transformer's, a damaged archive) is an error here, since on
  /// the device the class itself would answer and mapc can only guess nil. Copying the value
  /// whole stays possible.
  func lookInside(_ s: ByteSlice) throws(MigrationError) -> Value {
    let v = try transformableValue(s)
    if case .dictionary(let pairs) = v, pairs.count == 1, pairs[0].0 == TransformablePayload.bytesKey {
      throw MigrationError(
        "run-opaque-transformable",
        "cannot look inside a Transformable value mapc cannot read (not an archive of property-list classes: a custom class, a custom value transformer's bytes or a damaged archive); a mapping can copy it whole, and a custom policy can read it"
      )
    }
    return v
  }

  /// Why a payload cannot be read at all (`TransformableCodec.unreadable`): a Binary value kept
  /// in a file that is missing, which only a store of its own format can carry as it is.
  func unreadable(_ s: ByteSlice) -> String? {
    guard let input = source.input, let codec = source.transformableCodec else { return nil }
    return codec.unreadable(input, s)
  }

  /// Refuses a value that cannot be read (`unreadable`) where it must be read: compared, or
  /// stored in an attribute of another type than Binary.
  func requireReadable(_ v: Value) throws(MigrationError) {
    if case .transformable(let s) = v, let why = unreadable(s) {
      throw MigrationError("run-external-data-missing", why)
    }
  }
}
