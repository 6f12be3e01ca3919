"""What a lightweight (inferred) migration must keep, checked with python3's sqlite3 alone:
every object of the source store is in the migrated store with the same Z_PK and entity name,
Z_MAX of every root entity still in the model is the same, and every column both tables have
holds, in every row where the source's value is not NULL, the very same value (same SQLite
type, same bytes: a REAL date is the same double). Columns of the source the new model does not
have, and NULLs a default may fill, are not compared. Z_OPT is (Core Data's in-place migration
copies it with INSERT ... SELECT).
Prints a JSON list of differences (empty when everything was kept) and the number of objects.

usage: kept_rows.py SOURCE MIGRATED
"""
import json
import sys
from store_copy import open_copy


def open_store(path):
    return open_copy(path)


def entity_tables(db):
    names = dict(db.execute("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY"))
    roots = {n: m for n, s, m in db.execute("SELECT Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY") if s == 0}
    tables = {}
    for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        columns = [r[1] for r in db.execute(f'PRAGMA table_info("{t}")')]
        if t.startswith("Z") and not t.startswith("Z_") and "Z_PK" in columns and "Z_ENT" in columns:
            tables[t] = columns
    return names, roots, tables


def rows(db, table, columns, names):
    result = {}
    select = ", ".join(f'"{c}", typeof("{c}")' for c in columns)
    for r in db.execute(f'SELECT {select} FROM "{table}"'):
        values = {columns[i]: (r[2 * i], r[2 * i + 1]) for i in range(len(columns))}
        result[values["Z_PK"][0]] = values
        values["Z_ENT"] = (names.get(values["Z_ENT"][0]), "text")
    return result


source, migrated = open_store(sys.argv[1]), open_store(sys.argv[2])
s_names, s_roots, s_tables = entity_tables(source)
m_names, m_roots, m_tables = entity_tables(migrated)
problems = []
objects = 0
for root, high in s_roots.items():
    if root in m_roots and m_roots[root] != high:
        problems.append(f"Z_MAX of {root}: {high} became {m_roots[root]}")
for table, columns in s_tables.items():
    before = rows(source, table, columns, s_names)
    objects += len(before)
    if table not in m_tables:
        if before:
            problems.append(f"{table}: {len(before)} rows, and no such table after")
        continue
    common = [c for c in columns if c in m_tables[table]]
    after = rows(migrated, table, m_tables[table], m_names)
    for pk, values in sorted(before.items()):
        if pk not in after:
            problems.append(f"{table} Z_PK={pk} ({values['Z_ENT'][0]}) is gone")
            continue
        for c in common:
            if values[c][1] != "null" and after[pk][c] != values[c]:
                problems.append(f"{table} Z_PK={pk}.{c}: {values[c]!r} became {after[pk][c]!r}")
    for pk in sorted(set(after) - set(before)):
        problems.append(f"{table} Z_PK={pk} is new")
print(json.dumps({"objects": objects, "problems": problems[:50]}))
