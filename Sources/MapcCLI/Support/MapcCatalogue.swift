import MapCompiler
import MapJSONText
import MapModelReader
import MapRuntime
import MapSQLite
import MapSwiftSchema
import MapSyntax
import MapTools

/// Every diagnostic family of every module, in the order `Specs/diagnostics.md` §3 lists them:
/// the catalogue the spec is generated from (DiagnosticCatalogueTests). No command prints it.
public enum MapcCatalogue {
  public static let families: [DiagnosticCatalogue.Family] = [
    RuntimeCatalogue.file,
    SyntaxCatalogue.xml,
    ModelCatalogue.model,
    SyntaxCatalogue.expr,
    SwiftSchemaCatalogue.swift,
    CompilerCatalogue.mapping,
    CompilerCatalogue.xcodeMapping,
    RuntimeCatalogue.plan,
    RuntimeCatalogue.io,
    ToolsCatalogue.lock,
    CommandCatalogue.diagram,
    ToolsCatalogue.test,
    CommandCatalogue.usage,
    JSONTextCatalogue.json,
    RuntimeCatalogue.store,
    SQLiteCatalogue.sqlite,
    SQLiteCatalogue.check,
    ToolsCatalogue.infer,
    ToolsCatalogue.stages,
    RuntimeCatalogue.run,
  ]

  /// Every id of every family.
  public static let ids: Set<String> = Set(families.flatMap { $0.entries.map(\.id) })

  /// The Markdown of `Specs/diagnostics.md` §3's tables.
  public static var specSection: String { DiagnosticCatalogue.specSection(families) }
}
