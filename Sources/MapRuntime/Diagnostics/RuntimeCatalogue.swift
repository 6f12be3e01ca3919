// The diagnostic ids of MapRuntime: reading plans and files, store contents and running a plan.
// Each id with what it reports, listed here only; `Specs/diagnostics.md` §3 is generated from
// every module's (MapcCatalogue, in MapcCLI).

/// The diagnostic families MapRuntime reports (ids are stable: once published, an id keeps
/// its meaning).
public enum RuntimeCatalogue {
  public static let file = DiagnosticCatalogue.Family(
    "`file-*`: reading input files (`XMLReader`)",
    [
      ("file-not-found", "the file does not exist"),
      ("file-unreadable", "the path is a directory, or the file cannot be read"),
    ])

  public static let plan = DiagnosticCatalogue.Family(
    "`plan-*`: reading a plan (`Specs/plan-format.md`)",
    [
      ("plan-unreadable", "the plan file cannot be read"),
      ("plan-bad-magic", "not a mapc plan"),
      ("plan-unsupported-version", "a plan format version (or flag) this mapc does not read"),
      ("plan-truncated", "the file ends before its header or body"),
      ("plan-checksum-mismatch", "the body's checksum differs: the plan is damaged"),
      ("plan-malformed", "the checksum holds but the body does not follow the format"),
    ])

  public static let io = DiagnosticCatalogue.Family(
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
    ])

  public static let store = DiagnosticCatalogue.Family(
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
        "store-format-name-taken",
        "an app registering a store format (`StoreFormatRegistry`) under a name a built-in or registered format has"
      ),
      (
        "store-no-model-cache",
        "a store without `Z_MODELCACHE` given to a command that needs its model, without `--model`"
      ),
      (
        "store-unknown-version",
        "the store's entity version hashes match no version of the model bundle (`mapc store`: the closest version and the entities that differ)"
      ),
    ])

  public static let run = DiagnosticCatalogue.Family(
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
      (
        "run-memory-limit",
        "the store does not fit `--memory-limit` in memory and cannot be read a chunk at a time, or a single value or the part read whole is larger than the limit allows (`Specs/limits.md` \"Memory\")"
      ),
      ("run-error", "any other failure, with its description"),
    ])
}
