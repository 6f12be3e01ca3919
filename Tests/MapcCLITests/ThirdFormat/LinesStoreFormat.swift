import Foundation
import MapRuntime

/// A third store format, in the tests only: what adding a format to mapc takes (this folder,
/// and one line in the list of formats, `ThirdStoreFormatTests`). A store is text, one fact per
/// line, fields separated by tabs, strings and bytes in hexadecimal:
///
///     mapc-lines 1
///     identifier <hex>
///     hash <entity> <base64>
///     object <entity> <number>
///     value <property> int|double|date|bool|decimal|string|data <text>
///     to-one <property> <entity> <number>
///     to-many <property> <entity> <number> <entity> <number> …
///
/// Doubles and dates are their bit patterns, so every value reads back exactly. Metadata keys
/// other than the hashes and identifiers are not kept; Transformable values are refused.
struct LinesStoreFormat: StoreFormat {
  static let header = "mapc-lines 1"

  var name: String { "lines" }

  func recognizes(prefix: [UInt8]) -> Bool { prefix.starts(with: Array((Self.header + "\n").utf8)) }

  func read(_ path: String, layout: StoreLayout, options: StoreReadOptions) throws(MigrationFailure)
    -> (ObjectGraph, StoreMetadata)
  {
    let lines = try Self.lines(path)
    let graph = ObjectGraph(layout: layout, input: nil, isSource: true)
    var metadata = StoreMetadata()
    var identifiers: [String] = []
    var hashes: [(entity: String, hash: String)] = []
    var objects: [String: ObjectRef] = [:]
    var current: ObjectRef?
    var links: [(object: ObjectRef, property: Int, targets: [String], toMany: Bool)] = []
    for (n, line) in lines.enumerated().dropFirst() where !line.isEmpty {
      let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      let failure = MigrationFailure([MigrationError("lines-syntax", "line \(n + 1): \(line)", file: path)])
      switch f[0] {
      case "identifier" where f.count == 2:
        guard let identifier = Self.text(f[1]) else { throw failure }
        identifiers.append(identifier)
      case "hash" where f.count == 3: hashes.append((f[1], f[2]))
      case "object" where f.count == 3:
        guard let e = layout.entityIndex(f[1]), let key = Int64(f[2]) else { throw failure }
        let ref = graph.appendObject(entity: e)
        graph.tables[e].setObjectKey(Int(ref.row), key)
        objects[f[1] + "/" + f[2]] = ref
        current = ref
      case "value" where f.count == 4:
        guard let object = current, let p = graph.table(object).layout.propertyIndex(f[1]),
          let value = Self.value(f[2], f[3])
        else { throw failure }
        graph.set(object, property: p, value)
      case "to-one", "to-many":
        guard let object = current, f.count >= 2, let p = graph.table(object).layout.propertyIndex(f[1]) else {
          throw failure
        }
        let targets = stride(from: 2, to: f.count - 1, by: 2).map { f[$0] + "/" + f[$0 + 1] }
        links.append((object, p, targets, f[0] == "to-many"))
      default: throw failure
      }
    }
    for link in links {
      for t in link.targets {
        guard let target = objects[t] else {
          throw MigrationFailure([MigrationError("lines-dangling", "no object \(t)", file: path)])
        }
        if link.toMany {
          graph.addToMany(link.object, property: link.property, target)
        } else {
          graph.setToOne(link.object, property: link.property, target)
        }
      }
    }
    graph.finishBuilding(input: nil, transformableCodec: nil)
    metadata.modelVersionIdentifiers = identifiers
    metadata.entityVersionHashes = hashes
    return (graph, metadata)
  }

  func peekMetadata(_ path: String) throws(MigrationFailure) -> StoreMetadataPeek {
    var hashes: [String: String] = [:]
    for line in try Self.lines(path) where line.hasPrefix("hash\t") {
      let f = line.split(separator: "\t").map(String.init)
      if f.count == 3 { hashes[f[1]] = f[2] }
    }
    return .found(hashes: hashes)
  }

  func write(
    _ graph: ObjectGraph, source: ObjectGraph?, metadata: StoreWriteMetadata, to target: String?,
    backup: String?, options: StoreWriteOptions
  ) throws(MigrationFailure) {
    graph.resolveObjectKeys()
    let input = source?.input ?? graph.input
    var out = [Self.header]
    out += metadata.modelVersionIdentifiers.map { "identifier\t" + Self.hex(Array($0.utf8)) }
    out += metadata.entityHashes.map { "hash\t\($0.entity)\t\(Base64Codec.encode($0.hash))" }
    func key(_ ref: ObjectRef) -> String {
      let t = graph.table(ref)
      let k = t.objectKey(Int(ref.row))
      return "\(t.layout.name)\t\(k > 0 ? k : Int64(ref.row) + 1)"
    }
    for t in graph.tables {
      for row in 0..<t.count {
        out.append("object\t" + key(ObjectRef(entity: t.layout.index, row: row)))
        for (p, property) in t.layout.properties.enumerated() {
          let value = t.value(row, p)
          switch value {
          case .null: continue
          case .sourceObject(let r), .destinationObject(let r): out.append("to-one\t\(property.name)\t\(key(r))")
          case .array(let members):
            let keys = members.compactMap { m -> String? in
              switch m {
              case .sourceObject(let r), .destinationObject(let r): key(r)
              default: nil
              }
            }
            out.append((["to-many", property.name] + keys).joined(separator: "\t"))
          default:
            guard let (kind, text) = Self.text(of: value, input: input) else {
              throw MigrationFailure([
                MigrationError(
                  "lines-value", "\(t.layout.name).\(property.name): not a value of this format", file: target)
              ])
            }
            out.append("value\t\(property.name)\t\(kind)\t\(text)")
          }
        }
      }
    }
    guard let target else { return }
    do {
      try AtomicFileWriter.replaceContents(of: target, with: out.joined(separator: "\n") + "\n")
    } catch {
      throw MigrationFailure([MigrationError("lines-write", "\(error)", file: target)])
    }
  }

  // MARK: the text of values

  static func text(of value: Value, input: InputBytes?) -> (String, String)? {
    switch value {
    case .int(let i): ("int", "\(i)")
    case .double(let d): ("double", String(d.bitPattern, radix: 16))
    case .date(let d): ("date", String(d.bitPattern, radix: 16))
    case .bool(let b): ("bool", b ? "1" : "0")
    case .decimal(let s): ("decimal", s)
    case .string(let t): ("string", hex(Array(ObjectGraph.string(t, input: input).utf8)))
    case .data(let bytes): ("data", hex(bytes))
    default: nil
    }
  }

  static func value(_ kind: String, _ text: String) -> Value? {
    switch kind {
    case "int": Int64(text).map(Value.int)
    case "double": UInt64(text, radix: 16).map { .double(Double(bitPattern: $0)) }
    case "date": UInt64(text, radix: 16).map { .date(Double(bitPattern: $0)) }
    case "bool": text == "1" ? .bool(true) : text == "0" ? .bool(false) : nil
    case "decimal": .decimal(text)
    case "string": Self.text(text).map { .string(.native($0)) }
    case "data": bytes(text).map(Value.data)
    default: nil
    }
  }

  static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

  static func bytes(_ hex: String) -> [UInt8]? {
    let digits = Array(hex.utf8)
    guard digits.count % 2 == 0 else { return nil }
    return try? stride(from: 0, to: digits.count, by: 2).map { i in
      guard let b = UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) else {
        throw CocoaError(.coderInvalidValue)
      }
      return b
    }
  }

  static func text(_ hex: String) -> String? { bytes(hex).map { String(decoding: $0, as: UTF8.self) } }

  static func lines(_ path: String) throws(MigrationFailure) -> [String] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.hasPrefix(header + "\n") else {
      throw MigrationFailure([MigrationError("lines-header", "not a lines store", file: path)])
    }
    return text.components(separatedBy: "\n")
  }
}
