import SwiftIfConfig
import SwiftSyntax

/// The build mapc reads Swift source as (Specs/swiftdata-schema.md §1): an app for an Apple
/// platform with SwiftData, built for release by the newest compiler. `#if` clauses are
/// evaluated against it by swift-syntax's `SwiftIfConfig`.
///
/// Every answer can be changed by name: a compilation condition (`DEBUG`) or a platform
/// condition written as in `#if` (`os(Linux)`, `canImport(UIKit)`, `arch(x86_64)`,
/// `targetEnvironment(simulator)`, `_runtime(_ObjC)`), set with `--define` and cleared with
/// `--undefine`.
public struct SwiftBuildConditions: Sendable, Hashable {
  /// Conditions set or cleared by the caller, by their written form (`DEBUG`, `os(Linux)`).
  public private(set) var overrides: [String: Bool] = [:]

  public init() {}

  /// The platform-condition functions a setting may name.
  static let functions: Set<String> = ["os", "canImport", "arch", "targetEnvironment", "_runtime"]

  /// Sets (`true`) or clears (`false`) a condition written as `NAME` or `function(NAME)`; nil
  /// when the text is neither (the message says what is accepted).
  public mutating func set(_ written: String, to value: Bool) -> String? {
    guard let key = Self.key(written) else {
      return
        "'\(written)' is no condition: give a compilation condition name (DEBUG) or os(NAME), canImport(NAME), arch(NAME), targetEnvironment(NAME), _runtime(NAME)"
    }
    overrides[key] = value
    return nil
  }

  /// The canonical form of a written condition (spaces removed), nil when malformed.
  static func key(_ written: String) -> String? {
    let text = String(written.filter { $0 != " " })
    if isIdentifier(text) { return text }
    guard text.hasSuffix(")"), let open = text.firstIndex(of: "(") else { return nil }
    let function = String(text[..<open])
    let argument = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
    guard functions.contains(function) else { return nil }
    let parts = argument.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard !parts.isEmpty, parts.allSatisfy(isIdentifier), function == "canImport" || parts.count == 1 else {
      return nil
    }
    return "\(function)(\(argument))"
  }

  static func isIdentifier(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
    return text.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
  }

  /// Modules an app for an Apple platform with SwiftData can import.
  static let importable: Set<String> = [
    "SwiftData", "Foundation", "CoreData", "SwiftUI", "Combine", "UIKit", "AppKit", "Observation", "CloudKit",
    "CoreGraphics", "CoreTransferable", "UniformTypeIdentifiers", "Darwin", "ObjectiveC", "OSLog", "os", "Swift",
    "_Concurrency", "Dispatch", "CoreLocation", "MapKit", "PhotosUI", "Charts", "WidgetKit", "AppIntents",
  ]

  /// The defaults (documented in the spec's table), then the caller's settings.
  func answer(_ key: String, default value: Bool) -> Bool { overrides[key] ?? value }
}

extension SwiftBuildConditions: BuildConfiguration {
  public func isCustomConditionSet(name: String) -> Bool { answer(name, default: false) }
  public func hasFeature(name: String) -> Bool { false }
  public func hasAttribute(name: String) -> Bool { true }

  public func canImport(importPath: [(TokenSyntax, String)], version: CanImportVersion) -> Bool {
    let name = importPath.map(\.1).joined(separator: ".")
    let top = importPath.first?.1 ?? ""
    return answer("canImport(\(name))", default: Self.importable.contains(top))
  }

  public func isActiveTargetOS(name: String) -> Bool {
    answer("os(\(name))", default: name == "iOS" || name == "macOS")
  }
  public func isActiveTargetArchitecture(name: String) -> Bool {
    answer("arch(\(name))", default: name == "arm64")
  }
  public func isActiveTargetEnvironment(name: String) -> Bool { answer("targetEnvironment(\(name))", default: false) }
  public func isActiveTargetRuntime(name: String) -> Bool { answer("_runtime(\(name))", default: name == "_ObjC") }
  public func isActiveTargetPointerAuthentication(name: String) -> Bool { false }
  public func isActiveTargetObjectFormat(name: String) -> Bool { name == "MachO" }
  public var targetPointerBitWidth: Int { 64 }
  public var targetAtomicBitWidths: [Int] { [8, 16, 32, 64, 128] }
  public var endianness: Endianness { .little }
  /// Newer than any version a source names: `swift(>=…)` and `compiler(>=…)` hold.
  public var languageVersion: VersionTuple { VersionTuple(999) }
  public var compilerVersion: VersionTuple { VersionTuple(999) }
}
