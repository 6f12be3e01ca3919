extension MetadataValue {
  /// Writes the value as JSON (strings, arrays, objects with their keys in order).
  func write(to out: inout JSONOutput) {
    switch self {
    case .string(let s): out.writeString(s)
    case .int(let i): out.writeInt(i)
    case .array(let items):
      out.beginArray()
      for item in items { item.write(to: &out) }
      out.endArray()
    case .object(let fields):
      out.beginObject()
      for f in fields {
        out.writeKey(f.key)
        f.value.write(to: &out)
      }
      out.endObject()
    }
  }
}
