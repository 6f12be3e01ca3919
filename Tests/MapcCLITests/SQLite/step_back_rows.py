"""Whether two Core Data SQLite stores hold the same rows, checked with python3's sqlite3 alone:
the same tables (besides the bookkeeping below), each with the same columns and, row for row,
the same values, byte for byte (SQLite type and value: Z_PK, Z_ENT, Z_OPT and every attribute
and foreign key column included), rows compared as sorted lists (no order assumed).

Left out, because they legitimately differ after a round trip through a newer version:
- Z_METADATA: the metadata plist, which records the steps applied (mapcMigrations) and may carry
  other keys in another order;
- Z_MODELCACHE: the compressed model of the writing framework version (absent from stores written
  by older frameworks, written by mapc);
- Z_PRIMARYKEY: its Z_MAX are compared (by entity name), but not its Z_ENT numbers or Z_OPT,
  which number entities of the model that wrote the store;
- sqlite_* tables (SQLite's own: sqlite_sequence, sqlite_stat1).
With `--lost E.p ...` (what the forward step dropped, with consent), the column of property p
in the table of E's root is left out of both stores: its values cannot come back.
Also, with `--drop E.p ...`, checks that each named drop is something SOURCE lacks: entity E is
not in its Z_PRIMARYKEY, or the table of E's root has no column ZP (what the forward step added).

Prints a JSON object: {"tables": N, "rows": N, "problems": [...], "drops_in_source": [...]}.

usage: step_back_rows.py SOURCE BACK [--drop NAME]... [--lost NAME]...
"""
import json
import sys
from store_copy import open_copy

SKIPPED = {"Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"}


def open_store(path):
    return open_copy(path)


def tables(db):
    names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return sorted(n for n in names if n not in SKIPPED and not n.startswith("sqlite_"))


def columns(db, table):
    return sorted(r[1] for r in db.execute(f'PRAGMA table_info("{table}")'))


def rows(db, table, cols):
    select = ", ".join(f'typeof("{c}"), "{c}"' for c in cols)
    return sorted((tuple(r) for r in db.execute(f'SELECT {select} FROM "{table}"')), key=repr)


def maxima(db):
    return dict(db.execute("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY"))


def place(db, name):
    """The table and column of `Entity.property` (column None for an entity), or None."""
    entities = {n: s for n, s in db.execute("SELECT Z_NAME, Z_SUPER FROM Z_PRIMARYKEY")}
    numbers = dict(db.execute("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY"))
    entity, _, prop = name.partition(".")
    if entity not in entities:
        return None
    root = entity
    while entities.get(root, 0):
        root = numbers[entities[root]]
    return ("Z" + root.upper(), "Z" + prop.split(".")[0].upper() if prop else None)


def in_source(db, name):
    found = place(db, name)
    return found is not None and (found[1] is None or found[1] in columns(db, found[0]))


source, back = open_store(sys.argv[1]), open_store(sys.argv[2])
drops = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--drop"]
lost = {place(source, sys.argv[i + 1]) for i, a in enumerate(sys.argv) if a == "--lost"}
problems = []
count = 0
s_tables, b_tables = tables(source), tables(back)
if s_tables != b_tables:
    problems.append(f"tables {s_tables} became {b_tables}")
for t in s_tables:
    if t not in b_tables:
        continue
    cols = columns(source, t)
    if columns(back, t) != cols:
        problems.append(f"{t}: columns {cols} became {columns(back, t)}")
        continue
    cols = [c for c in cols if (t, c) not in lost]
    before, after = rows(source, t, cols), rows(back, t, cols)
    count += len(before)
    if before != after:
        gone = [r for r in before if r not in after][:3]
        new = [r for r in after if r not in before][:3]
        problems.append(f"{t}: {len(before)} rows became {len(after)}; gone {gone!r}; new {new!r}")
if maxima(source) != maxima(back):
    problems.append(f"Z_MAX {maxima(source)} became {maxima(back)}")
print(json.dumps({
    "tables": len(s_tables), "rows": count, "problems": problems[:20],
    "drops_in_source": [d for d in drops if in_source(source, d)],
}))
