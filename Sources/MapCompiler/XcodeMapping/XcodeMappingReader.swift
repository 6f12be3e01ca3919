import Foundation
import MapRuntime
import MapSyntax

/// Reads `xcmapping.xml` into an `XcodeMapping`: finds the one `XDDEVMAPPINGMODEL`, follows its
/// `entitymappings` and their property mappings (objects nothing live refers to are ignored, as
/// Xcode leaves them behind), orders entity mappings by `mappingnumber`, and checks every value's
/// type. Unknown object types and fields are warnings with their place (`Specs/xcmappingmodel.md`).
public enum XcodeMappingReader {
  /// Fields Xcode's mapping schema has, per object type: `(attributes, relationships)`.
  static let schema: [String: (attributes: [String: String], relationships: Set<String>)] = [
    "XDDEVMAPPINGMODEL": (
      [
        "sourcemodelpath": "string", "sourcemodeldata": "binary", "destinationmodelpath": "string",
        "destinationmodeldata": "binary",
      ],
      ["entitymappings"]
    ),
    "XDDEVENTITYMAPPING": (
      [
        "sourcename": "string", "destinationname": "string", "name": "string", "mappingtypename": "string",
        "mappingnumber": "int16", "migrationpolicyclassname": "string", "sourcefilterpredicatestring": "string",
        "autogenerateexpression": "bool", "userinfodata": "binary",
      ],
      ["mappingmodel", "attributemappings", "relationshipmappings"]
    ),
    "XDDEVATTRIBUTEMAPPING": (
      ["name": "string", "valueexpressiondata": "binary", "userinfodata": "binary"], ["entitymapping"]
    ),
    "XDDEVRELATIONSHIPMAPPING": (
      [
        "name": "string", "autogenerateexpression": "bool", "sourcekeypath": "string", "sourcemappingname": "string",
        "valueexpressiondata": "binary", "userinfodata": "binary",
      ],
      ["entitymapping"]
    ),
  ]

  /// The `xcmapping.xml` inside a `.xcmappingmodel` folder, or the path itself.
  public static func documentPath(_ path: String) -> String {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      return (path.hasSuffix("/") ? String(path.dropLast()) : path) + "/xcmapping.xml"
    }
    return path
  }

  /// True when `path` names a `.xcmappingmodel` folder or an `xcmapping.xml` file.
  public static func isXcodeMapping(_ path: String) -> Bool {
    let p = path.hasSuffix("/") ? String(path.dropLast()) : path
    return p.hasSuffix(".xcmappingmodel") || p.hasSuffix("/xcmapping.xml") || p == "xcmapping.xml"
  }

  public static func read(_ xml: XML.Document) -> (XcodeMapping?, [Diagnostic]) {
    let (storeRead, envelopeDiagnostics) = XcodeStoreDocument.read(xml)
    var diagnostics = envelopeDiagnostics
    guard let store = storeRead else { return (nil, diagnostics) }
    var r = Reader(store: store)
    for object in store.objects { r.checkSchema(object) }
    let models = store.objects.filter { $0.type == "XDDEVMAPPINGMODEL" }
    guard let model = models.first else {
      diagnostics += r.diagnostics
      diagnostics.append(
        .error(
          "xcmap-no-mapping-model", "the file holds no XDDEVMAPPINGMODEL object, so it is not a mapping model",
          at: store.location))
      return (nil, diagnostics)
    }
    for extra in models.dropFirst() {
      r.error(
        "xcmap-no-mapping-model", "a second XDDEVMAPPINGMODEL object; Xcode writes exactly one", at: extra.location)
    }
    var mapping = XcodeMapping(
      path: xml.path, store: store, mappingModelID: model.id,
      sourceModelPath: r.string(model, "sourcemodelpath"),
      destinationModelPath: r.string(model, "destinationmodelpath"),
      sourceModelData: r.blob(model, "sourcemodeldata"), destinationModelData: r.blob(model, "destinationmodeldata"),
      entityMappings: [], location: model.location)
    var mappings: [XcodeMapping.EntityMapping] = []
    for id in model.relationship("entitymappings")?.idrefs ?? [] {
      guard let object = store.object(id: id), object.type == "XDDEVENTITYMAPPING" else { continue }
      mappings.append(r.entityMapping(object))
    }
    // mappingnumber is the processing order; ties (and missing numbers) keep id order, so the
    // result never depends on the order of idrefs.
    mapping.entityMappings = mappings.enumerated().sorted { a, b in
      let (x, y) = (a.element.number ?? Int.max, b.element.number ?? Int.max)
      if x != y { return x < y }
      return idNumber(a.element.id) < idNumber(b.element.id)
    }.map(\.element)
    diagnostics += r.diagnostics
    return (mapping, diagnostics)
  }

  /// `z123` → 123, for ordering objects by creation.
  static func idNumber(_ id: String) -> Int { Int(id.drop(while: { !$0.isNumber })) ?? Int.max }

  struct Reader {
    let store: XcodeStoreDocument
    var diagnostics: [Diagnostic] = []

    mutating func error(_ id: String, _ message: String, at location: SourceLocation) {
      diagnostics.append(.error(id, message, at: location))
    }

    mutating func checkSchema(_ object: XcodeStoreDocument.Object) {
      guard let fields = XcodeMappingReader.schema[object.type] else {
        diagnostics.append(
          .warning(
            "xcmap-unknown-object",
            "object \(object.id) has type \(object.type), which Xcode's mapping schema does not have; it is ignored",
            at: object.location))
        return
      }
      for a in object.attributes {
        guard let type = fields.attributes[a.name] else {
          diagnostics.append(
            .warning(
              "xcmap-unknown-field",
              "\(object.type) has no attribute \(a.name) in Xcode's mapping schema; it is ignored", at: a.location))
          continue
        }
        if type != a.type {
          error(
            "xcmap-bad-value", "attribute \(a.name) of \(object.id) has type \(a.type); Xcode writes \(type)",
            at: a.location)
        }
      }
      for rel in object.relationships where !fields.relationships.contains(rel.name) {
        diagnostics.append(
          .warning(
            "xcmap-unknown-field",
            "\(object.type) has no relationship \(rel.name) in Xcode's mapping schema; it is ignored", at: rel.location)
        )
      }
    }

    func string(_ o: XcodeStoreDocument.Object, _ name: String) -> Located<String>? {
      guard let a = o.attribute(name), a.type == "string" else { return nil }
      return Located(a.value, at: a.valueLocation)
    }

    /// A non-empty string (Xcode leaves some fields present but empty).
    func nonEmpty(_ o: XcodeStoreDocument.Object, _ name: String) -> Located<String>? {
      guard let s = string(o, name), !s.value.trimmedXMLSpace.isEmpty else { return nil }
      return s
    }

    mutating func bool(_ o: XcodeStoreDocument.Object, _ name: String) -> Bool? {
      guard let a = o.attribute(name), a.type == "bool" else { return nil }
      switch a.value.trimmedXMLSpace {
      case "1": return true
      case "0": return false
      default:
        error("xcmap-bad-value", "\(name) of \(o.id) is \"\(a.value)\"; a bool is 1 or 0", at: a.valueLocation)
        return nil
      }
    }

    mutating func int(_ o: XcodeStoreDocument.Object, _ name: String) -> Int? {
      guard let a = o.attribute(name), a.type.hasPrefix("int") else { return nil }
      guard let v = Int16(a.value.trimmedXMLSpace) else {
        error("xcmap-bad-value", "\(name) of \(o.id) is \"\(a.value)\", not a 16-bit integer", at: a.valueLocation)
        return nil
      }
      return Int(v)
    }

    mutating func blob(_ o: XcodeStoreDocument.Object, _ name: String) -> XcodeMapping.Blob? {
      guard let a = o.attribute(name), a.type == "binary" else { return nil }
      let text = a.value.filter { !$0.isWhitespace }
      guard let data = Data(base64Encoded: text) else {
        error(
          "xcmap-base64",
          "\(name) of \(o.id) is not valid base64 (\(text.utf8.count) characters; truncated or damaged)",
          at: a.valueLocation)
        return nil
      }
      return XcodeMapping.Blob(bytes: [UInt8](data), location: a.location)
    }

    mutating func entityMapping(_ o: XcodeStoreDocument.Object) -> XcodeMapping.EntityMapping {
      var m = XcodeMapping.EntityMapping(
        id: o.id, name: nonEmpty(o, "name"), source: nonEmpty(o, "sourcename"),
        destination: nonEmpty(o, "destinationname"),
        mappingTypeName: nonEmpty(o, "mappingtypename"), number: int(o, "mappingnumber"),
        policy: nonEmpty(o, "migrationpolicyclassname"),
        filter: o.attribute("sourcefilterpredicatestring").flatMap { $0.value.trimmedXMLSpace.isEmpty ? nil : $0 },
        autogenerateExpression: bool(o, "autogenerateexpression") ?? true, userInfo: blob(o, "userinfodata"),
        attributes: [], relationships: [], location: o.location)
      m.attributes = properties(o, "attributemappings", "XDDEVATTRIBUTEMAPPING")
      m.relationships = properties(o, "relationshipmappings", "XDDEVRELATIONSHIPMAPPING")
      return m
    }

    /// The live property mappings of an entity mapping, by destination property name (Xcode
    /// stores no order); a name given twice is an error at the second.
    mutating func properties(_ o: XcodeStoreDocument.Object, _ relationship: String, _ type: String) -> [XcodeMapping
      .PropertyMapping]
    {
      var result: [XcodeMapping.PropertyMapping] = []
      for id in o.relationship(relationship)?.idrefs ?? [] {
        guard let p = store.object(id: id), p.type == type else { continue }
        guard let name = nonEmpty(p, "name") else {
          error("xcmap-object", "\(type) \(p.id) has no name", at: p.location)
          continue
        }
        result.append(
          XcodeMapping.PropertyMapping(
            id: p.id, name: name, valueExpression: blob(p, "valueexpressiondata"),
            sourceKeyPath: p.attribute("sourcekeypath").flatMap { $0.value.trimmedXMLSpace.isEmpty ? nil : $0 },
            sourceMappingName: nonEmpty(p, "sourcemappingname"),
            autogenerateExpression: bool(p, "autogenerateexpression") ?? true, location: p.location))
      }
      result.sort {
        ($0.name.value, XcodeMappingReader.idNumber($0.id)) < ($1.name.value, XcodeMappingReader.idNumber($1.id))
      }
      for (a, b) in zip(result, result.dropFirst()) where a.name.value == b.name.value {
        error("xcmap-duplicate-property", "\(o.id) maps \(b.name.value) twice", at: b.location)
      }
      return result
    }
  }
}
