/// What the runtime can call, for the compiler's and the linter's checks: every name with its
/// number of arguments.
package enum KnownFunctions {
  /// NSExpression built-ins (`name:(args)`, arithmetic).
  package static let builtins: [String: Int] = BuiltinFunction.byName.mapValues(\.arity)
  /// `FUNCTION($manager, …)` selectors.
  package static var manager: [String: Int] { Linker.managerSelectors }
  /// `FUNCTION($entityPolicy, …)` selectors of the built-in policy library.
  package static var entityPolicy: [String: Int] { BuiltinPolicyFunctions.arity }
  /// `FUNCTION(value, …)` selectors on strings, numbers, objects and collections.
  package static var objectMethods: [String: Int] { ObjectMethods.arity }
  /// `CAST(x, "…")` class names.
  package static var castTypes: Set<String> { Casts.supported }
}
