/// A typed constant taken from a model: an attribute's default value or a validation bound.
///
/// Dates are seconds since 2001-01-01T00:00:00Z (Core Data's reference date). Decimals keep
/// their exact text. For String attributes, `minValue`/`maxValue` bounds are lengths (`.integer`).
public enum ModelConstant: Sendable, Hashable, Codable {
  case integer(Int64)
  case double(Double)
  case decimal(String)
  case boolean(Bool)
  case string(String)
  case date(Double)
  case binary([UInt8])
}
