import MapRuntime
import MapSyntax

/// Writes an `ObjectModel` as the `contents` file of an Xcode data model (`.xcdatamodel`), in
/// the attributes `ModelReader` reads (Specs/model-input.md §3): what `mapc store model` writes
/// for the model a store carries. Reading the text back gives the same model, and the same
/// entity version hashes (`CompositeAttributeTests.writerRoundTrips`).
///
/// Entities, properties and user-info entries come in model order; a Composite attribute is
/// written with its elements as nested `<element>`s (§3.1).
public enum ModelXMLWriter {
  public static func contents(_ model: ObjectModel) -> String {
    var out = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
    var root: [(String, String?)] = [
      ("type", "com.apple.IDECoreDataModeler.DataModel"), ("documentVersion", "1.0"),
      ("minimumToolsVersion", "Automatic"), ("sourceLanguage", "Swift"),
    ]
    if let identifier = model.versionIdentifiers.first {
      root.append(("userDefinedModelVersionIdentifier", identifier))
    }
    out += "<model" + attributes(root) + ">\n"
    for e in model.entities { entity(e, into: &out) }
    for c in model.configurations {
      out += "    <configuration" + attributes([("name", c.name)]) + ">\n"
      for m in c.memberEntities { out += "        <memberEntity" + attributes([("name", m)]) + "/>\n" }
      out += "    </configuration>\n"
    }
    out += "</model>\n"
    return out
  }

  static func entity(_ e: EntityDescription, into out: inout String) {
    let fields: [(String, String?)] = [
      ("name", e.name), ("representedClassName", e.className), ("parentEntity", e.parentName),
      ("isAbstract", e.isAbstract ? "YES" : nil), ("elementID", e.renamingIdentifier),
      ("versionHashModifier", e.versionHashModifier), ("syncable", "YES"),
    ]
    out += "    <entity" + attributes(fields) + ">\n"
    for a in e.attributes { attribute(a, tag: "attribute", indent: 8, into: &out) }
    for r in e.relationships { relationship(r, into: &out) }
    for f in e.fetchIndexes {
      out += "        <fetchIndex" + attributes([("name", f.name)]) + ">\n"
      for el in f.elements {
        let fields: [(String, String?)] = [
          ("property", el.property), ("type", el.type), ("order", el.ascending ? "ascending" : "descending"),
        ]
        out += "            <fetchIndexElement" + attributes(fields) + "/>\n"
      }
      out += "        </fetchIndex>\n"
    }
    nested(e.uniquenessConstraints, "uniquenessConstraints", "uniquenessConstraint", "constraint", into: &out)
    nested(e.compoundIndexes, "compoundIndexes", "compoundIndex", "index", into: &out)
    userInfo(e.userInfo, indent: 8, into: &out)
    out += "    </entity>\n"
  }

  static func attribute(_ a: AttributeDescription, tag: String, indent: Int, into out: inout String) {
    var fields: [(String, String?)] = [
      ("name", a.name), ("optional", a.isOptional ? "YES" : nil), ("transient", a.isTransient ? "YES" : nil),
      ("attributeType", a.type.rawValue),
    ]
    if a.isDerived { fields += [("derived", "YES"), ("derivationExpression", a.derivationExpression)] }
    switch a.defaultValue {
    case .date(let t)?: fields.append(("defaultDateTimeInterval", ModelXMLWriter.number(t)))
    case .binary?: break
    default: fields.append(("defaultValueString", a.defaultValueString ?? defaultText(a.defaultValue)))
    }
    fields += [
      ("minValueString", a.minValueString), ("maxValueString", a.maxValueString),
      ("regularExpressionString", a.regularExpression),
      ("allowsExternalBinaryDataStorage", a.allowsExternalBinaryDataStorage ? "YES" : nil),
      ("preserveAfterDeletion", a.preservesValueInHistoryOnDeletion ? "YES" : nil),
      ("allowsCloudEncryption", a.allowsCloudEncryption ? "YES" : nil),
      ("valueTransformerName", a.valueTransformerName), ("customClassName", a.customClassName),
      ("indexed", a.isIndexed ? "YES" : nil), ("spotlightIndexingEnabled", a.isIndexedBySpotlight ? "YES" : nil),
      ("storedInTruthFile", a.isStoredInExternalRecord ? "YES" : nil), ("elementID", a.renamingIdentifier),
      ("versionHashModifier", a.versionHashModifier),
    ]
    let pad = String(repeating: " ", count: indent)
    guard !a.compositeElements.isEmpty || !a.userInfo.isEmpty else {
      out += pad + "<\(tag)" + attributes(fields) + "/>\n"
      return
    }
    out += pad + "<\(tag)" + attributes(fields) + ">\n"
    for element in a.compositeElements { attribute(element, tag: "element", indent: indent + 4, into: &out) }
    userInfo(a.userInfo, indent: indent + 4, into: &out)
    out += pad + "</\(tag)>\n"
  }

  static func relationship(_ r: RelationshipDescription, into out: inout String) {
    let fields: [(String, String?)] = [
      ("name", r.name), ("optional", r.isOptional ? "YES" : nil), ("transient", r.isTransient ? "YES" : nil),
      ("toMany", r.isToMany ? "YES" : nil), ("minCount", r.minCount != 0 ? String(r.minCount) : nil),
      ("maxCount", r.isToMany ? (r.maxCount != 0 ? String(r.maxCount) : nil) : "1"),
      ("deletionRule", r.deleteRule.rawValue), ("ordered", r.isOrdered ? "YES" : nil),
      ("destinationEntity", r.destinationEntity), ("inverseName", r.inverseName),
      ("inverseEntity", r.inverseName == nil ? nil : (r.inverseEntity ?? r.destinationEntity)),
      ("elementID", r.renamingIdentifier), ("versionHashModifier", r.versionHashModifier),
    ]
    if r.userInfo.isEmpty {
      out += "        <relationship" + attributes(fields) + "/>\n"
    } else {
      out += "        <relationship" + attributes(fields) + ">\n"
      userInfo(r.userInfo, indent: 12, into: &out)
      out += "        </relationship>\n"
    }
  }

  static func nested(_ lists: [[String]], _ container: String, _ item: String, _ leaf: String, into out: inout String) {
    guard !lists.isEmpty else { return }
    out += "        <\(container)>\n"
    for list in lists {
      out += "            <\(item)>\n"
      for name in list { out += "                <\(leaf)" + attributes([("value", name)]) + "/>\n" }
      out += "            </\(item)>\n"
    }
    out += "        </\(container)>\n"
  }

  static func userInfo(_ info: UserInfo, indent: Int, into out: inout String) {
    guard !info.isEmpty else { return }
    let pad = String(repeating: " ", count: indent)
    out += pad + "<userInfo>\n"
    for entry in info.entries {
      out += pad + "    <entry" + attributes([("key", entry.key), ("value", entry.value)]) + "/>\n"
    }
    out += pad + "</userInfo>\n"
  }

  /// A default without Xcode's text: its text as `ModelValueParser` reads it back.
  static func defaultText(_ value: ModelConstant?) -> String? {
    switch value {
    case .integer(let i)?: String(i)
    case .double(let d)?: number(d)
    case .decimal(let s)?: s
    case .boolean(let b)?: b ? "YES" : "NO"
    case .string(let s)?: s
    case .date, .binary, nil: nil
    }
  }

  /// A double as the shortest text that reads back as it (whole numbers without `.0`).
  static func number(_ d: Double) -> String {
    if let i = Int64(exactly: d), d.magnitude < 1e15 { return String(i) }
    return String(d)
  }

  /// Text for XML element content or an attribute value.
  public static func escaped(_ s: String) -> String { XMLEscaping.attribute(s) }

  /// Why `contents` (written by `contents(_:)`) cannot be written as XML 1.0: a name or value
  /// holds a character XML 1.0 cannot hold even as a character reference (NUL, ESC, the other
  /// C0 controls but tab, line feed and carriage return), named with the element it is in; nil
  /// when it can be written. A store's cached model or a Swift string literal may hold one.
  public static func unwritable(_ contents: String) -> String? {
    guard let found = XMLEscaping.unwritable(in: contents) else { return nil }
    let code =
      "U+" + String(repeating: "0", count: max(0, 4 - String(found.character.value, radix: 16).count))
      + String(found.character.value, radix: 16, uppercase: true)
    return
      "the model holds \(code) in a name or value (\(TerminalText.escaped(found.text))), which XML 1.0 cannot hold, not even as a character reference"
  }

  /// ` name="value"` for each present value, escaped for an XML attribute.
  static func attributes(_ fields: [(String, String?)]) -> String {
    fields.compactMap { name, value in value.map { " \(name)=\"\(XMLEscaping.attribute($0))\"" } }.joined()
  }
}
