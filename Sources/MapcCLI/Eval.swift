import ArgumentParser
import Foundation
import MapJSON
import MapRuntime
import MapSyntax

extension MapcCommand {
  struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Evaluate one NSExpression or NSPredicate format string and print the result as JSON.",
      discussion: """
        Tries an expression before it goes into a mapping. --object is SELF (a JSON object's \
        members are its keys; arrays are collections; {"$date": "2001-01-01T00:00:00Z"} is a \
        date, {"$set": [...]} a set, {"$real": "NaN"} a NaN), --variables binds $names. A predicate \
        prints true or false; with --filter, --object is an array and the elements for which \
        the predicate holds are printed. --canonical prints the format as Apple's \
        predicateFormat / description writes it, as a JSON string. FORMAT - reads the format \
        from standard input. now() is SOURCE_DATE_EPOCH (Unix seconds) when set, else the \
        current time. Exit status: 0 on success, 1 when the format does not parse or its \
        evaluation fails (position and reason on standard error), 64 on a usage error.
        """)

    @Flag(help: "FORMAT is a predicate (prints true or false).")
    var predicate = false

    @Flag(help: "FORMAT is an expression (prints its value).")
    var expression = false

    @Argument(
      help: "The format string, such as \"name BEGINSWITH[c] 'a'\" or \"sum:({1, 2})\"; - reads it from standard input."
    )
    var format: String

    // `.unconditional`: the value may start with `-` (`--object -5`).
    @Option(parsing: .unconditional, help: "SELF, as JSON (default null).")
    var object: String?

    @Option(parsing: .unconditional, help: "A JSON object whose members are the $variables.")
    var variables: String?

    @Flag(help: "With --predicate: --object is an array; print the elements for which the predicate holds.")
    var filter = false

    @Flag(help: "Print the canonical format of FORMAT instead of its value.")
    var canonical = false

    @OptionGroup var regexBudgetOption: RegexBudgetOption

    func validate() throws {
      if predicate == expression {
        throw ValidationError("give exactly one of --predicate and --expression")
      }
      if filter && !predicate {
        throw ValidationError("--filter needs --predicate")
      }
      if filter && canonical {
        throw ValidationError("--filter and --canonical cannot be combined")
      }
    }

    func run() throws {
      regexBudgetOption.apply()
      let text =
        format == "-" ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) : format
      let self_ = try Self.json(object, option: "--object") ?? .null
      var bound: [String: Value] = [:]
      if let given = try Self.json(variables, option: "--variables") {
        guard case .dictionary(let pairs) = given else {
          throw ValidationError("--variables must be a JSON object, such as {\"x\": 1}")
        }
        for (name, value) in pairs { bound[name] = value }
      }
      let evaluator = ExpressionEvaluator(variables: bound, now: Self.now())
      do {
        if predicate {
          let parsed = try parse(text) { t throws(ExpressionSyntaxError) in try ExpressionParser.parsePredicate(t) }
          if canonical { return printJSONString(parsed.description, evaluator) }
          if filter {
            guard case .array = self_ else { throw ValidationError("--filter needs an array as --object") }
            print(evaluator.json(.array(try evaluator.filter(self_, by: parsed, text: text))))
          } else {
            print(try evaluator.evaluate(parsed, object: self_, text: text) ? "true" : "false")
          }
        } else {
          let parsed = try parse(text) { t throws(ExpressionSyntaxError) in try ExpressionParser.parseExpression(t) }
          if canonical { return printJSONString(parsed.description, evaluator) }
          print(evaluator.json(try evaluator.value(of: parsed, object: self_, text: text)))
        }
      } catch let error as MigrationError {
        throw Console.failure(error)
      }
    }

    private func printJSONString(_ text: String, _ evaluator: ExpressionEvaluator) {
      print(evaluator.json(.string(.native(text))))
    }

    /// Parses with `body`; a syntax error is printed at its line and column of the format, exit 1.
    private func parse<T>(_ text: String, _ body: (String) throws(ExpressionSyntaxError) -> T) throws -> T {
      do {
        return try body(text)
      } catch {
        let place = ExpressionSource(text: text, location: SourceLocation(file: "<format>", line: 1, column: 1))
        Console.report([error.diagnostic { place.location(ofOffset: $0) }])
        throw ExitCode(.inputErrors)
      }
    }

    private static func json(_ text: String?, option: String) throws -> Value? {
      guard let text else { return nil }
      do {
        return try ValueJSON.parseTagged(text)
      } catch let error as ValueJSON.TaggedFormError {
        throw ValidationError("\(option): \(error)")
      } catch {
        throw ValidationError("\(option) is not JSON: \(error)")
      }
    }

    /// `SOURCE_DATE_EPOCH` (Unix seconds) when set, else the current time; in seconds since 2001.
    private static func now() -> Double {
      if let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let seconds = Double(epoch) {
        return seconds - 978_307_200
      }
      return Date().timeIntervalSinceReferenceDate
    }
  }
}
