import MapRuntime
import MapSyntax

/// Writes a `MappingDocument` as a mapping XML file (format version 1, `Specs/mapping-xml.md`),
/// minimal: what the compiler infers (a mapping's default name and type, implicit property
/// mappings) is left out. `mapc import` uses it for Xcode mapping models.
public enum MappingTextWriter {
  /// A model reference to write: its path as it should appear in the file.
  public struct ModelPath: Sendable {
    public var path: String
    public var version: String?
    public init(path: String, version: String? = nil) {
      self.path = path
      self.version = version
    }
  }

  public static func text(
    _ document: MappingDocument, source: ModelPath?, destination: ModelPath?, comment: String? = nil
  ) -> String {
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    if let comment { out += "<!-- \(comment.replacingOccurrences(of: "--", with: "- -")) -->\n" }
    out += "<mappingModel"
    if let name = document.name?.value { out += " name=\"\(attribute(name))\"" }
    out += " formatVersion=\"1\">\n"
    for (element, model) in [("sourceModel", source), ("destinationModel", destination)] {
      guard let model else { continue }
      out += "  <\(element) path=\"\(attribute(model.path))\""
      if let v = model.version { out += " version=\"\(attribute(v))\"" }
      out += "/>\n"
    }
    writeUserInfo(document.userInfo, indent: "  ", into: &out)
    for e in document.entityMappings {
      out += "\n  <entityMapping"
      if let name = e.name?.value, name != MappingCompiler.defaultName(e) { out += " name=\"\(attribute(name))\"" }
      if let type = e.type?.value { out += " type=\"\(attribute(type))\"" }
      if let s = e.source?.value { out += " source=\"\(attribute(s))\"" }
      if let d = e.destination?.value { out += " destination=\"\(attribute(d))\"" }
      if let p = e.policy?.value { out += " policy=\"\(attribute(p))\"" }
      let children =
        !e.userInfo.entries.isEmpty || e.sourceExpression != nil || e.filter != nil || e.forEach != nil
        || !e.attributes.isEmpty || !e.relationships.isEmpty
      guard children else {
        out += "/>\n"
        continue
      }
      out += ">\n"
      writeUserInfo(e.userInfo, indent: "    ", into: &out)
      for (tag, x) in [("sourceExpression", e.sourceExpression), ("filter", e.filter), ("forEach", e.forEach)] {
        if let x { out += "    <\(tag)>\(content(x.text))</\(tag)>\n" }
      }
      for (tag, properties) in [("attribute", e.attributes), ("relationship", e.relationships)] {
        for p in properties {
          out += "    <\(tag) name=\"\(attribute(p.name.value))\">"
          if !p.userInfo.entries.isEmpty {
            out += "\n"
            writeUserInfo(p.userInfo, indent: "      ", into: &out)
            out += "      \(content(p.expression?.text ?? ""))\n    </\(tag)>\n"
          } else {
            out += "\(content(p.expression?.text ?? ""))</\(tag)>\n"
          }
        }
      }
      out += "  </entityMapping>\n"
    }
    out += "</mappingModel>\n"
    return out
  }

  static func writeUserInfo(_ info: UserInfo, indent: String, into out: inout String) {
    guard !info.entries.isEmpty else { return }
    out += "\(indent)<userInfo>"
    for entry in info.entries {
      out += "<entry key=\"\(attribute(entry.key))\" value=\"\(attribute(entry.value))\"/>"
    }
    out += "</userInfo>\n"
  }

  /// Text for an attribute value (`XMLEscaping`).
  package static func attribute(_ s: String) -> String { XMLEscaping.attribute(s) }

  /// Text for element content (`XMLEscaping`).
  static func content(_ s: String) -> String { XMLEscaping.content(s) }
}
