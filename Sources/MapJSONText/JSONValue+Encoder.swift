import MapRuntime

/// An `Encodable` value as a `JSONValue`: keyed containers become objects (members in the
/// order they are encoded; a key encoded again replaces its value), unkeyed ones arrays,
/// `encodeIfPresent` of nil leaves the member out, as Foundation's encoder does. Integers are
/// `int`, floating-point numbers `double`.
extension JSONValue {
  package init(encoding value: some Encodable) throws {
    let node = EncodingNode()
    try node.store(value, codingPath: [])
    self = node.value
  }

  /// The value with every object's members sorted by key (byte order of the UTF-8), at any depth.
  package func sortingKeys() -> JSONValue {
    switch self {
    case .array(let items): .array(items.map { $0.sortingKeys() })
    case .object(let members):
      .object(
        members.sorted { Array($0.0.utf8).lexicographicallyPrecedes($1.0.utf8) }.map { ($0.0, $0.1.sortingKeys()) })
    default: self
    }
  }
}

/// One value being encoded; containers hold their children's nodes until the end.
private final class EncodingNode {
  enum State {
    case empty
    case single(JSONValue)
    case object([(String, EncodingNode)])
    case array([EncodingNode])
  }

  var state = State.empty

  var value: JSONValue {
    switch state {
    case .empty: .object([])
    case .single(let v): v
    case .object(let members): .object(members.map { ($0.0, $0.1.value) })
    case .array(let items): .array(items.map(\.value))
    }
  }

  func store(_ value: some Encodable, codingPath: [any CodingKey]) throws {
    switch value {
    case let v as String: state = .single(.string(v))
    case let v as Bool: state = .single(.bool(v))
    case let v as Int: state = .single(.int(v))
    case let v as Double: state = .single(.double(v))
    default: try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
    }
  }

  func member(_ key: String) -> EncodingNode {
    let child = EncodingNode()
    guard case .object(var members) = state else {
      state = .object([(key, child)])
      return child
    }
    state = .empty
    if let i = members.firstIndex(where: { $0.0 == key }) {
      members[i].1 = child
    } else {
      members.append((key, child))
    }
    state = .object(members)
    return child
  }

  func element() -> EncodingNode {
    let child = EncodingNode()
    guard case .array(var items) = state else {
      state = .array([child])
      return child
    }
    state = .empty
    items.append(child)
    state = .array(items)
    return child
  }

  var elementCount: Int {
    if case .array(let items) = state { items.count } else { 0 }
  }
}

private struct NodeEncoder: Encoder {
  let node: EncodingNode
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = node.state {} else { node.state = .object([]) }
    return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = node.state {} else { node.state = .array([]) }
    return UnkeyedNodeContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleNodeContainer(node: node, codingPath: codingPath)
  }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: EncodingNode
  let codingPath: [any CodingKey]

  mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).state = .single(.null) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: String, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { try put(Double(value), key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { try put(Int(value), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { try put(Int(value), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { try put(Int(value), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { try put(Int(value), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { try put(try checkedInt(value), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(Int(value), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(Int(value), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(Int(value), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(try checkedInt(value), key) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try put(value, key) }

  private func put(_ value: some Encodable, _ key: Key) throws {
    try node.member(key.stringValue).store(value, codingPath: codingPath + [key])
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    NodeEncoder(node: node.member("super"), codingPath: codingPath)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
  }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer, SlotValueEncoding {
  let node: EncodingNode
  let codingPath: [any CodingKey]
  var count: Int { node.elementCount }

  /// Each value goes into a new element.
  func slot() -> EncodingNode { node.element() }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
    NestedKey
  > {
    NodeEncoder(node: node.element(), codingPath: codingPath).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    NodeEncoder(node: node.element(), codingPath: codingPath).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.element(), codingPath: codingPath) }
}

private struct SingleNodeContainer: SingleValueEncodingContainer, SlotValueEncoding {
  let node: EncodingNode
  let codingPath: [any CodingKey]

  func slot() -> EncodingNode { node }
}

/// An unsigned integer as `Int`; beyond `Int.max` an encoding error.
/// The value encoding an unkeyed and a single-value container share: every value goes into
/// `slot()`, integers as `Int` (a `UInt` or `UInt64` beyond it refused), `Float` as `Double`.
private protocol SlotValueEncoding {
  var codingPath: [any CodingKey] { get }
  func slot() -> EncodingNode
}

extension SlotValueEncoding {
  mutating func encodeNil() throws { slot().state = .single(.null) }
  mutating func encode(_ value: Bool) throws { try put(value) }
  mutating func encode(_ value: String) throws { try put(value) }
  mutating func encode(_ value: Double) throws { try put(value) }
  mutating func encode(_ value: Float) throws { try put(Double(value)) }
  mutating func encode(_ value: Int) throws { try put(value) }
  mutating func encode(_ value: Int8) throws { try put(Int(value)) }
  mutating func encode(_ value: Int16) throws { try put(Int(value)) }
  mutating func encode(_ value: Int32) throws { try put(Int(value)) }
  mutating func encode(_ value: Int64) throws { try put(Int(value)) }
  mutating func encode(_ value: UInt) throws { try put(try checkedInt(value)) }
  mutating func encode(_ value: UInt8) throws { try put(Int(value)) }
  mutating func encode(_ value: UInt16) throws { try put(Int(value)) }
  mutating func encode(_ value: UInt32) throws { try put(Int(value)) }
  mutating func encode(_ value: UInt64) throws { try put(try checkedInt(value)) }
  mutating func encode<T: Encodable>(_ value: T) throws { try put(value) }
  private func put(_ value: some Encodable) throws { try slot().store(value, codingPath: codingPath) }
}

private func checkedInt(_ value: some BinaryInteger) throws -> Int {
  guard let i = Int(exactly: value) else {
    throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(value) is beyond Int"))
  }
  return i
}
