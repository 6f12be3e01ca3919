import Foundation
import MapRuntime
import MapSyntax

/// Turns an `XcodeMapping` into the `MappingDocument` the compiler checks, with Xcode's implicit
/// rules made explicit where the file holds something (`Specs/xcmappingmodel.md` §4):
///
/// - a mapping's name is its `name`, else left to the compiler's default, Xcode's
///   `<Source>To<Destination>`; its type is inferred (Xcode stores `Undefined`);
/// - the source fetch is the default one, with `sourcefilterpredicatestring` as its filter;
/// - an attribute or relationship mapping with `valueexpressiondata` gets that expression, decoded
///   and printed in canonical form; a relationship mapping with `sourcekeypath` and
///   `sourcemappingname` gets
///   `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "NAME", KEYPATH)`;
/// - any other property mapping is left out, so the compiler's implicit rule applies, the same one
///   Xcode's editor shows: `$source.<name>` for an attribute of the same name (or renaming
///   identifier), the source relationship of the same name for a relationship.
public enum XcodeMappingDocument {
  public static let relationshipSelector = "destinationInstancesForEntityMappingNamed:sourceInstances:"

  public static func document(_ mapping: XcodeMapping) -> (MappingDocument, [Diagnostic]) {
    var diagnostics: [Diagnostic] = []
    var doc = MappingDocument(
      path: mapping.path, name: Located(planName(mapping.path), at: mapping.store.location),
      formatVersion: Located("1", at: mapping.store.location), location: mapping.store.location)
    for m in mapping.entityMappings {
      var e = EntityMappingElement(
        name: m.name, type: type(m, &diagnostics), source: m.source, destination: m.destination, policy: m.policy,
        location: m.location)
      if let blob = m.userInfo {
        do {
          e.userInfo = try ExpressionArchiveReader.userInfo(blob.bytes)
        } catch {
          diagnostics.append(
            .error(
              error.isExpansionLimit ? "limit-expanded-size" : "xcmap-archive",
              "userinfodata of \(m.id) cannot be read: \(error.message)", at: blob.location))
        }
      }
      if let f = m.filter {
        e.filter = expressionText(f)
      }
      if !m.autogenerateExpression {
        diagnostics.append(
          .warning(
            "xcmap-custom-source-fetch",
            "\(m.id) turns off Xcode's default source fetch, but the file holds no custom fetch expression; the default fetch is used",
            at: m.location))
      }
      for p in m.attributes {
        if let x = expression(p, &diagnostics) {
          e.attributes.append(PropertyElement(name: p.name, expression: x, location: p.location))
        }
      }
      for p in m.relationships {
        if let x = expression(p, &diagnostics) {
          e.relationships.append(PropertyElement(name: p.name, expression: x, location: p.location))
        } else if let keyPath = p.sourceKeyPath, let mappingName = p.sourceMappingName {
          let literal = MapRuntime.Expression.string(mappingName.value).description
          let text = "FUNCTION($manager, \"\(relationshipSelector)\", \(literal), \(keyPath.value.trimmedXMLSpace))"
          e.relationships.append(
            PropertyElement(
              name: p.name, expression: ExpressionText(text, at: keyPath.valueLocation) { _ in keyPath.valueLocation },
              location: p.location))
        } else if let keyPath = p.sourceKeyPath {
          diagnostics.append(
            .warning(
              "xcmap-incomplete-relationship",
              "relationship mapping \(p.name.value) of \(m.id) has a key path (\(keyPath.value)) but no mapping name; Xcode needs both, so the default mapping of \(p.name.value) is used",
              at: keyPath.location))
        }
      }
      doc.entityMappings.append(e)
    }
    return (doc, diagnostics)
  }

  /// The plan's name: the `.xcmappingmodel` folder's name without its extension, as Xcode names
  /// the `.cdm` it compiles.
  public static func planName(_ path: String) -> String {
    var components = path.split(separator: "/").map(String.init)
    if components.last == "xcmapping.xml" { components.removeLast() }
    var name = components.last ?? "mapping"
    if name.hasSuffix(".xcmappingmodel") { name.removeLast(".xcmappingmodel".count) }
    return name
  }

  static func type(_ m: XcodeMapping.EntityMapping, _ diagnostics: inout [Diagnostic]) -> Located<String>? {
    guard let t = m.mappingTypeName else { return nil }
    switch t.value {
    case "Undefined": return nil
    case "Custom", "Add", "Remove", "Copy", "Transform": return Located(t.value.lowercased(), at: t.location)
    default:
      diagnostics.append(
        .warning(
          "xcmap-unknown-field",
          "mappingtypename \(t.value) of \(m.id) is not an NSEntityMappingType; the type is inferred", at: t.location))
      return nil
    }
  }

  /// A string attribute's text as an expression, each character at its place in the file.
  static func expressionText(_ a: XcodeStoreDocument.Attribute) -> ExpressionText {
    let text = a.value
    guard let positions = a.positions else { return ExpressionText(text, at: a.valueLocation) { _ in a.valueLocation } }
    return ExpressionText(text, at: a.valueLocation) { positions.location(ofUTF8Offset: $0) }
  }

  static func expression(_ p: XcodeMapping.PropertyMapping, _ diagnostics: inout [Diagnostic]) -> ExpressionText? {
    guard let blob = p.valueExpression else { return nil }
    do {
      let e = try ExpressionArchiveReader.expression(blob.bytes)
      return ExpressionText(e.description, at: blob.location) { _ in blob.location }
    } catch {
      diagnostics.append(
        .error(
          "xcmap-archive", "the value expression of \(p.name.value) (\(p.id)) cannot be read: \(error.message)",
          at: blob.location))
      return nil
    }
  }
}
