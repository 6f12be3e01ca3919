import MapRuntime

extension ExpressionEvaluator {
  /// `value` as JSON text (`ValueJSON.render`), for `mapc eval`.
  package func json(_ value: Value) -> String { ValueJSON.render(plain(value)) }
}
