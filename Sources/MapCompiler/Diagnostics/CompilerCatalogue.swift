// The diagnostic ids of MapCompiler: XML, models, expressions, mappings, Xcode mapping models, locks, fixtures, inference and chains, stages.
// Each id with what it reports, listed here only; `Specs/diagnostics.md` §3 is generated from
// every module's (MapcCatalogue, in MapcCLI).
import MapRuntime

/// The diagnostic families MapCompiler reports (ids are stable: once published, an id keeps
/// its meaning).
public enum CompilerCatalogue {
  public static let xml = DiagnosticCatalogue.Family(
    "`xml-*`: XML well-formedness and safety (`Specs/model-input.md` §5)",
    [
      ("xml-empty", "the file is empty or holds only white space (text that is not XML is `xml-syntax`)"),
      ("xml-syntax", "the document is not well-formed XML (libxml2's message, at its position)"),
      ("xml-invalid-utf8", "a byte that is not valid UTF-8"),
      ("xml-unsupported-encoding", "a UTF-16 (or other non-UTF-8) file"),
      ("xml-entity-declaration", "a DTD entity declaration (refused: nothing is expanded or loaded)"),
      (
        "xml-too-many-attributes",
        "an element with more than 256 attributes (Specs/limits.md), refused before libxml2 parses"
      ),
      ("xml-undefined-entity", "a reference to an entity other than the five predefined ones"),
      ("xml-internal", "internal error: a parsed node could not be located in the file"),
    ])

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

  public static let expr = DiagnosticCatalogue.Family(
    "`expr-*`: expression and predicate syntax (`Specs/expressions.md`)",
    [
      ("expr-empty", "the text is empty or only white space"),
      ("expr-syntax", "a token the grammar does not allow there"),
      ("expr-trailing-input", "text after a complete expression or predicate"),
      ("expr-unexpected-character", "a character that starts no token"),
      ("expr-unterminated-string", "a string literal without its closing quote"),
      ("expr-bad-escape", "an invalid backslash escape or a lone surrogate"),
      ("expr-bad-number", "a malformed or out-of-range numeric literal"),
      ("expr-reserved-word", "a reserved word where a key is expected (write `#word`)"),
      ("expr-unknown-keyword", "an unknown `@operator` or comparison option"),
      ("expr-unknown-function", "a `name:(…)` function that is not built in"),
      ("expr-arity", "a selector or function called with a number of arguments other than its colon count"),
      ("expr-function-selector", "`FUNCTION`'s second argument is not a string literal selector"),
      ("expr-cast-type", "`CAST`'s second argument is not a string literal type name"),
      ("expr-format-argument", "`%@`, `%K` or another format argument"),
      ("expr-too-deep", "nesting deeper than the parser's limit"),
      ("expr-too-long", "text longer than the parser's limit"),
    ])

  public static let mapping = DiagnosticCatalogue.Family(
    "`map-*`: mapping files (`Specs/mapping-xml.md`, §11 lists where each points)",
    [
      ("map-root", "the root element is not `<mappingModel>`"),
      ("map-format-version", "`formatVersion` missing or not `1`"),
      ("map-unknown-element", "an element not allowed in its parent"),
      ("map-unknown-xml-attribute", "an XML attribute not allowed on its element"),
      ("map-missing-attribute", "a required XML attribute is missing"),
      ("map-duplicate-element", "an element that may appear once appears twice"),
      ("map-unexpected-text", "text inside an element that holds only elements"),
      ("map-unexpected-element", "an element inside an expression element"),
      ("map-missing-model", "no source or destination model is named or given"),
      ("map-pinned-hash-mismatch", "a pinned model or entity hash differs from the loaded model"),
      ("map-unknown-entity", "an entity the model does not have (mapping or fetch request)"),
      ("map-unknown-type", "an entity mapping type that is not one of Core Data's"),
      ("map-type-entities", "source/destination entities that do not fit the mapping type"),
      ("map-copy-hash-mismatch", "a copy mapping between entities with different version hashes"),
      ("map-abstract-destination", "an abstract destination entity"),
      ("map-duplicate-mapping", "two entity mappings with the same name"),
      ("map-source-and-filter", "both `<sourceExpression>` and `<filter>`"),
      (
        "map-source-expression",
        "a source expression that does not yield the source entity's objects, or one in a mapping without a source"
      ),
      ("map-foreach-without-destination", "`<forEach>` in a mapping without a destination entity"),
      ("map-property-without-destination", "a property mapping in a mapping without a destination entity"),
      ("map-unknown-attribute", "a destination attribute that does not exist (or is a relationship)"),
      ("map-unknown-relationship", "a destination relationship that does not exist (or is an attribute)"),
      ("map-derived-attribute", "a derived attribute given a value"),
      ("map-transient-attribute", "a transient attribute given a value (warning: it is not stored)"),
      ("map-duplicate-property", "a property mapped twice"),
      ("map-empty-expression", "an expression element with no expression"),
      (
        "map-unknown-key",
        "a key the object (entity and ancestors) or value does not have, or an unknown collection operator"
      ),
      ("map-unknown-variable", "a variable other than the mapping variables"),
      ("map-item-outside-foreach", "`$item` or `$index` in a mapping without `<forEach>`"),
      ("map-source-without-source", "`$source` in a mapping without a source entity (warning: it is nil)"),
      ("map-unknown-selector", "a `FUNCTION` selector that neither the target nor a policy implements"),
      (
        "map-unknown-function",
        "a built-in function that does not exist (defensive; the parser reports `expr-unknown-function`)"
      ),
      ("map-function-arity", "a built-in function with the wrong number of arguments (defensive; see `expr-arity`)"),
      ("map-selector-arity", "a selector whose colons and arguments differ (defensive; see `expr-arity`)"),
      ("map-fetch-literal", "a fetch request's entity name or predicate that is not a string literal"),
      ("map-fetch-context", "a FETCH in the context of the other side"),
      ("map-date-format", "a literal date format the runtime does not support"),
      ("map-cast", "a `CAST` to NSDate of a non-number (error), or to a class mapc does not convert to (warning)"),
      ("map-regex", "an invalid regular expression in `MATCHES`"),
      ("map-type-mismatch", "a value whose type does not fit where it is used"),
      ("map-relationship-source-objects", "source objects assigned to a relationship"),
      ("map-relationship-entity", "objects of an entity the relationship does not hold"),
      ("map-relationship-type", "values that are not objects assigned to a relationship"),
      ("map-to-many-into-to-one", "a value that can hold several objects assigned to a to-one relationship"),
      ("map-unknown-mapping", "a mapping name that does not exist, or names a mapping without a destination"),
      ("map-mapping-destination-mismatch", "a mapping whose destination entity the relationship does not hold"),
      ("map-source-instances-entity", "source instances the named mapping does not map (warning: nothing is found)"),
    ])

  public static let xcodeMapping = DiagnosticCatalogue.Family(
    "`xcmap-*`: Xcode mapping models (`Specs/xcmappingmodel.md`)",
    [
      ("xcmap-root", "an `xcmapping.xml` whose root element is not `<database>`"),
      (
        "xcmap-object",
        "an `<object>`, `<attribute>` or `<relationship>` without its required XML attributes, or a property mapping without a name"
      ),
      ("xcmap-duplicate-id", "two objects with the same id"),
      ("xcmap-dangling-reference", "an `idrefs` entry that names no object of the file, or one of another type"),
      (
        "xcmap-bad-value",
        "a value that does not fit its declared type (`bool`, `int16`), a field of the wrong type, a to-one naming several objects"
      ),
      ("xcmap-base64", "a binary value that is not valid base64 (truncated or damaged)"),
      ("xcmap-no-mapping-model", "no `XDDEVMAPPINGMODEL` object, or more than one"),
      ("xcmap-duplicate-property", "one entity mapping mapping a property twice"),
      (
        "xcmap-archive",
        "an archived value expression or user-info dictionary that cannot be read (the reason names the archive object)"
      ),
      ("xcmap-snapshot", "an embedded model snapshot that cannot be read"),
      ("xcmap-missing-model", "a side with neither a model file nor a snapshot"),
      (
        "xcmap-model-drift",
        "a model file in which an entity a listed entity mapping names has another version hash than in the mapping model's snapshot (\"Mismatch between mapping and source/destination models\" on the device), naming each such entity mapping and its side, with what changed"
      ),
      (
        "xcmap-export-unsupported",
        "`mapc export` of a `<forEach>` or of a source expression other than the default fetch"
      ),
      (
        "xcmap-export-device-function",
        "`mapc export` of a mapping that calls a function of mapc's library, which Core Data on the device lacks, without `--policy-source` (each call named, with Core Data's own form where there is one)"
      ),
      ("xcmap-unknown-element", "an element Xcode does not write there (warning; ignored)"),
      ("xcmap-unknown-object", "an object type outside Xcode's mapping schema (warning; ignored)"),
      (
        "xcmap-unknown-field",
        "an attribute or relationship outside its object type's schema, or an unknown `mappingtypename` (warning; ignored)"
      ),
      (
        "xcmap-custom-source-fetch",
        "`autogenerateexpression` 0 on an entity mapping (warning; the default fetch is used)"
      ),
      (
        "xcmap-incomplete-relationship",
        "a relationship mapping with a key path but no mapping name (warning; the default is used)"
      ),
    ])

  public static let lock = DiagnosticCatalogue.Family(
    "`lock-*`: model locks (`mapc lock`, `mapc lint --lock`; `Specs/model-lock.md`)",
    [
      ("lock-invalid", "a lock file that cannot be read or is not a mapc model lock"),
      (
        "lock-version-changed",
        "a locked (shipped) version hashes differently now: names the entity and the properties added, removed or changed"
      ),
      ("lock-version-removed", "a locked (shipped) version is no longer in the bundle"),
      ("lock-version-not-shipped", "note: a version of the bundle that the lock does not hold yet"),
    ])

  public static let test = DiagnosticCatalogue.Family(
    "`test-*`: fixture files of `mapc test` (`Specs/test-fixtures.md`)",
    [
      (
        "test-fixture-invalid",
        "a `fixture.json` that is not JSON or not in the format (unknown key, no cases, a case with both or neither of `expected` and `exitCode`)"
      ),
      (
        "test-junit-invalid",
        "`--merge-junit`: a report that is not one `mapc test` wrote, or a case two reports hold (overlapping shards)"
      ),
    ])

  public static let infer = DiagnosticCatalogue.Family(
    "`infer-*`, `chain-*`, `migrate-*`: inferred mappings and `mapc migrate` (`Specs/migrate.md`)",
    [
      ("infer-type-change", "an attribute changes type other than between numbers and Booleans"),
      (
        "infer-mandatory-without-default",
        "a value becomes (or is new and) mandatory with no default; a new mandatory to-one, or to-many with a minimum"
      ),
      ("infer-to-many-into-to-one", "a to-many relationship becomes to-one"),
      ("infer-relationship", "a relationship's destination entity has no or another counterpart"),
      ("infer-duplicate-renaming-id", "two destination entities share a renaming identifier"),
      (
        "infer-ambiguous-match",
        "a renaming identifier designates several source elements, or two entities take one source entity"
      ),
      ("infer-merged-hierarchy", "entities without a common parent in the source share one in the destination"),
      ("infer-abstract-destination", "a concrete source entity's counterpart is abstract"),
      ("chain-duplicate-mapping", "two mappings cover the same step"),
      ("chain-step-uncovered", "a step no mapping covers and inference cannot"),
      (
        "chain-step-irreversible",
        "a step back that has no reverse mapping and cannot be inferred (its forward step is a mapping's, or not inferable)"
      ),
      ("chain-step-reversible", "a step mapc migrate can take back without loss (lint --reverse, a note)"),
      ("chain-reverse-drops-data", "what taking a step back drops, named (lint --reverse, a note)"),
      ("chain-unreachable-version", "versions whose stores cannot reach the current version (lint)"),
      ("chain-mapping-cycle", "a mapping from a later version to an earlier one other than the one before it (lint)"),
      ("chain-mapping-skips", "a mapping that skips versions (lint, warning)"),
      ("chain-mapping-unmatched", "a mapping whose hashes match no version of the bundle (lint)"),
      (
        "chain-mapping-never-runs",
        "a mapping for a step between versions of equal hashes, which Core Data never runs (lint, warning)"
      ),
      (
        "chain-renaming-identifier-unmatched",
        "a renaming identifier that names nothing in the version before (lint, warning)"
      ),
      (
        "infer-renaming-identifier-unmatched",
        "a renaming identifier naming nothing in the source; matched by name instead (warning)"
      ),
      ("chain-mappings", "the mappings folder cannot be searched"),
      (
        "chain-step-drops-data",
        "an inferred step that drops entities, attributes or relationships (no store needed: from the plan; lint, warning)"
      ),
      (
        "chain-version-unchanged",
        "a version with the same entity version hashes as the one before it: Core Data does not see it as new, a forgotten versionHashModifier (lint, warning)"
      ),
      (
        "chain-identical-versions",
        "two versions, not consecutive, with the same entity version hashes: their stores cannot be told apart (lint, warning)"
      ),
      (
        "chain-step-unknown-policy",
        "a step whose mapping names a policy class this executable does not have registered: shown by `mapc migrate --plan` and `mapc lint` of a bundle, which go on; a run refuses the step with `run-unknown-policy` (warning)"
      ),
      (
        "migrate-unknown-version",
        "the store records no hashes, or they match no version (names the closest and the differing entities)"
      ),
      (
        "migrate-resume-untrusted",
        "an intermediate store of an interrupted run whose bytes differ from the digest recorded when it was written (warning; the chain starts over from the store)"
      ),
      (
        "migrate-data-loss",
        "a step (`mapc migrate`) or plan (`mapc run`) would drop objects, values or links the store holds, without `--allow-data-loss`, `--allow-drop` or a `remove` entity mapping"
      ),
      (
        "migrate-manifest-invalid",
        "`migrate --stores`: a manifest line that is not JSON or not in the format, or whose output resolves outside the manifest's folder (names the line and column)"
      ),
    ])

  public static let stages = DiagnosticCatalogue.Family(
    "`stages-*`: `mapc export --stages`, staged migrations for the device (`Specs/staged-migration.md`)",
    [
      (
        "stages-mapping-step",
        "a step a mapping model covers: a staged migration never runs mapping models or migration policies (names the step and the way out)"
      ),
      (
        "stages-step-not-inferable",
        "a step Core Data cannot infer (the `infer-*` errors say why): no stage can take it (names the step and the way out)"
      ),
      (
        "stages-unknown-version",
        "`--custom` or `--to` names no version of the bundle, or a version no step leads to"
      ),
      (
        "stages-direct-inference",
        "a version Core Data could not infer straight to the end of its lightweight stage without losing what the steps keep: a custom stage without handlers makes the store stop after it (note)"
      ),
    ])
}
