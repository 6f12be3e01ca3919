import MapRuntime
import MapSyntax

/// Reads a mapping XML file (format version 1, `Specs/mapping-xml.md`) into a
/// `MappingDocument`, keeping the position of every element, attribute and expression
/// character. Structure errors are reported all at once.
public enum MappingReader {
  /// Reads and parses a mapping file.
  public static func read(path: String) throws(DiagnosticsError) -> (MappingDocument, [Diagnostic]) {
    let xml = try XMLReader.parse(contentsOf: path)
    let (document, diagnostics) = read(xml)
    guard let document, !diagnostics.hasErrors else { throw DiagnosticsError(diagnostics) }
    return (document, diagnostics)
  }

  /// Builds the document from a parsed XML tree; nil when the root is not `<mappingModel>`.
  public static func read(_ xml: XML.Document) -> (MappingDocument?, [Diagnostic]) {
    var r = Reader(path: xml.path)
    let root = xml.root
    guard root.name == "mappingModel" else {
      r.error("map-root", "the root element must be <mappingModel>, not <\(root.name)>", at: root.location)
      return (nil, r.diagnostics)
    }
    r.allowAttributes(root, ["name", "formatVersion"])
    var doc = MappingDocument(
      path: xml.path, name: r.located(root, "name"), formatVersion: r.located(root, "formatVersion"),
      location: root.location)
    if let v = doc.formatVersion {
      if v.value != "1" {
        r.error(
          "map-format-version", "mapping format version \(v.value) is not supported; this mapc reads version 1",
          at: v.location)
      }
    } else {
      r.error("map-format-version", "<mappingModel> needs formatVersion=\"1\"", at: root.location)
    }
    var sawUserInfo = false
    var sawModel: Set<String> = []
    for child in root.elements {
      switch child.name {
      case "sourceModel", "destinationModel":
        let ref = r.modelReference(child)
        if sawModel.contains(child.name) {
          r.error("map-duplicate-element", "<\(child.name)> appears twice", at: child.location)
        }
        sawModel.insert(child.name)
        // The first usable reference counts.
        if child.name == "sourceModel" {
          doc.sourceModel = doc.sourceModel ?? ref
        } else {
          doc.destinationModel = doc.destinationModel ?? ref
        }
      case "userInfo":
        if sawUserInfo { r.error("map-duplicate-element", "<userInfo> appears twice", at: child.location) }
        sawUserInfo = true
        doc.userInfo = r.userInfo(child)
      case "entityMapping":
        doc.entityMappings.append(r.entityMapping(child))
      default:
        r.unknownElement(
          child, in: "mappingModel", allowed: ["sourceModel", "destinationModel", "userInfo", "entityMapping"])
      }
    }
    r.checkText(root)
    doc.suppressions = Suppressions.collect(xml)
    return (doc, r.diagnostics)
  }

  struct Reader {
    let path: String
    var diagnostics: [Diagnostic] = []

    init(path: String) { self.path = path }

    mutating func error(_ id: String, _ message: String, at location: SourceLocation) {
      diagnostics.append(.error(id, message, at: location))
    }

    func located(_ e: XML.Element, _ name: String) -> Located<String>? {
      e.attribute(name).map { Located($0.value, at: $0.valueLocation) }
    }

    mutating func required(_ e: XML.Element, _ name: String) -> Located<String>? {
      if let v = located(e, name) { return v }
      error("map-missing-attribute", "<\(e.name)> needs a \(name)=\"…\" attribute", at: e.location)
      return nil
    }

    mutating func allowAttributes(_ e: XML.Element, _ allowed: [String]) {
      for i in e.attributes.indices {
        let name = e.attributes[i].name
        guard !allowed.contains(name), !name.hasPrefix("xmlns") else { continue }
        let a = e.attributes[i]
        error(
          "map-unknown-xml-attribute",
          "<\(e.name)> has no attribute \(a.name)\(suggestion(a.name, allowed))", at: a.location)
      }
    }

    mutating func unknownElement(_ e: XML.Element, in parent: String, allowed: [String]) {
      error(
        "map-unknown-element",
        "<\(parent)> cannot contain <\(e.name)>\(suggestion(e.name, allowed)); allowed: \(allowed.map { "<\($0)>" }.joined(separator: ", "))",
        at: e.location)
    }

    /// Elements that hold only child elements must not hold text.
    mutating func checkText(_ e: XML.Element) {
      for t in e.textNodes where !t.isWhitespace {
        error("map-unexpected-text", "<\(e.name)> cannot contain text", at: t.location)
      }
    }

    mutating func modelReference(_ e: XML.Element) -> ModelReference? {
      allowAttributes(e, ["path", "version", "versionHash"])
      var pins: [EntityPin] = []
      for child in e.elements {
        guard child.name == "entityVersionHash" else {
          unknownElement(child, in: e.name, allowed: ["entityVersionHash"])
          continue
        }
        allowAttributes(child, ["entity", "hash"])
        if let entity = required(child, "entity"), let hash = required(child, "hash") {
          pins.append(EntityPin(entity: entity.value, hash: hash.value, location: child.location))
        }
      }
      checkText(e)
      guard let path = required(e, "path") else { return nil }
      return ModelReference(
        path: path, version: located(e, "version"), versionHash: located(e, "versionHash"), entityPins: pins,
        location: e.location)
    }

    mutating func userInfo(_ e: XML.Element) -> UserInfo {
      allowAttributes(e, [])
      var info = UserInfo()
      for child in e.elements {
        guard child.name == "entry" else {
          unknownElement(child, in: "userInfo", allowed: ["entry"])
          continue
        }
        allowAttributes(child, ["key", "value"])
        if let key = required(child, "key"), let value = required(child, "value") {
          info.entries.append(UserInfo.Entry(key: key.value, value: value.value))
        }
      }
      checkText(e)
      return info
    }

    /// The text of an expression element with the position of each character.
    mutating func expression(_ e: XML.Element) -> ExpressionText {
      allowAttributes(e, [])
      return expressionContent(e)
    }

    /// `expression(_:)` without the check of the element's attributes.
    mutating func expressionContent(_ e: XML.Element) -> ExpressionText {
      for child in e.elements {
        error(
          "map-unexpected-element", "<\(e.name)> holds an expression; it cannot contain <\(child.name)>",
          at: child.location)
      }
      let nodes = e.textNodes
      guard var map = nodes.first?.positions else {
        return ExpressionText("", at: e.location)
      }
      for n in nodes.dropFirst() { map.append(contentsOf: n.positions) }
      let positions = map
      return ExpressionText(map.text, at: map.location(ofUTF8Offset: 0)) { positions.location(ofUTF8Offset: $0) }
    }

    mutating func entityMapping(_ e: XML.Element) -> EntityMappingElement {
      allowAttributes(e, ["name", "type", "source", "destination", "policy"])
      var m = EntityMappingElement(
        name: located(e, "name"), type: located(e, "type"), source: located(e, "source"),
        destination: located(e, "destination"), policy: located(e, "policy"), location: e.location)
      var once: [String: SourceLocation] = [:]
      for node in e.children {
        guard case .element(let child) = node else { continue }
        if ["userInfo", "sourceExpression", "filter", "forEach"].contains(child.name) {
          if once[child.name] != nil {
            error("map-duplicate-element", "<\(child.name)> appears twice in <entityMapping>", at: child.location)
            continue
          }
          once[child.name] = child.location
        }
        switch child.name {
        case "userInfo": m.userInfo = userInfo(child)
        case "sourceExpression": m.sourceExpression = expression(child)
        case "filter": m.filter = expression(child)
        case "forEach": m.forEach = expression(child)
        case "attribute", "relationship":
          var info = UserInfo()
          var exprElement = child
          let hasUserInfo = child.children.contains {
            if case .element(let x) = $0, x.name == "userInfo" { return true }
            return false
          }
          if hasUserInfo {
            exprElement.children = child.children.filter {
              if case .element(let x) = $0, x.name == "userInfo" { return false }
              return true
            }
          }
          for x in child.elements(named: "userInfo") { info = userInfo(x) }
          allowAttributes(child, ["name"])
          guard let name = required(child, "name") else { continue }
          // Its attributes were checked above.
          let text = expressionContent(exprElement)
          let property = PropertyElement(
            name: name, expression: text.text.isXMLSpaceOnly ? nil : text, userInfo: info, location: child.location)
          if child.name == "attribute" { m.attributes.append(property) } else { m.relationships.append(property) }
        default:
          unknownElement(
            child, in: "entityMapping",
            allowed: ["userInfo", "sourceExpression", "filter", "forEach", "attribute", "relationship"])
        }
      }
      checkText(e)
      return m
    }
  }
}
