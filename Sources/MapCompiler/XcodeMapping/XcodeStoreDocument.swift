import MapRuntime
import MapSyntax

/// Xcode's Core Data XML-store document, the envelope of `xcmapping.xml`: a `<database>` with
/// its `<databaseInfo>` and `<object>`s, each holding typed `<attribute>`s and `<relationship>`s
/// that refer to other objects by id (`Specs/xcmappingmodel.md` §2).
///
/// Reading checks the envelope only (ids, types, references); what the objects mean is
/// `XcodeMappingReader`'s business.
public struct XcodeStoreDocument: Sendable {
  public struct DatabaseInfo: Sendable {
    public var version: String?
    public var uuid: String?
    public var nextObjectID: String?
    /// The `<metadata>` element, kept for writing the store back (`XcodeMappingWriter`).
    public var metadata: XML.Element?
  }

  public struct Object: Sendable {
    public var type: String
    public var id: String
    public var attributes: [Attribute]
    public var relationships: [Relationship]
    public var location: SourceLocation

    public func attribute(_ name: String) -> Attribute? { attributes.last { $0.name == name } }
    public func relationship(_ name: String) -> Relationship? { relationships.last { $0.name == name } }
  }

  public struct Attribute: Sendable {
    public var name: String
    /// `string`, `bool`, `int16`, `int32`, `int64`, `binary`, `double`, `float`, `date`, `decimal`.
    public var type: String
    /// The text, with Xcode's `\uXXXX` escapes decoded for `string` attributes.
    public var value: String
    public var location: SourceLocation
    /// Where the value's text starts (the element itself when it is empty).
    public var valueLocation: SourceLocation
    /// Positions of the value's characters, when they can be mapped one to one.
    public var positions: TextPositionMap?
  }

  public struct Relationship: Sendable {
    public var name: String
    /// `1/1` (to-one) or `0/0` (to-many).
    public var type: String
    public var destination: String
    /// Object ids referred to; not ordered in any meaningful way.
    public var idrefs: [String]
    public var location: SourceLocation
  }

  public var path: String
  public var info: DatabaseInfo
  public var objects: [Object]
  public var location: SourceLocation
  private var indexByID: [String: Int]

  public func object(id: String) -> Object? { indexByID[id].map { objects[$0] } }

  /// Reads the envelope from a parsed XML tree; nil (with `xcmap-root`) when the root is not
  /// `<database>`. Envelope errors are errors; unknown elements and attributes are warnings.
  public static func read(_ xml: XML.Document) -> (XcodeStoreDocument?, [Diagnostic]) {
    var diagnostics: [Diagnostic] = []
    let root = xml.root
    guard root.name == "database" else {
      diagnostics.append(
        .error(
          "xcmap-root", "an xcmapping.xml file has a <database> root element, not <\(root.name)>", at: root.location))
      return (nil, diagnostics)
    }
    var info = DatabaseInfo()
    var objects: [Object] = []
    var index: [String: Int] = [:]
    for element in root.elements {
      switch element.name {
      case "databaseInfo":
        info = readInfo(element, &diagnostics)
      case "object":
        guard let object = readObject(element, &diagnostics) else { continue }
        if let first = index[object.id] {
          diagnostics.append(
            .error(
              "xcmap-duplicate-id", "object id \(object.id) is used twice", at: element.location,
              notes: [Diagnostic.Note("first object with id \(object.id) is here", at: objects[first].location)]))
          continue
        }
        index[object.id] = objects.count
        objects.append(object)
      default:
        diagnostics.append(
          .warning(
            "xcmap-unknown-element", "<database> does not hold <\(element.name)> in Xcode's format; it is ignored",
            at: element.location))
      }
    }
    // Every reference names an object of the declared type.
    for object in objects {
      for r in object.relationships {
        for id in r.idrefs {
          guard let target = index[id] else {
            diagnostics.append(
              .error(
                "xcmap-dangling-reference",
                "relationship \(r.name) of \(object.id) refers to \(id), which is not an object of this file",
                at: r.location))
            continue
          }
          if objects[target].type != r.destination {
            diagnostics.append(
              .error(
                "xcmap-dangling-reference",
                "relationship \(r.name) of \(object.id) refers to \(id), a \(objects[target].type), not a \(r.destination)",
                at: r.location))
          }
        }
        if r.type == "1/1", r.idrefs.count > 1 {
          diagnostics.append(
            .error(
              "xcmap-bad-value", "to-one relationship \(r.name) of \(object.id) refers to \(r.idrefs.count) objects",
              at: r.location))
        }
      }
    }
    return (
      XcodeStoreDocument(path: xml.path, info: info, objects: objects, location: root.location, indexByID: index),
      diagnostics
    )
  }

  private static func readInfo(_ e: XML.Element, _ diagnostics: inout [Diagnostic]) -> DatabaseInfo {
    var info = DatabaseInfo()
    for child in e.elements {
      switch child.name {
      case "version": info.version = child.text.trimmedXMLSpace
      case "UUID": info.uuid = child.text.trimmedXMLSpace
      case "nextObjectID": info.nextObjectID = child.text.trimmedXMLSpace
      case "metadata": info.metadata = child
      default:
        diagnostics.append(
          .warning(
            "xcmap-unknown-element", "<databaseInfo> does not hold <\(child.name)> in Xcode's format; it is ignored",
            at: child.location))
      }
    }
    return info
  }

  private static func readObject(_ e: XML.Element, _ diagnostics: inout [Diagnostic]) -> Object? {
    guard let type = e.attribute("type")?.value, let id = e.attribute("id")?.value, !type.isEmpty, !id.isEmpty else {
      diagnostics.append(.error("xcmap-object", "<object> needs a type=\"…\" and an id=\"…\"", at: e.location))
      return nil
    }
    var object = Object(type: type, id: id, attributes: [], relationships: [], location: e.location)
    for child in e.elements {
      switch child.name {
      case "attribute":
        guard let name = child.attribute("name")?.value, let atype = child.attribute("type")?.value else {
          diagnostics.append(
            .error("xcmap-object", "<attribute> of \(id) needs a name=\"…\" and a type=\"…\"", at: child.location))
          continue
        }
        let nodes = child.textNodes
        var positions = nodes.first?.positions
        for n in nodes.dropFirst() { positions?.append(contentsOf: n.positions) }
        let raw = positions?.text ?? ""
        let value = atype == "string" ? unescape(raw) : raw
        object.attributes.append(
          Attribute(
            name: name, type: atype, value: value, location: child.location,
            valueLocation: positions?.location(ofUTF8Offset: 0) ?? child.location,
            positions: value == raw ? positions : nil))
      case "relationship":
        guard let name = child.attribute("name")?.value, let rtype = child.attribute("type")?.value,
          let destination = child.attribute("destination")?.value
        else {
          diagnostics.append(
            .error(
              "xcmap-object", "<relationship> of \(id) needs name=\"…\", type=\"…\" and destination=\"…\"",
              at: child.location))
          continue
        }
        if rtype != "1/1" && rtype != "0/0" {
          diagnostics.append(
            .warning(
              "xcmap-unknown-field", "relationship \(name) of \(id) has type \(rtype); Xcode writes 1/1 or 0/0",
              at: child.location))
        }
        let ids = (child.attribute("idrefs")?.value ?? "").split(whereSeparator: {
          $0 == " " || $0 == "\t" || $0 == "\n"
        })
        object.relationships.append(
          Relationship(
            name: name, type: rtype, destination: destination, idrefs: ids.map(String.init), location: child.location))
      default:
        diagnostics.append(
          .warning(
            "xcmap-unknown-element", "<object> does not hold <\(child.name)> in Xcode's format; it is ignored",
            at: child.location))
      }
    }
    return object
  }

  /// Decodes Xcode's `\uXXXX` escapes: the four hex digits are a UTF-16 code unit with its two
  /// bytes swapped (`\u3c00` is `<`). Anything else after a backslash is kept as written.
  public static func unescape(_ s: String) -> String {
    guard s.contains("\\u") else { return s }
    var units: [UInt16] = []
    let u = Array(s.utf16)
    var i = 0
    while i < u.count {
      if u[i] == 0x5C, i + 5 < u.count, u[i + 1] == 0x75, let v = hex4(u[(i + 2)..<(i + 6)]) {
        units.append(v << 8 | v >> 8)
        i += 6
      } else {
        units.append(u[i])
        i += 1
      }
    }
    return String(decoding: units, as: UTF16.self)
  }

  /// Encodes what `unescape` decodes: `<` and `\` are written as escapes, as Xcode writes `<`.
  public static func escape(_ s: String) -> String {
    guard s.contains("<") || s.contains("\\") else { return s }
    var out = ""
    for ch in s.unicodeScalars {
      if ch == "<" {
        out += "\\u3c00"
      } else if ch == "\\" {
        out += "\\u5c00"
      } else {
        out.unicodeScalars.append(ch)
      }
    }
    return out
  }

  private static func hex4(_ units: ArraySlice<UInt16>) -> UInt16? {
    guard units.count == 4 else { return nil }
    var v: UInt16 = 0
    for c in units {
      let d: UInt16
      switch c {
      case 0x30...0x39: d = c - 0x30
      case 0x41...0x46: d = c - 0x41 + 10
      case 0x61...0x66: d = c - 0x61 + 10
      default: return nil
      }
      v = v << 4 | d
    }
    return v
  }
}
