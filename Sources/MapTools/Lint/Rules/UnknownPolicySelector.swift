import MapCompiler
import MapRuntime
import MapSyntax

/// `lint-unknown-policy-selector`: `FUNCTION($entityPolicy, "sel:", …)` that neither the
/// mapping's policy nor the built-in library implements.
struct UnknownPolicySelector: LintCheck {
  static let titleAndSlug = """
    <entity name="Person" representedClassName="Person" syncable="YES">
        <attribute name="slug" optional="YES" attributeType="String"/>
        <attribute name="title" optional="YES" attributeType="String"/>
    </entity>
    """
  static let titleOnly = PolicyWithoutModule.personWithTitle

  static let rule = LintRule(
    id: "lint-unknown-policy-selector", severity: .error,
    title: "A $entityPolicy selector that no registered or built-in policy implements",
    explanation: """
      FUNCTION($entityPolicy, "selector:", …) calls a method of the entity mapping's policy. \
      When the policy does not implement it, Core Data stops the migration with "unrecognized \
      selector sent to instance" — typically after a rename in code that the mapping did not \
      follow. mapc checks the selector against the built-in policy functions and against the \
      selectors that the registered policy class declares (its class var selectors; register \
      policies with PolicyRegistry in the executable that links MapcCLI, and lint with that \
      executable). When the mapping's policy is not registered in the running mapc, the \
      selector cannot be checked and the finding is a note. In the examples, \
      App.LegacyToModernPolicy is registered and declares slugFromTitle:.
      """,
    suppression: "on the <attribute> or <relationship> element that calls it",
    bad: LintExample(
      source: titleOnly, destination: titleAndSlug,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person" policy="App.LegacyToModernPolicy">
            <attribute name="slug">‸FUNCTION($entityPolicy, "slugForTitle:", $source.title)</attribute>
          </entityMapping>
        """)),
    good: LintExample(
      source: titleOnly, destination: titleAndSlug,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person" policy="App.LegacyToModernPolicy">
            <attribute name="slug">FUNCTION($entityPolicy, "slugFromTitle:", $source.title)</attribute>
          </entityMapping>
        """)))

  func findings(in context: LintContext) -> [Diagnostic] {
    var result: [Diagnostic] = []
    let builtins = KnownFunctions.entityPolicy
    for m in context.mappings {
      guard let policy = m.element.policy?.value, !policy.isEmpty else { continue }
      let type = PolicyRegistry.lookup(policy)
      for text in m.texts {
        guard case .success(let e) = ExpressionParsing.parseExpression(text.text) else { continue }
        ExpressionWalk.each(e) { x in
          guard case .selector(let target, let selector, _) = x.kind, case .variable("entityPolicy") = target.kind,
            builtins[selector] == nil
          else { return }
          let at = x.span.isSynthesized ? context.start(of: text) : text.location(ofOffset: x.span.start)
          if let type {
            let known = type.selectors
            guard !known.contains(selector) else { return }
            let list =
              known.isEmpty
              ? "it declares no selectors (class var selectors)"
              : "it declares \(known.sorted().joined(separator: ", "))"
            result.append(
              Self.rule.finding(
                "policy \(policy) does not implement \(selector) (\(list)), and no built-in policy function has that name\(suggestion(selector, known + Array(builtins.keys))): the migration stops with \"unrecognized selector sent to instance\"",
                at: at))
          } else {
            result.append(
              Diagnostic(
                .note, id: Self.rule.id,
                "cannot check \(selector): policy \(policy) is not registered in this mapc; lint with your app's executable, which registers its policies, to check it",
                at: at))
          }
        }
      }
    }
    return result
  }
}
