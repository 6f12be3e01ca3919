// The diagnostic ids of MapSwiftSchema: SwiftData schemas read from Swift source.
// Each id with what it reports, listed here only; `Specs/diagnostics.md` §3 is generated from
// every module's (MapcCatalogue, in MapcCLI).
import MapRuntime

/// The diagnostic families MapSwiftSchema reports (ids are stable: once published, an id keeps
/// its meaning).
public enum SwiftSchemaCatalogue {
  public static let swift = DiagnosticCatalogue.Family(
    "`swift-*`: SwiftData schemas read from Swift source (`Specs/swiftdata-schema.md`; exit 1)",
    [
      ("swift-syntax", "a Swift file that does not parse (at its first error)"),
      (
        "swift-too-deep",
        "Swift source nested deeper than mapc reads: 100 levels of brackets, generic arguments, `#if` and runs of `try`, `->` …, `#if` 16 deep, a syntax tree 1,000 deep, or structs 32 deep in a composite (Specs/limits.md)"
      ),
      (
        "swift-too-complex",
        "a Swift file that takes more than 2,000,000 steps to read (tokens and syntax nodes; Specs/limits.md)"
      ),
      ("swift-no-model", "no `@Model` class (or no `.swift` file) in the given paths"),
      (
        "swift-unsupported-type",
        "a stored property of a type mapc does not map (a set, a dictionary, a tuple, an enum with associated values, …; §8)"
      ),
      (
        "swift-unknown-type",
        "a stored property of a type neither declared in the given files nor stored by SwiftData"
      ),
      ("swift-untyped-property", "a stored property without a written type whose initial value does not tell it"),
      (
        "swift-attribute-argument",
        "an `@Attribute`, `@Relationship`, `#Unique` or `#Index` argument mapc cannot read (not a literal, an unknown option)"
      ),
      ("swift-unknown-inverse", "`@Relationship(inverse:)` names no relationship leading back"),
      ("swift-duplicate-entity", "two `@Model` classes of one name in one schema version"),
      (
        "swift-schema-version",
        "a `VersionedSchema` without a readable `versionIdentifier` or `models`, or two with one identifier"
      ),
      ("swift-model-outside-schema", "warning: a `@Model` class that no `VersionedSchema` lists (left out)"),
      (
        "swift-container-type",
        "a model container's declaration (`ModelContainer(for:)`, `Schema([...])`) names a type that is no `@Model` class (or `VersionedSchema`) of the given files"
      ),
      ("swift-if-condition", "an `#if` condition that cannot be evaluated (malformed, an unknown function)"),
      (
        "swift-duplicate-file",
        "one Swift file reached twice (two paths, a folder and a file in it, a link; decided by device and inode)"
      ),
      (
        "swift-xcode-project",
        "an Xcode project whose `project.pbxproj` cannot be read, has no such target, or names a file that does not exist"
      ),
    ])
}
