import MapCompiler
import MapRuntime
import MapSyntax

/// `lint-policy-without-module`: a custom policy named without its Swift module.
struct PolicyWithoutModule: LintCheck {
  static let personWithTitle = """
    <entity name="Person" representedClassName="Person" syncable="YES">
        <attribute name="title" optional="YES" attributeType="String"/>
    </entity>
    """

  static let rule = LintRule(
    id: "lint-policy-without-module", severity: .warning,
    title: "A custom policy is named without its module",
    explanation: """
      Core Data creates an entity mapping's policy with NSClassFromString. A Swift class is \
      registered with the Objective-C runtime under its module-qualified name \
      (App.LegacyToModernPolicy), so policy="LegacyToModernPolicy" finds nothing and the \
      migration fails on the device with "Couldn't create mapping policy for class named \
      LegacyToModernPolicy". Write the module name as Xcode's mapping editor expects it. An \
      Objective-C class, or a Swift class given an explicit @objc(LegacyToModernPolicy) name, is \
      found by its bare name: suppress the finding for those. A name this mapc has a policy \
      registered under exactly (an app's own mapc registering a class under its Objective-C \
      name) is not reported; when it has one of that class name in a module, the finding names \
      it.
      """,
    suppression: "on the <entityMapping> element",
    bad: LintExample(
      source: personWithTitle, destination: personWithTitle,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person" policy="‸LegacyToModernPolicy"/>
        """)),
    good: LintExample(
      source: personWithTitle, destination: personWithTitle,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person" policy="App.LegacyToModernPolicy"/>
        """)))

  func findings(in context: LintContext) -> [Diagnostic] {
    var result: [Diagnostic] = []
    for m in context.mappings {
      guard let policy = m.element.policy, !policy.value.isEmpty, !policy.value.contains(".") else { continue }
      // Registered under exactly this name (an app's mapc registering its Objective-C class
      // name): the name is what the app's runtime resolves, nothing to report.
      if PolicyRegistry.registeredNames.contains(policy.value) { continue }
      // `mapc export --policy-source` classes carry their Objective-C name (`@objc(Name)`).
      if PolicySourceWriter.isGenerated(policy.value) { continue }
      let qualified = PolicyRegistry.registeredNames.filter { $0.hasSuffix("." + policy.value) }
      let hint = qualified.count == 1 ? "; this mapc has \(qualified[0]) registered" : ""
      result.append(
        Self.rule.finding(
          "policy \(policy.value) is not module-qualified: Core Data looks the class up with NSClassFromString, which needs Module.\(policy.value) for a Swift class\(hint); write policy=\"\(qualified.count == 1 ? qualified[0] : "Module.\(policy.value)")\", or suppress this for an Objective-C class",
          at: policy.location))
    }
    return result
  }
}
