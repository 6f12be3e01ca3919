import MapRuntime
import MapSyntax

/// A lint rule's code: finds its problems in one mapping file.
protocol LintCheck: Sendable {
  static var rule: LintRule { get }
  func findings(in context: LintContext) -> [Diagnostic]
}

extension LintRule {
  /// A finding of this rule at its default severity.
  func finding(_ message: String, at location: SourceLocation?, file: String? = nil, notes: [Diagnostic.Note] = [])
    -> Diagnostic
  {
    Diagnostic(severity, id: id, message, at: location, file: file, notes: notes)
  }
}

/// The wrapper every example mapping uses: `body` goes between the model references and
/// `</mappingModel>`.
func exampleMapping(_ body: String, models: String? = nil) -> String {
  """
  <?xml version="1.0" encoding="UTF-8"?>
  <mappingModel name="Example" formatVersion="1">
  \(models ?? "  <sourceModel path=\"Source.xcdatamodel\"/>\n  <destinationModel path=\"Destination.xcdatamodel\"/>")
  \(body)
  </mappingModel>

  """
}
