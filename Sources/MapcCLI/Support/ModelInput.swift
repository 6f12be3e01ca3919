import Foundation
import MapModelReader
import MapRuntime
import MapSwiftSchema
import MapcKit
import MapSyntax
import MapTools

/// The one place the commands read a model given as `--model` (or as a model argument), through
/// MapcKit's `ModelSource`: an Xcode model or a SwiftData schema in Swift source, whose notes
/// and warnings are printed here.
enum ModelInput {
  /// Whether `path` names Swift source.
  static func isSwiftSource(_ path: String) -> Bool { ModelSource.isSwiftSource(path) }

  /// Every version of the model at `path` in chain order (a bundle's, or a Swift schema's).
  static func versions(_ path: String, order: [String]? = nil) throws(DiagnosticsError) -> ModelVersions {
    try versions(ModelArgument([path]), order: order)
  }

  /// Every version of the model `model` names (one path, or several Swift paths read together).
  static func versions(_ model: ModelArgument, order: [String]? = nil) throws(DiagnosticsError) -> ModelVersions {
    try model.source.versions(order: order, messages: print)
  }

  /// One model: a version of a bundle (its current one by default), an `.xcdatamodel`, or a
  /// version of a Swift schema (its current one by default).
  static func load(_ path: String, version: String?) throws(DiagnosticsError) -> LoadedModel {
    try load(ModelArgument([path]), version: version)
  }

  /// One model of `model` (one path, or several Swift paths read together).
  static func load(_ model: ModelArgument, version: String?) throws(DiagnosticsError) -> LoadedModel {
    try model.source.load(version: version, messages: print)
  }

  /// Reads a Swift schema; its warnings and notes are printed, its errors thrown as
  /// diagnostics (after the notes, which tell which classes were read).
  static func swiftSchema(_ model: ModelArgument, name: String) throws(DiagnosticsError) -> SwiftSchema {
    try model.source.swiftSchema(name: name, messages: print)
  }

  /// The model of a version exactly as `mapc model` writes it.
  static func checked(_ version: SwiftSchemaVersion, path: String) throws(DiagnosticsError) -> ObjectModel {
    try ModelSource.checked(version, path: path)
  }

  /// Prints what reading a schema says: its notes as they are, its warnings sorted.
  @Sendable static func print(_ message: ModelSource.Message) {
    switch message {
    case .notes(let lines): Console.sayRendered(lines)
    case .warnings(let warnings): Console.report(warnings)
    }
  }
}
