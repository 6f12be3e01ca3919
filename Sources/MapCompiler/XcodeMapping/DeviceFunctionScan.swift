import MapRuntime
import MapSyntax

/// The calls of an entity mapping that a device's Core Data cannot make
/// (`DeviceFunctions`): mapc's `$entityPolicy` library and the few built-ins Foundation lacks.
/// `mapc export` refuses them or implements them in a generated policy class; `mapc lint`
/// reports them in an `.xcmappingmodel` (`lint-device-unknown-function`).
package struct DeviceFunctionUse: Sendable {
  package enum Kind: Sendable { case builtin, entityPolicy }
  package let kind: Kind
  package let name: String
  /// What to use instead, or how the device gets it.
  package let advice: String
  package let location: SourceLocation

  /// How the call is written: `FUNCTION($entityPolicy, "trim:", …)` or `random:(…)`.
  package var spelling: String {
    kind == .entityPolicy ? "FUNCTION($entityPolicy, \"\(name)\", …)" : "\(name)(…)"
  }
}

package enum DeviceFunctionScan {
  /// Every call in `mapping`'s expressions that the device lacks, in text order, skipping the
  /// selectors `implemented` (those a registered policy of the mapping declares).
  package static func uses(in mapping: EntityMappingElement, implemented: Set<String> = []) -> [DeviceFunctionUse] {
    var texts: [ExpressionText] = []
    if let t = mapping.sourceExpression { texts.append(t) }
    if let t = mapping.filter { texts.append(t) }
    for p in mapping.attributes + mapping.relationships { if let t = p.expression { texts.append(t) } }
    var result: [DeviceFunctionUse] = []
    for text in texts {
      guard case .success(let e) = ExpressionParsing.parseExpression(text.text) else { continue }
      ExpressionWalk.each(e) { x in
        let found: (DeviceFunctionUse.Kind, String, String)?
        switch x.kind {
        case .selector(let target, let selector, _) where target.kind == .variable("entityPolicy"):
          if case .mapc(let advice) = DeviceFunctions.entityPolicy[selector], !implemented.contains(selector) {
            found = (.entityPolicy, selector, advice)
          } else {
            found = nil
          }
        case .function(let name, _):
          if case .mapc(let advice) = DeviceFunctions.builtins[name] {
            found = (.builtin, name, advice)
          } else {
            found = nil
          }
        default: found = nil
        }
        guard let (kind, name, advice) = found else { return }
        let at = x.span.isSynthesized ? text.location : text.location(ofOffset: x.span.start)
        result.append(DeviceFunctionUse(kind: kind, name: name, advice: advice, location: at))
      }
    }
    return result
  }

  /// The selectors the policy `name` declares when it is registered in this mapc.
  package static func declaredSelectors(ofPolicy name: String?) -> Set<String> {
    guard let name, !name.isEmpty, let type = PolicyRegistry.lookup(name) else { return [] }
    return Set(type.selectors)
  }
}
