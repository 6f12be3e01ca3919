import MapRuntime
import MapSyntax

/// Prints a derived attribute's `derivationExpression` the way NSExpression's `description`
/// does, which is what Core Data hashes for derived attributes (reference notes §3.6).
///
/// The text is parsed with the expression parser and printed with the canonical printer, after
/// one rewrite NSExpression makes when it reads a derivation: a key path with a collection
/// operator becomes the matching function over the key path without it (`oneToMany.@count`
/// prints as `count:(oneToMany)`, `items.@sum.price` as `sum:(items.price)`). Text that does
/// not parse is hashed as written, trimmed; the model checker reports it separately.
enum DerivationExpressionFormatter {
  static func printedForm(_ text: String) -> String {
    guard case .success(let expression) = ExpressionParsing.parseExpression(text) else {
      return text.trimmedXMLSpace
    }
    return rewritingCollectionOperators(expression).description
  }

  /// NSExpression's function names for the key-path collection operators it rewrites.
  static let collectionFunctions = [
    "@count": "count:", "@sum": "sum:", "@avg": "average:", "@min": "min:", "@max": "max:",
  ]

  static func rewritingCollectionOperators(_ e: Expression) -> Expression {
    let r = rewritingCollectionOperators
    switch e.kind {
    case .keyPath(let base, let components):
      let newBase = r(base)
      if let i = components.firstIndex(where: { collectionFunctions[$0] != nil }) {
        let function = collectionFunctions[components[i]]!
        let path = Array(components[..<i]) + Array(components[(i + 1)...])
        let argument = path.isEmpty ? newBase : Expression(.keyPath(base: newBase, components: path))
        return Expression(.function(name: function, arguments: [argument]))
      }
      return Expression(.keyPath(base: newBase, components: components))
    case .function(let name, let arguments):
      return Expression(.function(name: name, arguments: arguments.map(r)))
    case .selector(let target, let selector, let arguments):
      return Expression(.selector(target: r(target), selector: selector, arguments: arguments.map(r)))
    case .aggregate(let items):
      return Expression(.aggregate(items.map(r)))
    case .index(let base, let sub):
      return Expression(.index(base: r(base), sub))
    case .cast(let value, let type):
      return Expression(.cast(value: r(value), type: type))
    default:
      return e
    }
  }
}
