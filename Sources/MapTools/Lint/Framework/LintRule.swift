import Foundation
import MapCompiler
import MapModelReader
import MapRuntime
import MapSyntax

/// One entry of the lint rule catalogue (`Specs/lint-rules.md`, `mapc lint --explain RULE`):
/// a stable id, a severity, a one-line title, a one-paragraph explanation, how to silence it,
/// and a bad and a good example. The examples are complete inputs: the tests lint each of them
/// and expect exactly the findings the bad one marks, and none for the good one.
public struct LintRule: Sendable, Hashable {
  /// Who reports the finding: the compiler (also reported by `mapc compile`) or the linter.
  public enum Origin: String, Sendable, Hashable {
    case compiler, lint
  }

  public var id: String
  public var severity: Diagnostic.Severity
  public var title: String
  public var explanation: String
  /// Where the finding points, so where a suppression comment goes.
  public var suppression: String
  public var origin: Origin
  public var bad: LintExample
  public var good: LintExample

  public init(
    id: String, severity: Diagnostic.Severity, title: String, explanation: String, suppression: String,
    origin: Origin = .lint, bad: LintExample, good: LintExample
  ) {
    self.id = id
    self.severity = severity
    self.title = title
    self.explanation = explanation
    self.suppression = suppression
    self.origin = origin
    self.bad = bad
    self.good = good
  }
}

/// A complete example for a rule: the entities of a source and a destination model, a mapping
/// file that names them as `Source.xcdatamodel` and `Destination.xcdatamodel`, and optionally a
/// baseline file (`example.lint-baseline.json`). In `mapping` and `baseline`, the character
/// `‸` marks where each finding of the rule is reported; it is not part of the file.
public struct LintExample: Sendable, Hashable {
  public static let marker: Character = "‸"
  public static let mappingFileName = "example.xml"
  public static let xcodeMappingFileName = "xcmapping.xml"

  /// True when the example's mapping is an Xcode mapping model (`<database>` root).
  public var isXcodeMapping: Bool { mapping.contains("<database>") }
  /// The name of the file the example's findings point into.
  public var fileName: String { isXcodeMapping ? Self.xcodeMappingFileName : Self.mappingFileName }
  public static let baselineFileName = "example.lint-baseline.json"

  /// `<entity>` elements of the source model, in Xcode's `contents` format.
  public var sourceEntities: String
  /// `<entity>` elements of the destination model.
  public var destinationEntities: String
  /// The mapping file, with markers. A mapping whose root is `<database>` is an Xcode mapping
  /// model: it is written as `example.xcmappingmodel/xcmapping.xml`, with `SOURCE_SNAPSHOT` and
  /// `DESTINATION_SNAPSHOT` replaced by the base64 `XDPMModel` snapshots of `snapshotEntities`
  /// (source, destination; the models' own entities when nil).
  public var mapping: String
  /// The entities of the models the Xcode mapping model was made for, when they differ from the
  /// model files (a model edited since): `[source, destination]`.
  public var snapshotEntities: [String]? = nil
  /// A baseline file to lint the example with, with markers.
  public var baseline: String?

  public init(
    source: String, destination: String, mapping: String, baseline: String? = nil, snapshotEntities: [String]? = nil
  ) {
    self.snapshotEntities = snapshotEntities
    self.sourceEntities = source
    self.destinationEntities = destination
    self.mapping = mapping
    self.baseline = baseline
  }

  /// The mapping file as written to disk: without markers.
  public var mappingText: String { mapping.filter { $0 != Self.marker } }
  public var baselineText: String? { baseline.map { $0.filter { $0 != Self.marker } } }

  /// Line and column (Unicode scalars, 1-based) of each marker in the mapping, as the file
  /// without markers numbers them.
  public var expectedMappingPositions: [(line: Int, column: Int)] { Self.positions(in: mapping) }
  public var expectedBaselinePositions: [(line: Int, column: Int)] { baseline.map { Self.positions(in: $0) } ?? [] }

  static func positions(in text: String) -> [(line: Int, column: Int)] {
    var result: [(line: Int, column: Int)] = []
    var line = 1
    var column = 1
    for c in text.unicodeScalars {
      if Character(c) == marker {
        result.append((line, column))
      } else if c == "\n" {
        line += 1
        column = 1
      } else {
        column += 1
      }
    }
    return result
  }

  /// A model `contents` file holding `entities`.
  public static func modelContents(_ entities: String, identifier: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="21513" systemVersion="22D68" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="\(identifier)">
    \(entities)
    </model>

    """
  }

  /// Writes the example into `folder` (which must exist): `Source.xcdatamodel/contents`,
  /// `Destination.xcdatamodel/contents`, `example.xml` and, when there is one, the baseline.
  /// Returns the mapping file's path.
  @discardableResult
  public func write(to folder: String) throws -> String {
    let fm = FileManager.default
    for (name, entities, id) in [("Source", sourceEntities, "1"), ("Destination", destinationEntities, "2")] {
      let dir = folder + "/\(name).xcdatamodel"
      try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
      try AtomicFileWriter.replaceContents(of: dir + "/contents", with: Self.modelContents(entities, identifier: id))
    }
    var mappingPath = folder + "/" + Self.mappingFileName
    if isXcodeMapping {
      let wrapper = folder + "/example.xcmappingmodel"
      try fm.createDirectory(atPath: wrapper, withIntermediateDirectories: true)
      mappingPath = wrapper + "/" + Self.xcodeMappingFileName
      var text = mappingText
      let snapshots = snapshotEntities ?? [sourceEntities, destinationEntities]
      // `ARCHIVED_EXPRESSION<<text>>`: the expression archived as Xcode archives value expressions.
      while let start = text.range(of: "ARCHIVED_EXPRESSION<<"),
        let end = text.range(of: ">>", range: start.upperBound..<text.endIndex)
      {
        guard case .success(let e) = ExpressionParsing.parseExpression(String(text[start.upperBound..<end.lowerBound]))
        else {
          break
        }
        text.replaceSubrange(
          start.lowerBound..<end.upperBound, with: Data(ExpressionArchiveWriter.archive(e)).base64EncodedString())
      }
      for (placeholder, entities) in zip(["SOURCE_SNAPSHOT", "DESTINATION_SNAPSHOT"], snapshots) {
        let xml = try XMLReader.parse(
          bytes: Array(Self.modelContents(entities, identifier: "").utf8), path: placeholder)
        let model = try ModelLoader.load(document: xml, versionName: nil).model
        text = text.replacingOccurrences(
          of: placeholder, with: Data(ModelSnapshotWriter.write(model)).base64EncodedString())
      }
      try AtomicFileWriter.replaceContents(of: mappingPath, with: text)
    } else {
      try AtomicFileWriter.replaceContents(of: mappingPath, with: mappingText)
    }
    if let b = baselineText {
      try AtomicFileWriter.replaceContents(of: folder + "/" + Self.baselineFileName, with: b)
    }
    return mappingPath
  }
}
