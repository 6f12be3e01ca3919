import MapRuntime

/// A model default value written as an expression literal, for inferred mappings that keep a
/// mandatory attribute's default where the source value is nil.
enum DefaultLiteral {
  /// Nil when there is no default or it has no literal form (binary data).
  static func text(_ value: ModelConstant?) -> String? {
    switch value {
    case nil, .binary: return nil
    case .integer(let v): return String(v)
    case .double(let v): return v.isFinite ? "\(v)" : nil
    case .decimal(let v): return v
    case .boolean(let v): return v ? "YES" : "NO"
    case .string(let v): return quoted(v)
    case .date(let v): return "CAST(\(v), \"NSDate\")"
    }
  }

  /// A string literal as the expression printer writes it.
  static func quoted(_ s: String) -> String { MapRuntime.Expression.string(s).description }
}
