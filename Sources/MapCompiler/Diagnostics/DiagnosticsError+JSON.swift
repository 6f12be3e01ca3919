import MapJSONText

extension DiagnosticsError {
  /// A settings file that is not JSON: the diagnostic `id` at the offending byte, with the
  /// scanner's message (how a reader of `fixture.json`, a lock or a manifest reports it).
  package init(_ error: JSONDocument.SyntaxError, id: String) {
    self.init([.error(id, error.message, at: error.location, file: error.location.file)])
  }
}
