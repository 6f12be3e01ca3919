import Foundation

/// One built-in function of `NSExpression(forFunction:arguments:)`: what the parser accepts,
/// what the type checker assumes, what `Specs/functions.md` §3 lists, and what a call does (the
/// linker binds each call to its row's `implementation` once). The table is
/// `BuiltinFunction.all` (in `BuiltinFunction+Table.swift`); a test keeps the spec equal to it.
package struct BuiltinFunction: Sendable, Hashable {
  /// What an argument must be. A nil argument is allowed everywhere (see `nilGivesNil`).
  package enum Operand: String, Sendable, Hashable {
    /// An integer, double, decimal or Boolean.
    case number
    /// A number (or, for `add:to:` and `from:subtract:`, a date).
    case numberOrDate = "number or date"
    /// An integer (integral doubles and Booleans are accepted).
    case integer
    case string
    /// A collection; a single value counts as a one-element collection.
    case collection
    /// A string or a collection.
    case stringOrCollection = "string or collection"
    /// A location: an object with `latitude` and `longitude` in degrees.
    case location
    /// A class name string (`"NSDate"`, …).
    case className = "class name"
    /// Anything.
    case any
  }

  /// What the function gives.
  package enum Result: String, Sendable, Hashable {
    /// An integer when every argument is an integer and the result fits, else a double
    /// (a date for date ± seconds).
    case arithmetic = "integer or double"
    case integer
    case double
    case string
    case date
    /// A collection of the argument's elements.
    case collection
    /// One of the argument's elements (or nil).
    case element
    /// The argument itself.
    case argument
    /// Depends on the class name.
    case cast = "the class named"
  }

  /// The name with its colons: `add:to:`, `now`.
  package let name: String
  package let arguments: [Operand]
  package let result: Result
  /// True when a nil argument gives nil (otherwise `nilNote` says what happens).
  package let nilGivesNil: Bool
  /// What the function does, for the spec.
  package let summary: String
  /// An example call in the language, and its result as `mapc eval` prints it (from Apple's
  /// documentation where it states one).
  package let example: String
  package let exampleResult: String

  /// What a call does, given one value per argument and the run.
  typealias Implementation = @Sendable ([Value], MigrationContext) throws(MigrationError) -> Value
  let implementation: Implementation

  package var arity: Int { arguments.count }

  init(
    _ name: String, _ arguments: [Operand], _ result: Result, nilGivesNil: Bool = true,
    _ summary: String, example: String, _ exampleResult: String, _ implementation: @escaping Implementation
  ) {
    self.name = name
    self.arguments = arguments
    self.result = result
    self.nilGivesNil = nilGivesNil
    self.summary = summary
    self.example = example
    self.exampleResult = exampleResult
    self.implementation = implementation
  }

  /// Rows are told apart by name (a name is in the table once).
  package static func == (a: BuiltinFunction, b: BuiltinFunction) -> Bool { a.name == b.name }
  package func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// Every built-in function, by name.
  package static let byName: [String: BuiltinFunction] = Dictionary(
    all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

  /// The function named `name`, or nil.
  package static func named(_ name: String) -> BuiltinFunction? { byName[name] }

  /// The Markdown table of `Specs/functions.md` §3, generated from `all`.
  package static var specTable: String {
    var out = "| function | arguments | result | nil argument | what it does | example | gives |\n"
    out += "|---|---|---|---|---|---|---|\n"
    for f in all {
      let args = f.arguments.isEmpty ? "none" : f.arguments.map(\.rawValue).joined(separator: ", ")
      let cells = [
        "`\(f.name)`", args, f.result.rawValue, f.nilGivesNil ? "nil" : "see text", f.summary,
        "`\(f.example)`", "`\(f.exampleResult)`",
      ]
      out += "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
    }
    return out
  }
}

extension ExpressionSyntax {
  /// Built-in functions of the `name:(args)` syntax (`BuiltinFunction.all`). Each takes exactly
  /// as many arguments as its name has colons (`now` and `random` take none).
  package static let builtinFunctions: Set<String> = Set(BuiltinFunction.all.map(\.name))
}
