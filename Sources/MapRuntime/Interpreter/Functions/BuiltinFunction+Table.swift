import Foundation

/// The table of built-in functions: Apple's list in `NSExpression(forFunction:arguments:)`
/// (statistics, arithmetic, math, string, random, date, bitwise, location, cast and index
/// functions), plus `canonical:` (private in Foundation, seen in real models) and `random:`
/// (mapc's spelling of `randomn:`). Examples' results follow Apple's documented semantics:
/// integers stay integers (`divide:by:(7, 2)` is 3), `stddev:` is the population deviation.
extension BuiltinFunction {
  package static let all: [BuiltinFunction] = [
    // Statistics over a collection (nil elements skipped, except by count:).
    .init(
      "sum:", [.collection], .arithmetic, "sum of the elements; integer when all are integers",
      example: "sum:({1, 2, 3})", "6"
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.sum(m.elements(a[0]), m) },
    .init("count:", [.collection], .integer, "number of elements", example: "count:({1, 2, 3})", "3") {
      (a, m) throws(MigrationError) -> Value in .int(Int64(try m.elements(a[0]).count))
    },
    .init(
      "min:", [.collection], .element, "smallest element (numbers, strings or dates); nil for none",
      example: "min:({3, 1, 2})", "1"
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.minimum(m.elements(a[0]), m) },
    .init(
      "max:", [.collection], .element, "largest element (numbers, strings or dates); nil for none",
      example: "max:({3, 1, 2})", "3"
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.maximum(m.elements(a[0]), m) },
    .init(
      "average:", [.collection], .double, "arithmetic mean; nil for none",
      example: "average:({1, 2, 3, 4})", "2.5"
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.average(m.elements(a[0]), m) },
    .init(
      "median:", [.collection], .double, "middle value, the mean of the two middle ones for an even count",
      example: "median:({1, 2, 3, 4})", "2.5"
    ) { (a, m) throws(MigrationError) -> Value in
      try Builtins.statistic("median:", m.elements(a[0]), m, Builtins.median)
    },
    .init(
      "mode:", [.collection], .collection, "the most frequent values, in first-seen order",
      example: "mode:({1, 2, 2, 3, 3})", "[2,3]"
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.statistic("mode:", m.elements(a[0]), m, Builtins.mode) },
    .init(
      "stddev:", [.collection], .double, "population standard deviation",
      example: "stddev:({1, 2, 3, 4, 4, 5, 9, 11})", "3.2185982973959333"
    ) { (a, m) throws(MigrationError) -> Value in
      try Builtins.statistic("stddev:", m.elements(a[0]), m, Builtins.standardDeviation)
    },
    // Basic arithmetic.
    .init(
      "add:to:", [.numberOrDate, .numberOrDate], .arithmetic, nilGivesNil: false,
      "a + b (a date plus seconds is a date)",
      example: "add:to:(2, 3)", "5"
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.arithmetic(.add, a[0], a[1], m) },
    .init(
      "from:subtract:", [.numberOrDate, .numberOrDate], .arithmetic, nilGivesNil: false,
      "a - b (date - seconds is a date, date - date is seconds)", example: "from:subtract:(10, 4)", "6"
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.arithmetic(.subtract, a[0], a[1], m) },
    .init(
      "multiply:by:", [.number, .number], .arithmetic, nilGivesNil: false, "a × b", example: "multiply:by:(6, 7)", "42"
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.arithmetic(.multiply, a[0], a[1], m) },
    .init(
      "divide:by:", [.number, .number], .arithmetic, nilGivesNil: false,
      "a ÷ b; two integers divide as integers, truncating (÷0 of integers is an error)",
      example: "divide:by:(7, 2)", "3"
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.divide(a, m) },
    .init(
      "modulus:by:", [.number, .number], .arithmetic, nilGivesNil: false,
      "remainder with the sign of a (fmod for doubles; integer ÷0 is an error)",
      example: "modulus:by:(7, 3)", "1"
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.modulus(a, m) },
    .init("abs:", [.number], .arithmetic, "absolute value", example: "abs:(-4)", "4") {
      (a, m) throws(MigrationError) -> Value in try Builtins.absolute(a, m)
    },
    // Advanced arithmetic.
    .init("sqrt:", [.number], .double, "square root", example: "sqrt:(16)", "4") {
      (a, m) throws(MigrationError) -> Value in try Builtins.double("sqrt:", a, m) { sqrt($0) }
    },
    .init("log:", [.number], .double, "base-10 logarithm", example: "log:(1000)", "3") {
      (a, m) throws(MigrationError) -> Value in try Builtins.double("log:", a, m) { log10($0) }
    },
    .init("ln:", [.number], .double, "natural logarithm", example: "ln:(1)", "0") {
      (a, m) throws(MigrationError) -> Value in try Builtins.double("ln:", a, m) { log($0) }
    },
    .init(
      "raise:toPower:", [.number, .number], .double, nilGivesNil: false, "a to the power b",
      example: "raise:toPower:(2, 10)",
      "1024"
    ) { (a, m) throws(MigrationError) -> Value in
      if a[0].isNull || a[1].isNull { throw Builtins.nilOperand("raise:toPower:", a[0], a[1], m) }
      guard let x = try Builtins.number("raise:toPower:", a, 0, m),
        let y = try Builtins.number("raise:toPower:", a, 1, m)
      else { return .null }
      return .double(pow(x, y))
    },
    .init("exp:", [.number], .double, "e to the power a", example: "exp:(0)", "1") {
      (a, m) throws(MigrationError) -> Value in try Builtins.double("exp:", a, m) { exp($0) }
    },
    // Bounding.
    .init("ceiling:", [.number], .double, "smallest integral value not less than a", example: "ceiling:(1.5)", "2") {
      (a, m) throws(MigrationError) -> Value in try Builtins.double("ceiling:", a, m) { ceil($0) }
    },
    .init("floor:", [.number], .double, "largest integral value not greater than a", example: "floor:(-1.5)", "-2") {
      (a, m) throws(MigrationError) -> Value in try Builtins.double("floor:", a, m) { floor($0) }
    },
    .init("trunc:", [.number], .double, "a rounded toward zero", example: "trunc:(-1.5)", "-1") {
      (a, m) throws(MigrationError) -> Value in try Builtins.double("trunc:", a, m) { trunc($0) }
    },
    // Strings.
    .init(
      "uppercase:", [.string], .string, "upper case (full Unicode: straße → STRASSE)",
      example: "uppercase:(\"abc\")", "\"ABC\""
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.text("uppercase:", a, m) { $0.uppercased() } },
    .init("lowercase:", [.string], .string, "lower case", example: "lowercase:(\"ABC\")", "\"abc\"") {
      (a, m) throws(MigrationError) -> Value in try Builtins.text("lowercase:", a, m) { $0.lowercased() }
    },
    .init(
      "canonical:", [.string], .string, "folded for case and diacritics (private in Foundation)",
      example: "canonical:(\"Café\")", "\"cafe\""
    ) { (a, m) throws(MigrationError) -> Value in
      try Builtins.text("canonical:", a, m) {
        $0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
      }
    },
    .init(
      "length:", [.stringOrCollection], .integer, "a string's UTF-16 length; a collection's count",
      example: "length:(\"🎸a\")", "3"
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.length(a, m) },
    // Random numbers (deterministic in mapc: SplitMix64 from a fixed seed).
    .init("random", [], .double, "a number in [0, 1)", example: "floor:(random())", "0") {
      (a, m) throws(MigrationError) -> Value in .double(BuiltinPolicyFunctions.nextRandom(m))
    },
    .init(
      "randomn:", [.integer], .integer, "an integer in [0, n); nil for n ≤ 0", example: "randomn:(1)", "0"
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.random("randomn:", a, m) },
    .init("random:", [.integer], .integer, "as randomn:", example: "random:(1)", "0") {
      (a, m) throws(MigrationError) -> Value in try Builtins.random("random:", a, m)
    },
    // Dates.
    .init(
      "now", [], .date, "the current date (mapc run: the run's fixed time)",
      example: "TERNARY(now() > CAST(0, \"NSDate\"), \"later\", \"earlier\")", "\"later\""
    ) { (a, m) throws(MigrationError) -> Value in .date(m.options.now) },
    // Bitwise, on integers.
    .init(
      "bitwiseAnd:with:", [.integer, .integer], .integer, "a and b, bit by bit", example: "bitwiseAnd:with:(6, 3)", "2"
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.integers("bitwiseAnd:with:", a, m) { $0 & $1 } },
    .init(
      "bitwiseOr:with:", [.integer, .integer], .integer, "a or b, bit by bit", example: "bitwiseOr:with:(6, 3)", "7"
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.integers("bitwiseOr:with:", a, m) { $0 | $1 } },
    .init(
      "bitwiseXor:with:", [.integer, .integer], .integer, "a exclusive-or b, bit by bit",
      example: "bitwiseXor:with:(6, 3)", "5"
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.integers("bitwiseXor:with:", a, m) { $0 ^ $1 } },
    .init("leftshift:by:", [.integer, .integer], .integer, "a << b", example: "leftshift:by:(1, 4)", "16") {
      (a, m) throws(MigrationError) -> Value in try Builtins.integers("leftshift:by:", a, m) { $0 << $1 }
    },
    .init("rightshift:by:", [.integer, .integer], .integer, "a >> b", example: "rightshift:by:(16, 2)", "4") {
      (a, m) throws(MigrationError) -> Value in try Builtins.integers("rightshift:by:", a, m) { $0 >> $1 }
    },
    .init("onesComplement:", [.integer], .integer, "~a", example: "onesComplement:(0)", "-1") {
      (a, m) throws(MigrationError) -> Value in
      try Builtins.integer("onesComplement:", a, 0, m).map { .int(~$0) } ?? .null
    },
    // Other.
    .init(
      "noindex:", [.any], .argument, "its argument (an index hint for stores)", example: "noindex:(\"a\")", "\"a\""
    ) { (a, m) throws(MigrationError) -> Value in a[0] },
    .init(
      "distanceToLocation:fromLocation:", [.location, .location], .double,
      "great-circle distance in meters (haversine, mean Earth radius 6,371,008.8 m); a location is an object with latitude and longitude, or {latitude, longitude}",
      example: "floor:(distanceToLocation:fromLocation:({0, 0}, {0, 1}) / 1000)", "111"
    ) { (a, m) throws(MigrationError) -> Value in try Geodesy.distance(a[0], a[1], m) },
    .init(
      "castObject:toType:", [.any, .className], .cast, "CAST(a, type) (§4)",
      example: "castObject:toType:(\"42\", \"NSNumber\")", "42"
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.cast(a, m) },
    .init(
      "objectFrom:withIndex:", [.collection, .any], .element,
      "a[index]: an element by position from 0 (nil out of range), or a dictionary entry",
      example: "objectFrom:withIndex:({\"a\", \"b\"}, 1)", "\"b\""
    ) { (a, m) throws(MigrationError) -> Value in try Builtins.element(of: a[0], at: a[1], m) },
  ]
}
