// The diagnostic ids of MapCompiler: mappings and Xcode mapping models.
// Each id with what it reports, listed here only; `Specs/diagnostics.md` §3 is generated from
// every module's (MapcCatalogue, in MapcCLI).
import MapRuntime

/// The diagnostic families MapCompiler reports (ids are stable: once published, an id keeps
/// its meaning).
public enum CompilerCatalogue {
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
}
