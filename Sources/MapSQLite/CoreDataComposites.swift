import MapArchives
import MapRuntime

/// Composite attributes (`NSCompositeAttributeDescription`, SwiftData's `Codable` structs and
/// enums) in an SQLite store: one column per element in the owner's table
/// (`CoreDataSchema.elementColumns`), and in the graph one Transformable payload holding a
/// dictionary of the elements (`TransformableBlobs.composite`), which a JSON store writes as an
/// object of the elements (Specs/sqlite-store.md §5.2).
enum CoreDataComposites {
  /// The value of a composite read from its element columns (`values`, decoded for their
  /// elements, in `leaves` order): a dictionary of the elements in element order (a nested
  /// composite's as a dictionary), dates as ISO 8601 strings, binary data as base64 (an array
  /// SwiftData kept as JSON bytes as that array), decimals as strings. Nil when every column is NULL and the composite is optional (Core Data keeps
  /// no other trace of a nil composite).
  static func value(_ a: AttributeDescription, leaves: [CoreDataSchema.ElementColumn], values: [Value])
    -> ArchivedValue?
  {
    if a.isOptional, values.allSatisfy(\.isNull) { return nil }
    var byPath: [[String]: ArchivedValue] = [:]
    for (leaf, v) in zip(leaves, values) { byPath[leaf.path] = archived(v) }
    return object(a, prefix: [], byPath)
  }

  private static func object(_ a: AttributeDescription, prefix: [String], _ byPath: [[String]: ArchivedValue])
    -> ArchivedValue
  {
    .dictionary(
      a.compositeElements.map { e in
        let path = prefix + [e.name]
        return .init(e.name, e.type == .composite ? object(e, prefix: path, byPath) : byPath[path] ?? .null)
      })
  }

  /// An element's decoded column value in the composite's dictionary.
  private static func archived(_ v: Value) -> ArchivedValue {
    switch v {
    case .int(let i): return .integer(i)
    case .double(let d) where !d.isFinite:
      // No JSON form: the form a store's metadata uses for them.
      return .dictionary([.init("$real", .string(d.isNaN ? "NaN" : d < 0 ? "-Infinity" : "Infinity"))])
    case .double(let d): return .real(d)
    case .bool(let b): return .bool(b)
    case .decimal(let text): return .string(text)
    case .string(let t): return .string(ObjectGraph.string(t, input: nil))
    case .date(let t): return .string(ISO8601.format(t))
    case .data(let bytes):
      // An array SwiftData kept as JSON bytes is shown as the array (CompositeArrayText).
      return CompositeArrayText.decode(bytes) ?? .string(Base64Codec.encode(bytes))
    default: return .null
    }
  }

  /// The value at `path` of a composite's value (a payload holding a dictionary, read with the
  /// graph's `codec`, or a dictionary a mapping built), nil when absent; a message when the
  /// value is not a dictionary.
  static func element(
    _ v: Value, _ path: ArraySlice<String>, input: InputBytes?, codec: (any TransformableCodec.Type)?
  ) -> Result<Value, Failure> {
    guard let key = path.first else { return .success(v) }
    switch v {
    case .null: return .success(.null)
    case .dictionary(let pairs):
      return element(pairs.last { $0.0 == key }?.1 ?? .null, path.dropFirst(), input: input, codec: codec)
    case .transformable(let slice):
      guard let input, let codec else { return .success(.null) }
      do {
        return element(try codec.value(input, slice), path, input: input, codec: codec)
      } catch {
        return .failure(Failure(message: "a Composite value cannot be read: \(error)"))
      }
    default:
      return .failure(Failure(message: "a Composite value must be an object of its elements"))
    }
  }

  /// The keys of a composite's value that are not its elements (a nested composite's as
  /// `outer.inner`): refused, since the store has no column for them.
  static func unknownKeys(
    _ v: Value, _ a: AttributeDescription, input: InputBytes?, codec: (any TransformableCodec.Type)?
  ) -> [String] {
    var value = v
    if case .transformable(let slice) = v {
      guard let input, let codec, let read = try? codec.value(input, slice) else { return [] }
      value = read
    }
    guard case .dictionary(let pairs) = value else { return [] }
    var out: [String] = []
    for (key, x) in pairs {
      guard let e = a.compositeElements.first(where: { $0.name == key }) else {
        out.append(key)
        continue
      }
      if e.type == .composite { out += unknownKeys(x, e, input: input, codec: codec).map { "\(key).\($0)" } }
    }
    return out
  }

  struct Failure: Error {
    var message: String
  }

  /// An element's value as a value of its type (the forms of a JSON store, Specs/store-format.md
  /// B.5); a message when it does not fit.
  static func typed(_ v: Value, _ e: AttributeDescription, input: InputBytes?) -> Result<Value, Failure> {
    func wrong(_ what: String) -> Result<Value, Failure> {
      .failure(Failure(message: "a \(e.type.rawValue) element needs \(what)"))
    }
    if v.isNull { return .success(.null) }
    switch e.type {
    case .integer16, .integer32, .integer64:
      let n: Int64?
      switch v {
      case .int(let i): n = i
      case .double(let d): n = Int64(exactly: d)
      default: n = nil
      }
      guard let n, e.type.integerRange?.contains(n) ?? true else { return wrong("an integer within its range") }
      return .success(.int(n))
    case .boolean:
      if case .bool = v { return .success(v) }
      return wrong("true or false")
    case .double, .float:
      switch v {
      case .int(let i): return .success(.double(Double(i)))
      case .double: return .success(v)
      default: return wrong("a number")
      }
    case .date:
      guard case .string(let t) = v else { return wrong("an ISO 8601 string") }
      do {
        return .success(.date(try ISO8601DateCodec.parse(ObjectGraph.string(t, input: input))))
      } catch {
        return wrong("an ISO 8601 string")
      }
    case .decimal:
      let text: String
      switch v {
      case .string(let t): text = ObjectGraph.string(t, input: input)
      case .int(let i): text = String(i)
      default: return wrong("a string holding the decimal")
      }
      do {
        return .success(.decimal(try DecimalText.canonical(text)))
      } catch {
        return wrong("a string holding the decimal")
      }
    case .string, .uri:
      if case .string = v { return .success(v) }
      return wrong("a string")
    case .uuid:
      guard case .string(let t) = v, CoreDataWriter.uuidBytes(ObjectGraph.string(t, input: input)) != nil else {
        return wrong("a UUID string")
      }
      return .success(v)
    case .binary:
      if let bytes = CompositeArrayText.bytes(v, input: input) { return .success(.data(bytes)) }
      guard case .string(let t) = v else { return wrong("a base64 string or a JSON array") }
      do {
        return .success(.data(try Base64Codec.decode(ObjectGraph.string(t, input: input))))
      } catch {
        return wrong("a base64 string")
      }
    case .transformable, .undefined, .objectID, .composite:
      return .success(v)
    }
  }
}

extension CoreDataWriter {
  /// The column value of one element of a Composite attribute's value `v` (reported at
  /// `place` when it does not fit: nothing is written then).
  mutating func compositeElement(
    _ v: Value, _ slot: Slots.Element, at place: () -> String
  ) -> SQLiteValue {
    if slot.first {
      let unknown = CoreDataComposites.unknownKeys(v, slot.composite, input: input, codec: codec)
      if !unknown.isEmpty {
        errors.append(
          "\(place()): the Composite value has \(unknown.map { "'\($0)'" }.joined(separator: ", ")), which \(slot.composite.name) has no element for (the store has no column to keep it in)"
        )
      }
    }
    let found = CoreDataComposites.element(v, slot.path[...], input: input, codec: codec).flatMap {
      CoreDataComposites.typed($0, slot.element, input: input)
    }
    switch found {
    case .success(let x): return encode(x, slot.element, at: place())
    case .failure(let f):
      errors.append("\(place()): \(f.message)")
      return .null
    }
  }
}
