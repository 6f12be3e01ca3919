import MapRuntime

/// Composite attributes (`NSCompositeAttributeDescription`, SwiftData's `Codable` structs and
/// enums) in an SQLite store: one column per element in the owner's table
/// (`CoreDataSchema.elementColumns`), and in the graph one JSON object of the elements, as a
/// JSON store holds it (Specs/sqlite-store.md §5.2).
enum CoreDataComposites {
  /// The JSON value of a composite read from its element columns (`values`, decoded for their
  /// elements, in `leaves` order): an object of the elements in element order (a nested
  /// composite's as an object), dates as ISO 8601, binary data as base64, decimals as strings.
  /// Nil when every column is NULL and the composite is optional (Core Data keeps no other
  /// trace of a nil composite).
  static func json(_ a: AttributeDescription, leaves: [CoreDataSchema.ElementColumn], values: [Value]) -> String? {
    if a.isOptional, values.allSatisfy(\.isNull) { return nil }
    var byPath: [[String]: Value] = [:]
    for (leaf, v) in zip(leaves, values) {
      if case .decimal(let text) = v {
        byPath[leaf.path] = .string(.native(text))
      } else {
        byPath[leaf.path] = v
      }
    }
    return ValueJSON.render(object(a, prefix: [], byPath))
  }

  private static func object(_ a: AttributeDescription, prefix: [String], _ byPath: [[String]: Value]) -> Value {
    .dictionary(
      a.compositeElements.map { e in
        let path = prefix + [e.name]
        return (e.name, e.type == .composite ? object(e, prefix: path, byPath) : byPath[path] ?? .null)
      })
  }

  /// The value at `path` of a composite's value (its JSON object, or a dictionary a mapping
  /// built), nil when absent; a message when the value is not an object.
  static func element(_ v: Value, _ path: ArraySlice<String>, input: InputBytes?) -> Result<Value, Failure> {
    guard let key = path.first else { return .success(v) }
    switch v {
    case .null: return .success(.null)
    case .dictionary(let pairs):
      return element(pairs.last { $0.0 == key }?.1 ?? .null, path.dropFirst(), input: input)
    case .transformable(let slice):
      let text = String(decoding: ObjectGraph.rawJSON(slice, input: input), as: UTF8.self)
      do {
        return element(try ValueJSON.parse(text), path, input: input)
      } catch {
        return .failure(Failure(message: "a Composite value is not valid JSON: \(error)"))
      }
    default:
      return .failure(Failure(message: "a Composite value must be an object of its elements"))
    }
  }

  /// The keys of a composite's value that are not its elements (a nested composite's as
  /// `outer.inner`): refused, since the store has no column for them.
  static func unknownKeys(_ v: Value, _ a: AttributeDescription, input: InputBytes?) -> [String] {
    var value = v
    if case .transformable(let slice) = v {
      let text = String(decoding: ObjectGraph.rawJSON(slice, input: input), as: UTF8.self)
      guard let parsed = try? ValueJSON.parse(text) else { return [] }
      value = parsed
    }
    guard case .dictionary(let pairs) = value else { return [] }
    var out: [String] = []
    for (key, x) in pairs {
      guard let e = a.compositeElements.first(where: { $0.name == key }) else {
        out.append(key)
        continue
      }
      if e.type == .composite { out += unknownKeys(x, e, input: input).map { "\(key).\($0)" } }
    }
    return out
  }

  struct Failure: Error {
    var message: String
  }

  /// An element's JSON value as a value of its type (the forms of a JSON store, Specs/store-format.md
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
      guard case .string(let t) = v else { return wrong("a base64 string") }
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
      let unknown = CoreDataComposites.unknownKeys(v, slot.composite, input: input)
      if !unknown.isEmpty {
        errors.append(
          "\(place()): the Composite value has \(unknown.map { "'\($0)'" }.joined(separator: ", ")), which \(slot.composite.name) has no element for (the store has no column to keep it in)"
        )
      }
    }
    let found = CoreDataComposites.element(v, slot.path[...], input: input).flatMap {
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
