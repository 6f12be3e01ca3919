import MapCompiler
import MapRuntime
import MapSyntax

/// `lint-device-unknown-function`: an Xcode mapping model that calls a function of mapc's
/// library, which Core Data on the device does not have (`DeviceFunctions`).
struct DeviceUnknownFunction: LintCheck {
  static let rule = LintRule(
    id: "lint-device-unknown-function", severity: .error,
    title: "An Xcode mapping model calling a function the device does not have",
    explanation: """
      mapc runs its own library of $entityPolicy functions (dateFromString:format:, \
      defaultValue:for:, trim:, numberFromString: and the others). Core Data on an iPhone or a \
      Mac has none of them: \
      NSEntityMigrationPolicy declares no such methods, so an .xcmappingmodel that calls one \
      compiles in Xcode and then stops the migration on the device with "unrecognized selector \
      sent to instance" — unless the app's policy class implements the method. Use Core Data's \
      own form where there is one (TERNARY(value != nil, value, fallback) for defaultValue:for:, \
      CAST(value, "NSNumber") for numberFromString:, FUNCTION(value, "stringValue") for \
      stringFromNumber:), or export the mapping with mapc export --policy-source FILE.swift, \
      which writes a policy class implementing each function for the app and names it in the \
      mapping model. A mapping whose policy is registered in this mapc and declares the selector \
      is not reported. Only Xcode mapping models are checked: mapc's text mappings run in mapc, \
      which has the functions.
      """,
    suppression: "on the <object> of the attribute or relationship mapping, when the app's policy implements it",
    bad: LintExample(
      source: CompilerRules.person, destination: CompilerRules.person, mapping: xcodeMapping(marked: true)),
    good: LintExample(
      source: CompilerRules.person, destination: CompilerRules.person, mapping: xcodeMapping(marked: false)))

  /// An Xcode mapping model of Person to Person whose name mapping trims the name: with
  /// `FUNCTION($entityPolicy, "trim:", …)` when `marked`, else with a Foundation method.
  static func xcodeMapping(marked: Bool) -> String {
    let expression =
      marked ? "FUNCTION($entityPolicy, \"trim:\", $source.name)" : "FUNCTION($source.name, \"lowercaseString\")"
    return """
      <?xml version="1.0" standalone="yes"?>
      <database>
          <object type="XDDEVMAPPINGMODEL" id="z102">
              <attribute name="sourcemodelpath" type="string">Source.xcdatamodel</attribute>
              <attribute name="sourcemodeldata" type="binary">SOURCE_SNAPSHOT</attribute>
              <attribute name="destinationmodelpath" type="string">Destination.xcdatamodel</attribute>
              <attribute name="destinationmodeldata" type="binary">DESTINATION_SNAPSHOT</attribute>
              <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z103"></relationship>
          </object>
          <object type="XDDEVENTITYMAPPING" id="z103">
              <attribute name="sourcename" type="string">Person</attribute>
              <attribute name="mappingtypename" type="string">Undefined</attribute>
              <attribute name="mappingnumber" type="int16">1</attribute>
              <attribute name="destinationname" type="string">Person</attribute>
              <relationship name="mappingmodel" type="1/1" destination="XDDEVMAPPINGMODEL" idrefs="z102"></relationship>
              <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z104"></relationship>
          </object>
          <object type="XDDEVATTRIBUTEMAPPING" id="z104">
              \(marked ? "‸" : "")<attribute name="valueexpressiondata" type="binary">ARCHIVED_EXPRESSION<<\(expression)>></attribute>
              <attribute name="name" type="string">name</attribute>
              <relationship name="entitymapping" type="1/1" destination="XDDEVENTITYMAPPING" idrefs="z103"></relationship>
          </object>
      </database>

      """
  }

  func findings(in context: LintContext) -> [Diagnostic] {
    guard XcodeMappingReader.isXcodeMapping(context.document.path) else { return [] }
    var result: [Diagnostic] = []
    for m in context.mappings {
      // A class `mapc export --policy-source` wrote implements every function of the library.
      if PolicySourceWriter.isGenerated(m.element.policy?.value) { continue }
      let declared = DeviceFunctionScan.declaredSelectors(ofPolicy: m.element.policy?.value)
      for use in DeviceFunctionScan.uses(in: m.element, implemented: declared) {
        let owner =
          use.kind == .builtin
          ? "NSExpression has no function \(use.name)"
          : "NSEntityMigrationPolicy has no method \(use.name)\((m.element.policy?.value).map { ", and \($0) is not registered in this mapc to say whether it has one" } ?? "")"
        result.append(
          Self.rule.finding(
            "\(use.spelling) in \(m.name) is mapc's function: \(owner), so the migration stops on the device; \(use.advice), or export the mapping with mapc export --policy-source FILE.swift",
            at: use.location))
      }
    }
    return result
  }
}
