/// `CAST(value, "Class")`.
enum Casts {
  static let supported: Set<String> = ["NSDate", "NSNumber", "NSString", "NSDecimalNumber"]

  static func cast(_ v: Value, to type: String, _ m: MigrationContext) throws(MigrationError) -> Value {
    if v.isNull { return .null }
    switch type {
    case "NSDate":
      switch v {
      case .date: return v
      case .int, .double, .decimal, .bool:
        return .date(m.number(v) ?? 0)  // seconds since 2001-01-01T00:00:00Z
      default: break
      }
    case "NSNumber":
      switch v {
      case .int, .double, .bool: return v
      case .decimal(let s): return NumberText.parseNumber(s) ?? .null
      case .date(let t): return .double(t)
      case .string(let t): return NumberText.parseNumber(m.string(t)) ?? .null
      default: break
      }
    case "NSDecimalNumber":
      switch v {
      case .decimal: return v
      case .int(let i): return .decimal(String(i))
      case .double(let d): return .decimal(NumberText.decimalText(d))
      case .string(let t):
        let s = m.string(t)
        return NumberText.parseNumber(s) == nil ? .null : .decimal(s)
      default: break
      }
    case "NSString":
      switch v {
      case .string: return v
      case .int(let i): return .string(.native(String(i)))
      case .double(let d): return .string(.native(NumberText.shortest(d)))
      case .decimal(let s): return .string(.native(s))
      case .bool(let b): return .string(.native(b ? "1" : "0"))
      case .date(let t): return .string(.native(ISO8601.format(t)))
      default: break
      }
    default:
      return v
    }
    throw MigrationError("run-cast", "cannot CAST \(m.describe(v)) to \(type)")
  }
}

/// Methods callable on values with `FUNCTION(value, "selector", …)`.
enum ObjectMethods {
  static let arity: [String: Int] = [
    "valueForKey:": 1, "valueForKeyPath:": 1, "stringByAppendingString:": 1, "uppercaseString": 0,
    "lowercaseString": 0, "capitalizedString": 0, "length": 0, "description": 0, "self": 0,
    "count": 0, "stringValue": 0, "intValue": 0, "integerValue": 0, "doubleValue": 0, "boolValue": 0,
    "hasPrefix:": 1, "hasSuffix:": 1, "componentsSeparatedByString:": 1,
  ]

  static func call(_ receiver: Value, _ selector: String, _ args: [Value], _ m: MigrationContext) throws(MigrationError)
    -> Value
  {
    if receiver.isNull { return .null }
    if arity[selector] == nil, args.isEmpty, !selector.contains(":"), let v = try property(receiver, selector, m) {
      return v
    }
    guard let n = arity[selector] else {
      // Foundation would send the message to the object; projects add such methods to
      // NSNumber or NSString with categories, which have no counterpart here.
      let call =
        selector.contains(":")
        ? "a selector with one more argument, the value first"
        : "FUNCTION($entityPolicy, \"\(selector):\", value)"
      throw MigrationError(
        "run-unknown-selector",
        "\(m.describe(receiver)) has no method \(selector) (the methods mapc calls on values: "
          + arity.keys.sorted().joined(separator: ", ") + "); "
          + "a custom policy can provide it as a policy function that takes the value as its first "
          + "argument, called as \(call)")
    }
    guard n == args.count else {
      throw MigrationError("run-arity", "\(selector) takes \(n) argument(s), given \(args.count)")
    }
    func text(_ v: Value) throws(MigrationError) -> String {
      guard case .string(let t) = v else {
        throw MigrationError("run-type-mismatch", "\(selector) needs a string, got \(m.describe(v))")
      }
      return m.string(t)
    }
    switch selector {
    case "valueForKey:": return try KeyValueCoding(m).value(of: receiver, key: try text(args[0]))
    case "valueForKeyPath:":
      return try KeyValueCoding(m).value(
        of: receiver, path: ArraySlice(try text(args[0]).split(separator: ".").map(String.init)))
    case "stringByAppendingString:": return .string(.native(try text(receiver) + (try text(args[0]))))
    case "hasPrefix:": return .bool(try text(receiver).hasPrefix(try text(args[0])))
    case "hasSuffix:": return .bool(try text(receiver).hasSuffix(try text(args[0])))
    case "componentsSeparatedByString:":
      let sep = try text(args[0])
      guard !sep.isEmpty else { return .array([receiver]) }
      return .array(try text(receiver).components(separatedBy: sep).map { .string(.native($0)) })
    case "count": return .int(Int64(try m.elements(receiver).count))
    default: return try KeyValueCoding(m).value(of: receiver, key: selector)
    }
  }

  /// `FUNCTION(object, "name")` calls the object's getter, as Foundation sends the message: the
  /// property of a store object, or the member of a JSON object; nil when it has none.
  private static func property(_ receiver: Value, _ name: String, _ m: MigrationContext) throws(MigrationError)
    -> Value?
  {
    switch receiver {
    case .sourceObject, .destinationObject: return try KeyValueCoding(m).value(of: receiver, key: name)
    case .dictionary(let pairs): return pairs.first { $0.0 == name }?.1
    default: return nil
    }
  }
}
