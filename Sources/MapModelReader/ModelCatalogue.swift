// The diagnostic ids of MapModelReader: data models.
// Each id with what it reports, listed here only; `Specs/diagnostics.md` §3 is generated from
// every module's (MapcCatalogue, in MapcCLI).
import MapRuntime

/// The diagnostic families MapModelReader reports (ids are stable: once published, an id keeps
/// its meaning).
public enum ModelCatalogue {
  public static let model = DiagnosticCatalogue.Family(
    "`model-*`: data models (`Specs/model-input.md`)",
    [
      ("model-path", "the model path does not exist or is not a data model"),
      ("model-xcode3-format", "an Xcode 3 binary model (not supported)"),
      ("model-version-not-found", "the requested version is not in the bundle"),
      ("model-current-version", "the bundle's current version cannot be determined"),
      (
        "model-version-order",
        "a declared version order (`.mapc-version-order`, `--version-order`) that does not list every version once"
      ),
      ("model-root", "the `contents` root is not `<model>`"),
      ("model-missing-attribute", "an element lacks a required attribute (`name`, `attributeType`, …)"),
      ("model-unknown-attribute-type", "an `attributeType` Core Data does not have"),
      (
        "model-untyped-attribute",
        "a non-transient attribute without `attributeType` (or of type `Undefined`): only transient ones may be untyped"
      ),
      ("model-unknown-delete-rule", "a `deletionRule` Core Data does not have"),
      (
        "model-composite",
        "a Composite attribute without elements, with two elements of one name, naming an undefined `<composite>`, or nested too deep"
      ),
      ("model-invalid-number", "a count or number attribute that is not an integer"),
      ("model-invalid-default", "a default value that does not fit the attribute's type"),
      (
        "model-lenient-default",
        "(warning) a numeric default that is not a number (apptentive's `\"YES\"` for an Integer 32): Xcode compiles it, mapc uses the value Foundation's `NSString` `integerValue`/`doubleValue` gives"
      ),
      ("model-invalid-bound", "a minimum or maximum that does not fit the type, or a maximum below the minimum"),
      ("model-invalid-count", "a relationship's minCount/maxCount that are not a valid range"),
      ("model-to-one-max-count", "a to-one relationship whose maxCount is not 1"),
      ("model-duplicate-entity", "two entities with the same name"),
      ("model-too-many-entities", "a model with more than 65,535 entities (the most a plan may hold)"),
      ("model-duplicate-property", "an entity declaring a property name twice"),
      ("model-unknown-entity", "a parent, destination or inverse entity that the model does not define"),
      ("model-inheritance-cycle", "an entity that inherits from itself"),
      ("model-inheritance-too-deep", "an entity with more than 256 levels of ancestors (Specs/limits.md)"),
      ("model-unknown-inverse", "an inverse relationship that does not exist"),
      ("model-inverse-mismatch", "an inverse on another entity than the destination, or inverses that disagree"),
      ("model-missing-inverse", "a relationship without an inverse (warning)"),
      ("model-unknown-property", "a uniqueness constraint or compound index naming no property"),
      (
        "model-unwritable",
        "a model whose names or values hold a character XML 1.0 cannot hold (NUL, ESC, another C0 control): it cannot be written as a `contents` file (`store model`, `model`)"
      ),
    ])
}
