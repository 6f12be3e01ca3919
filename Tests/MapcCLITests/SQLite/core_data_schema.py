#!/usr/bin/env python3
"""Prints a Core Data SQLite store's schema as JSON, read with python3's sqlite3 (nothing of
mapc), for the tests to compare stores: every table with its columns and declared types in
order, every index with its table and columns, the Z_PRIMARYKEY rows (Z_ENT, Z_NAME, Z_SUPER),
rows per table, and the header's page size, auto-vacuum and journal mode. A copy of the store
(with its -wal) is read, never the store itself.

    core_data_schema.py STORE
"""
import json, os, sqlite3, sys

sys.dont_write_bytecode = True  # no __pycache__ in the package
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from store_copy import store_copy

store = sys.argv[1]
with store_copy(store) as copy:
    with open(copy, "rb") as f:
        header = f.read(100)
    db = sqlite3.connect(copy)
    tables, indexes, rows = {}, {}, {}
    for kind, name, table in db.execute("SELECT type, name, tbl_name FROM sqlite_master"):
        if name.startswith("sqlite_"):
            continue
        if kind == "table":
            tables[name] = [[c[1], c[2]] for c in db.execute(f'PRAGMA table_info("{name}")')]
            rows[name] = db.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
        elif kind == "index":
            indexes[name] = [table, [c[2] for c in db.execute(f'PRAGMA index_info("{name}")')]]
    keys = [list(r) for r in db.execute("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT")]
    vacuum = db.execute("PRAGMA auto_vacuum").fetchone()[0]
    db.close()
print(json.dumps({
    "tables": tables, "indexes": indexes, "primaryKeys": keys, "rows": rows,
    "pageSize": int.from_bytes(header[16:18], "big"), "autoVacuum": vacuum, "walHeader": [header[18], header[19]],
}, sort_keys=True))
