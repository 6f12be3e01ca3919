// The catalogue of diagnostic ids: the one place each id and what it reports are listed.
// `Specs/diagnostics.md` §3 is generated from it (DiagnosticCatalogueTests).

extension DiagnosticCatalogue {
  /// Every family, in the order the spec lists them.
  public static let families: [Family] = [
    Family(
      "`file-*`: reading input files (`XMLReader`)",
      [
        ("file-not-found", "the file does not exist"),
        ("file-unreadable", "the path is a directory, or the file cannot be read"),
      ]),
    Family(
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
      ]),
    Family(
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
      ]),
    Family(
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
      ]),
    Family(
      "`swift-*`: SwiftData schemas read from Swift source (`Specs/swiftdata-schema.md`; exit 1)",
      [
        ("swift-syntax", "a Swift file that does not parse (at its first error)"),
        (
          "swift-too-deep",
          "Swift source nested deeper than mapc reads: 100 levels of brackets, generic arguments, `#if` and runs of `try`, `->` …, `#if` 16 deep, or a syntax tree 1,000 deep (Specs/limits.md)"
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
      ]),
    Family(
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
      ]),
    Family(
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
      ]),
    Family(
      "`plan-*`: reading a plan (`Specs/plan-format.md`)",
      [
        ("plan-unreadable", "the plan file cannot be read"),
        ("plan-bad-magic", "not a mapc plan"),
        ("plan-unsupported-version", "a plan format version (or flag) this mapc does not read"),
        ("plan-truncated", "the file ends before its header or body"),
        ("plan-checksum-mismatch", "the body's checksum differs: the plan is damaged"),
        ("plan-malformed", "the checksum holds but the body does not follow the format"),
      ]),
    Family(
      "`io-*`, `limit-*`: files the runtime reads and writes, and their size limits",
      [
        ("io-not-found", "the store (or a folder of its path) does not exist"),
        ("io-is-directory", "the path is a directory"),
        ("io-permission-denied", "no permission (or a read-only file system)"),
        (
          "io-system-error",
          "another operating-system error (a failed write, fsync, rename or folder flush names the call)"
        ),
        (
          "io-not-regular-file",
          "a store, plan or XML file, or an output, that is a device, FIFO or socket (`Specs/limits.md`)"
        ),
        ("limit-input-size", "a file larger than mapc reads, with its size and the limit (`Specs/limits.md`)"),
        (
          "limit-expanded-size",
          "a property list or keyed archive in a file (a store's `Z_METADATA`, a mapping model's user info) that expands to more values or bytes than mapc builds, an object referred to from several places counted at each (`Specs/limits.md`)"
        ),
        ("io-write", "`mapc compile` cannot write the plan"),
        (
          "io-output-is-input",
          "an output path names an input (or another output), lies inside an input folder or holds an input, after resolving links (`Specs/diagnostics.md` §4); exit 64, nothing read or written"
        ),
      ]),
    Family(
      "`lock-*`: model locks (`mapc lock`, `mapc lint --lock`; `Specs/model-lock.md`)",
      [
        ("lock-invalid", "a lock file that cannot be read or is not a mapc model lock"),
        (
          "lock-version-changed",
          "a locked (shipped) version hashes differently now: names the entity and the properties added, removed or changed"
        ),
        ("lock-version-removed", "a locked (shipped) version is no longer in the bundle"),
        ("lock-version-not-shipped", "note: a version of the bundle that the lock does not hold yet"),
      ]),
    Family(
      "`diagram-*`: pictures (`mapc diff`, `mapc dump` with `--format svg` or `html`)",
      [
        ("diagram-dot-missing", "Graphviz's `dot`, which lays out SVG and HTML pictures, is not installed"),
        ("diagram-dot-failed", "`dot` could not be run or failed (its message)"),
      ]),
    Family(
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
      ]),
    Family(
      "`usage-*`: command lines that cannot be run (exit 64)",
      [
        (
          "usage-path-not-found",
          "a mapping file or folder given to `lint` or `migrate --mappings`, or a path given to `test`, does not exist"
        ),
        ("usage-no-fixtures", "`test` was given paths that hold no `fixture.json`"),
        ("usage-lock-without-bundle", "`lint --lock` without a model bundle among the paths"),
        ("usage-no-mapping-files", "`lint` was given folders that hold no mapping file"),
        ("usage-unknown-rule", "`lint --explain` of a rule id that does not exist (the nearest ids are named)"),
        ("usage-baseline", "a `lint --baseline` file that cannot be read or is not a baseline"),
        ("usage-model-output", "`model -o X.xcdatamodel` of a Swift schema with more than one version"),
        (
          "usage-output-outside",
          "`migrate --stores GLOB`: a store whose path has `..`, so that its output would leave the output folder"
        ),
      ]),
    Family(
      "`json-*`: JSON syntax of stores",
      [
        ("json-unexpected-end", "the text ends inside a value"),
        ("json-unexpected-character", "a character that cannot start or continue a value there"),
        ("json-trailing-comma", "a comma before `]` or `}`"),
        ("json-trailing-characters", "text after the top-level value"),
        ("json-unterminated-string", "a string without its closing quote"),
        ("json-control-character", "an unescaped control character in a string"),
        ("json-invalid-utf8", "bytes that are not valid UTF-8"),
        ("json-invalid-escape", "an invalid backslash escape"),
        ("json-lone-surrogate", "a `\\u` escape that is half of a surrogate pair"),
        ("json-invalid-number", "a malformed number"),
        ("json-leading-zero", "a number with a leading zero"),
        ("json-non-finite-number", "a number too large to represent"),
        ("json-invalid-literal", "a misspelt `true`, `false` or `null`"),
        ("json-nesting-too-deep", "arrays and objects nested beyond the limit"),
        ("json-byte-order-mark", "a byte order mark at the start"),
      ]),
    Family(
      "`store-*`: store contents (`Specs/store-format.md`)",
      [
        (
          "store-structure",
          "the top level is not an object with `metadata` and `objects` (or an entity's value is not an array of objects)"
        ),
        ("store-metadata", "malformed `metadata`"),
        ("store-format-version", "a store format version other than 1"),
        ("store-unknown-entity", "an entity the source model does not have"),
        ("store-abstract-entity", "objects of an abstract entity"),
        ("store-missing-id", "an object without `\"id\"`"),
        ("store-id", "an id that is not a string"),
        ("store-duplicate-id", "two objects with the same id"),
        ("store-unknown-property", "a property the entity does not have"),
        ("store-wrong-type", "a value of the wrong JSON type for its property"),
        ("store-not-an-integer", "a non-integral number for an integer attribute"),
        ("store-integer-out-of-range", "an integer outside its attribute type's range"),
        ("store-non-finite-number", "a number that is not finite"),
        ("store-invalid-decimal", "a Decimal that is not a decimal number string"),
        ("store-decimal-out-of-range", "a Decimal outside the representable range"),
        ("store-invalid-date", "a Date that is not an ISO 8601 UTC string"),
        ("store-date-out-of-range", "a Date outside the supported range"),
        ("store-invalid-base64", "Binary data that is not base64"),
        ("store-invalid-uuid", "a UUID that is not a UUID string"),
        ("store-dangling-id", "a relationship naming an id that is not in the store"),
        ("store-wrong-entity", "a relationship naming an object of an entity it cannot hold"),
        ("store-duplicate-reference", "a to-many relationship listing the same id twice"),
        ("store-inverse-mismatch", "the two sides of a relationship disagree"),
        (
          "store-duplicate-key",
          "a key given twice in one object, or a top-level key given twice (JSON readers would keep only the last)"
        ),
        (
          "store-format-unknown",
          "the store's format cannot be told from its first bytes and no `--store-format` was given"
        ),
        (
          "store-no-model-cache",
          "a store without `Z_MODELCACHE` given to a command that needs its model, without `--model`"
        ),
        (
          "store-unknown-version",
          "the store's entity version hashes match no version of the model bundle (`mapc store`: the closest version and the entities that differ)"
        ),
      ]),
    Family(
      "`sqlite-*`: Core Data SQLite stores (`Specs/sqlite-store.md`)",
      [
        ("sqlite-not-a-database", "the file is not an SQLite database, or SQLite cannot open it"),
        ("sqlite-not-core-data", "an SQLite database without Core Data's `Z_METADATA` and `Z_PRIMARYKEY` tables"),
        ("sqlite-unreadable", "a table cannot be read, or the store cannot be copied for reading (SQLite's message)"),
        ("sqlite-metadata", "`Z_METADATA` is not one row holding a binary property list dictionary"),
        (
          "sqlite-model-cache",
          "the `Z_MODELCACHE` row is not a raw DEFLATE stream of a keyed archive of a model mapc can read (what is wrong, where)"
        ),
        ("sqlite-entity-cycle", "`Z_PRIMARYKEY`'s `Z_SUPER` numbers form a cycle"),
        (
          "sqlite-layout",
          "a table, column or row kind the model needs is missing or of another entity (names table and column)"
        ),
        ("sqlite-value", "a column value of a storage class its attribute cannot hold (names table, column, `Z_PK`)"),
        ("sqlite-dangling", "a foreign key or join-table row naming no row of its target table"),
        ("sqlite-write", "the new store cannot be written (SQLite's message)"),
        ("sqlite-replace", "the old store's `-wal` cannot be folded in before it is replaced"),
      ]),
    Family(
      "`check-*`: findings of `mapc store check` and `mapc store repair` (`Specs/store-check.md`)",
      [
        ("check-integrity", "SQLite's `PRAGMA integrity_check` reports the file damaged (its message)"),
        (
          "check-unknown-version",
          "the metadata's entity version hashes match no version of the model (the closest version, entity by entity)"
        ),
        (
          "check-layout-table",
          "a table of the version's layout is missing (error), or a table is not in it (note)"
        ),
        (
          "check-layout-column",
          "a column of the version's layout is missing or of another type (error), or a column is not in it (note)"
        ),
        (
          "check-layout-index",
          "an index of the version's layout is missing or differs (warning), or an index is not in it (note)"
        ),
        (
          "check-primary-key-max",
          "a root entity's `Z_PRIMARYKEY.Z_MAX` is below the largest `Z_PK` of its table, or its row is missing"
        ),
        (
          "check-row-entity",
          "a row whose `Z_ENT` names no entity, an abstract one, or one whose rows are in another table"
        ),
        (
          "check-dangling-to-one",
          "a to-one reference (or the hidden key of a to-many without inverse) naming no row of its destination entity"
        ),
        (
          "check-entity-key",
          "a to-one's entity-key column (`Z<n>_…`) that is not the `Z_ENT` of the row its foreign key names"
        ),
        ("check-dangling-join", "a many-to-many join row either of whose keys names no row of its entity"),
        ("check-ordered-collision", "two members of one ordered relationship at one position (warning)"),
        (
          "check-mandatory-null",
          "a mandatory attribute or to-one that is NULL: the next save or heavyweight migration fails (warning)"
        ),
        (
          "check-value-undecodable",
          "a value Core Data cannot decode for its attribute (storage class, range, decimal text, keyed archive)"
        ),
        ("check-external-missing", "an external data reference whose file is missing from the support folder"),
        (
          "check-repair-refused",
          "`mapc store repair`: a repair that loses data, without `--allow-data-loss` or `--allow-drop` naming it (nothing written; exit 2)"
        ),
      ]),
    Family(
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
      ]),
    Family(
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
      ]),
    Family(
      "`run-*`: running a plan",
      [
        (
          "run-store-model-mismatch",
          "the store's entity version hashes differ from the plan's source hashes (names every differing entity)"
        ),
        (
          "run-store-already-migrated",
          "the store's entity version hashes are the plan's destination hashes: it was migrated already (nothing read or written)"
        ),
        ("run-unknown-policy", "a mapping's policy class is not registered in this executable"),
        ("run-source-not-object", "a source expression yielded something other than source objects"),
        ("run-unknown-entity", "a FETCH of an entity the model does not have"),
        ("run-unknown-mapping", "a mapping name that the plan does not have"),
        ("run-unknown-variable", "an unknown variable"),
        ("run-unknown-function", "an unknown built-in function"),
        ("run-unknown-selector", "a selector neither the policy nor the built-in library implements"),
        ("run-unknown-key", "a key the object does not have"),
        ("run-unknown-property", "a property the destination entity does not have"),
        ("run-arity", "a call with the wrong number of arguments"),
        ("run-type-mismatch", "a value of the wrong type for an operation"),
        ("run-relationship-type", "a relationship given something other than destination objects of its entity"),
        ("run-arithmetic", "an arithmetic error (division or modulus by zero, …)"),
        (
          "run-nil-arithmetic",
          "an operand of `+ - * / **` or `modulus:by:` is nil (Foundation raises; give a default with `defaultValue:for:`)"
        ),
        ("run-nil-index", "indexing a nil collection, or indexing with a nil key or position (Foundation raises)"),
        (
          "run-opaque-transformable",
          "a mapping looks inside (key, index, forEach) a Transformable value mapc cannot read: a custom class, a custom value transformer's bytes, a damaged archive"
        ),
        (
          "run-external-data-missing",
          "a mapping compares, looks into or converts a Binary value Core Data keeps outside the SQLite store whose file is missing (copying it whole to a Binary attribute of an SQLite store is allowed)"
        ),
        ("run-integer-range", "a number out of range for its integer attribute"),
        ("run-cast", "a value `CAST` cannot convert"),
        ("run-regex", "a `MATCHES` pattern that is not a valid ICU regular expression (Foundation raises)"),
        (
          "run-regex-timeout",
          "a `MATCHES` or validation pattern that backtracks for more than 0.25 s (a catastrophic pattern)"
        ),
        (
          "run-regex-budget",
          "all `MATCHES` and validation patterns of a run together took longer than its budget (`--regex-budget`, default 60 s; `Specs/limits.md`), naming the last pattern"
        ),
        (
          "run-regex-failed", "ICU gave up on a `MATCHES` (its backtracking stack is full): never a silent \"no match\""
        ),
        (
          "run-date-out-of-range",
          "a date that is not finite or lies beyond ±1e14 s, written as a calendar date (`stringFromDate:format:`)"
        ),
        (
          "run-value-too-large",
          "`replace:with:in:` or `join:with:` would build a string over 64 MiB (`Specs/limits.md`)"
        ),
        ("run-date-pattern", "a date format the runtime cannot handle"),
        ("run-time-zone", "an unsupported time zone name"),
        ("run-json", "a malformed Transformable value"),
        ("run-policy-error", "a custom policy function failed"),
        (
          "run-plan-inconsistent",
          "the plan lacks something the compiler guarantees (a precompiled predicate, literal arguments)"
        ),
        (
          "run-validation-mandatory",
          "a mandatory attribute or to-one is nil, or a mandatory to-many with a minimum count is empty, after migration (Core Data 1570)"
        ),
        ("run-validation-range", "a number or date outside its attribute's bounds (Core Data 1610–1640)"),
        ("run-validation-length", "a string shorter or longer than its bounds (Core Data 1660/1670)"),
        ("run-validation-pattern", "a string that does not match its regular expression (Core Data 1680)"),
        ("run-validation-count", "a to-many relationship with too few or too many objects (Core Data 1580/1590)"),
        ("run-write", "the migrated store cannot be written"),
        ("run-error", "any other failure, with its description"),
      ]),
  ]
}
