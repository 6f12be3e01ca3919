import Foundation

/// ICU regular-expression syntax checks (what NSPredicate MATCHES and model regexes use).
enum RegexSyntax {
  static func isValid(_ pattern: String) -> Bool {
    (try? NSRegularExpression(pattern: pattern, options: [])) != nil
  }
}
