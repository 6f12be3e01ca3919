// The diagnostic ids of MapSQLite: Core Data SQLite stores, store check and repair.
// Each id with what it reports, listed here only; `Specs/diagnostics.md` §3 is generated from
// every module's (MapcCatalogue, in MapcCLI).
import MapRuntime

/// The diagnostic families MapSQLite reports (ids are stable: once published, an id keeps
/// its meaning).
public enum SQLiteCatalogue {
  public static let sqlite = DiagnosticCatalogue.Family(
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
    ])

  public static let check = DiagnosticCatalogue.Family(
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
        "check-unique-duplicate",
        "rows sharing the values of a uniqueness constraint whose index is missing or not Core Data's: the next save fails and the index cannot be made"
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
        "check-derived-trigger",
        "a derived attribute whose table lacks one of Core Data's triggers (`Z_DA_…`) that keep it up to date, or has one not as Core Data makes it, or whose expression Core Data's store does not support (warning)"
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
    ])
}
