import Crypto
import Foundation

/// The built-in `$entityPolicy` library: functions every mapping can call as
/// `FUNCTION($entityPolicy, "selector:", …)`. A mapping's own policy is asked first.
/// Each function is documented with an example in `Specs/functions.md`.
package enum BuiltinPolicyFunctions {
  /// Selector → number of arguments.
  package static let arity: [String: Int] = [
    "dateFromString:format:": 2,
    "dateFromString:format:timeZone:": 3,
    "stringFromDate:format:": 2,
    "stringFromDate:format:timeZone:": 3,
    "numberFromString:": 1,
    "stringFromNumber:": 1,
    "uuid": 0,
    "split:by:": 2,
    "join:with:": 2,
    "trim:": 1,
    "replace:with:in:": 3,
    "defaultValue:for:": 2,
  ]

  static func call(
    _ selector: String, _ args: [Value], frame: Frame, manager m: MigrationContext
  ) throws(MigrationError) -> Value? {
    func text(_ i: Int) throws(MigrationError) -> String? {
      switch args[i] {
      case .null: return nil
      case .string(let t): return m.string(t)
      default:
        throw MigrationError(
          "run-type-mismatch", "\(selector) argument \(i + 1) must be a string, got \(m.describe(args[i]))")
      }
    }
    switch selector {
    case "dateFromString:format:", "dateFromString:format:timeZone:":
      guard let format = try text(1) else { return .null }
      let pattern = try datePattern(format, m)
      let zone = selector.hasSuffix("timeZone:") ? try zoneOffset(try text(2), m) : 0
      return try date(args[0], pattern, zoneOffset: zone, selector: selector, m)
    case "stringFromDate:format:", "stringFromDate:format:timeZone:":
      guard case .date(let t) = args[0] else {
        if args[0].isNull { return .null }
        throw MigrationError("run-type-mismatch", "\(selector) argument 1 must be a date, got \(m.describe(args[0]))")
      }
      guard let format = try text(1) else { return .null }
      let zone = selector.hasSuffix("timeZone:") ? try zoneOffset(try text(2), m) : 0
      return .string(.native(try datePattern(format, m).format(t, zoneOffset: zone)))
    case "numberFromString:":
      guard let s = try text(0) else { return .null }
      return NumberText.parseNumber(s.trimmingCharacters(in: .whitespaces)) ?? .null
    case "stringFromNumber:":
      switch args[0] {
      case .null: return .null
      case .int(let i): return .string(.native(String(i)))
      case .bool(let b): return .string(.native(b ? "1" : "0"))
      case .double(let d): return .string(.native(NumberText.decimalText(d)))
      case .decimal(let s): return .string(.native(s))
      default:
        throw MigrationError("run-type-mismatch", "stringFromNumber: needs a number, got \(m.describe(args[0]))")
      }
    case "uuid":
      return .string(.native(deterministicUUID(frame: frame, manager: m)))
    case "split:by:":
      guard let s = try text(0), let sep = try text(1) else { return .null }
      guard !sep.isEmpty else { return .array([.string(.native(s))]) }
      return .array(s.components(separatedBy: sep).map { .string(.native($0)) })
    case "join:with:":
      guard let sep = try text(1) else { return .null }
      if args[0].isNull { return .null }
      var parts: [String] = []
      for x in try m.elements(args[0]) {
        switch x {
        case .null: continue
        case .string(let t): parts.append(m.string(t))
        case .int(let i): parts.append(String(i))
        case .double(let d): parts.append(NumberText.decimalText(d))
        default:
          throw MigrationError(
            "run-type-mismatch", "join:with: can only join strings and numbers, got \(m.describe(x))")
        }
      }
      let size = parts.reduce(0) { $0 + $1.utf8.count } + max(parts.count - 1, 0) * sep.utf8.count
      try checkBuiltSize(size, selector)
      return .string(.native(parts.joined(separator: sep)))
    case "trim:":
      guard let s = try text(0) else { return .null }
      return .string(.native(s.trimmingCharacters(in: .whitespacesAndNewlines)))
    case "replace:with:in:":
      guard let target = try text(0), let replacement = try text(1), let s = try text(2) else { return .null }
      guard !target.isEmpty else { return .string(.native(s)) }
      let growth = replacement.utf8.count - target.utf8.count
      if growth > 0 && s.utf8.count + s.utf8.count / target.utf8.count * growth > Limits.valueBytes {
        // The bound may be far too high: count the occurrences before building anything.
        let hay = Array(s.utf8)
        let needle = Array(target.utf8)
        var occurrences = 0
        var i = 0
        while i + needle.count <= hay.count {
          if hay[i] == needle[0] && hay[i..<(i + needle.count)].elementsEqual(needle) {
            occurrences += 1
            i += needle.count
          } else {
            i += 1
          }
        }
        try checkBuiltSize(s.utf8.count + occurrences * growth, selector)
      }
      return .string(.native(s.replacingOccurrences(of: target, with: replacement)))
    case "defaultValue:for:":
      return args[1].isNull ? args[0] : args[1]
    default:
      return nil
    }
  }

  /// `run-value-too-large` when a string of `bytes` UTF-8 bytes would pass `Limits.valueBytes`
  /// (checked before it is built: nested calls multiply sizes, so 1 KB of text could otherwise
  /// ask for gigabytes).
  static func checkBuiltSize(_ bytes: Int, _ selector: String) throws(MigrationError) {
    guard bytes > Limits.valueBytes else { return }
    throw MigrationError(
      "run-value-too-large",
      "\(selector) would build a string of \(ByteCount.text(bytes)), more than the \(ByteCount.text(Limits.valueBytes)) a value may hold"
    )
  }

  /// `"UTC"`, `"GMT"`, `"+02:00"`, `"-0530"`, `"GMT+2"`: seconds east of UTC.
  static func zoneOffset(_ name: String?, _ m: MigrationContext) throws(MigrationError) -> Int {
    guard let name, !name.isEmpty else { return 0 }
    if name == "UTC" || name == "GMT" || name == "Z" { return 0 }
    var s = Substring(name)
    if s.hasPrefix("UTC") || s.hasPrefix("GMT") { s = s.dropFirst(3) }
    guard let sign = s.first, sign == "+" || sign == "-" else {
      throw MigrationError(
        "run-time-zone", "time zone \"\(name)\" is not supported: use UTC or an offset such as +02:00")
    }
    let digits = s.dropFirst().filter { $0 != ":" }
    guard (1...4).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let v = Int(digits)
    else {
      throw MigrationError("run-time-zone", "time zone \"\(name)\" is not a valid offset")
    }
    let (hours, minutes) = digits.count <= 2 ? (v, 0) : (v / 100, v % 100)
    guard hours <= 18, minutes < 60 else {
      throw MigrationError("run-time-zone", "time zone \"\(name)\" is not a valid offset (at most ±18:00)")
    }
    let seconds = hours * 3600 + minutes * 60
    return sign == "-" ? -seconds : seconds
  }

  /// A UUID that depends only on the plan, the mapping, the destination object and the property,
  /// so that running the same plan over the same store gives the same UUIDs.
  static func deterministicUUID(frame: Frame, manager m: MigrationContext) -> String {
    var text = "mapc-uuid\u{0}\(m.plan.name)\u{0}\(m.plan.entityMappings[frame.mapping].name)"
    if case .destinationObject(let d) = frame.destination { text += "\u{0}\(m.destinationID(d))" }
    if case .sourceObject(let s) = frame.source { text += "\u{0}\(m.sourceID(s))" }
    text += "\u{0}\(m.propertyName(frame) ?? (frame.propertyIndex >= 0 ? "#\(frame.propertyIndex)" : ""))"
    if case .int(let i) = frame.index { text += "\u{0}\(i)" }
    var bytes = Array(SHA256.hash(data: Array(text.utf8)).prefix(16))
    bytes[6] = (bytes[6] & 0x0F) | 0x50  // version 5 (name-based)
    bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
    let hex = bytes.map { b -> String in
      let s = String(b, radix: 16, uppercase: true)
      return s.count == 1 ? "0" + s : s
    }.joined()
    let h = Array(hex)
    return String(h[0..<8]) + "-" + String(h[8..<12]) + "-" + String(h[12..<16]) + "-"
      + String(h[16..<20]) + "-" + String(h[20..<32])
  }
}

extension BuiltinPolicyFunctions {
  /// Compiled date patterns, cached by pattern text in the run's state.
  static func datePattern(_ format: String, _ m: MigrationContext) throws(MigrationError) -> DatePattern {
    if let p = m.state.datePatterns[format] { return p }
    switch DatePattern.compile(format) {
    case .success(let p):
      m.state.datePatterns[format] = p
      return p
    case .failure(let e):
      throw MigrationError("run-date-pattern", e.message)
    }
  }

  /// A deterministic pseudo-random number in [0, 1) (SplitMix64 seeded from the plan name).
  static func nextRandom(_ m: MigrationContext) -> Double {
    m.state.randomState &+= 0x9E37_79B9_7F4A_7C15
    var z = m.state.randomState
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return Double(z >> 11) / Double(1 << 53)
  }
}

extension BuiltinPolicyFunctions {
  /// `dateFromString:format:`'s result for a value: nil for nil or a string the pattern does not
  /// match, an error for anything but a string.
  static func date(
    _ v: Value, _ pattern: DatePattern, zoneOffset zone: Int, selector: String, _ m: MigrationContext
  ) throws(MigrationError) -> Value {
    switch v {
    case .null: return .null
    case .string(.slice(let s)) where !s.hasEscapes:
      guard let input = m.source.input else { return .null }
      return pattern.parse(bytes: input.buffer(s), zoneOffset: zone).map(Value.date) ?? .null
    case .string(let t):
      return pattern.parse(Array(m.string(t).utf8), zoneOffset: zone).map(Value.date) ?? .null
    default:
      throw MigrationError("run-type-mismatch", "\(selector) argument 1 must be a string, got \(m.describe(v))")
    }
  }
}
