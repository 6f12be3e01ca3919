import MapRuntime

extension ModelValueParser {
  /// A default value as the model loader reads `defaultValueString`: the type's value, else a
  /// numeric default read leniently (`lenientNumber`), else nil. Readers of other forms of a
  /// model (the snapshots in mapping models) use it so that a model reads alike from either.
  package static func loadedDefaultValue(_ text: String, for type: AttributeType) -> ModelConstant? {
    defaultValue(text, for: type) ?? lenientNumber(text, for: type)?.value
  }

  /// A numeric default as Foundation reads text that is not a number (`NSString`'s
  /// `integerValue`/`doubleValue`): leading white space, an optional sign and the longest
  /// run of digits (and, for Double and Float, one fraction), else 0. Nil for types that are
  /// not numbers, and for a whole integer that is only out of the type's range (an error:
  /// it is a number, and mapc cannot hold it as the type).
  static func lenientNumber(_ text: String, for type: AttributeType) -> (value: ModelConstant, text: String)? {
    if type.integerRange != nil, Int64(text.trimmingXMLSpace) != nil || Double(text.trimmingXMLSpace) != nil {
      return nil
    }
    let bytes = Array(text.utf8.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
    var i = 0
    var sign = ""
    if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
      if bytes[i] == UInt8(ascii: "-") { sign = "-" }
      i += 1
    }
    let isDigit = { (b: UInt8) in b >= 0x30 && b <= 0x39 }
    let digits = String(decoding: bytes[i...].prefix(while: isDigit), as: UTF8.self)
    switch type {
    case .integer16, .integer32, .integer64:
      let range = type.integerRange!
      let magnitude = digits.isEmpty ? "0" : digits
      let v = Int64(sign + magnitude) ?? (sign == "-" ? range.lowerBound : range.upperBound)
      let clamped = min(max(v, range.lowerBound), range.upperBound)
      return (.integer(clamped), String(clamped))
    case .double, .float:
      var rest = bytes[(i + digits.utf8.count)...]
      var fraction = ""
      if rest.first == UInt8(ascii: ".") {
        rest = rest.dropFirst()
        fraction = String(decoding: rest.prefix(while: isDigit), as: UTF8.self)
      }
      let v = Double(sign + (digits.isEmpty ? "0" : digits) + (fraction.isEmpty ? "" : "." + fraction)) ?? 0
      return (.double(v), "\(v)")
    default:
      return nil
    }
  }
}
