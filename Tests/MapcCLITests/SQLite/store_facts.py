"""What python3 alone reads from a Core Data SQLite store (sqlite3 and plistlib; the store and
its -wal are copied first, so SQLite's recovery never touches the originals): the entity version
hashes of Z_METADATA (base64), the model entities of Z_PRIMARYKEY (Z_ENT below 16000), each
entity table's columns in order with their declared types, and, with --rows, every row of the
tables TABLES (comma-separated; all entity and join tables when empty), and whether the store
has a Z_MODELCACHE row as sorted lists of
[column, SQLite type, value] (BLOBs as hex, Z_OPT left out).

usage: store_facts.py STORE [--rows TABLES]
"""
import base64
import json
import os
import plistlib
import shutil
import sqlite3
import sys
import tempfile


def open_copy(path):
    folder = tempfile.mkdtemp()
    for suffix in ["", "-wal", "-shm"]:
        if os.path.exists(path + suffix):
            shutil.copyfile(path + suffix, os.path.join(folder, "s" + suffix))
    return sqlite3.connect(os.path.join(folder, "s")), folder


def main():
    path = sys.argv[1]
    db, folder = open_copy(path)
    plist = plistlib.loads(db.execute("SELECT Z_PLIST FROM Z_METADATA").fetchone()[0])
    hashes = {k: base64.b64encode(v).decode() for k, v in plist["NSStoreModelVersionHashes"].items()}
    entities = [r[0] for r in db.execute("SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT")]
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    model_tables = [t for t in tables if t.startswith("Z") and t not in ("Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE")]
    columns = {t: [[r[1], r[2]] for r in db.execute(f'PRAGMA table_info("{t}")')] for t in model_tables}
    cache = "Z_MODELCACHE" in tables and db.execute("SELECT count(*) FROM Z_MODELCACHE").fetchone()[0] > 0
    out = {"hashes": hashes, "entities": entities, "columns": columns, "cache": cache,
           "history": [t for t in tables if t in ("ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING")]}
    if "--rows" in sys.argv:
        wanted = sys.argv[sys.argv.index("--rows") + 1]
        chosen = wanted.split(",") if wanted else model_tables
        rows = {}
        for t in chosen:
            names = [c for c, _ in columns[t] if c != "Z_OPT"]
            select = ", ".join(f'"{c}", typeof("{c}")' for c in names)
            found = []
            for r in db.execute(f'SELECT {select} FROM "{t}"'):
                found.append([[names[i], r[2 * i + 1], r[2 * i].hex() if isinstance(r[2 * i], bytes) else r[2 * i]]
                              for i in range(len(names))])
            rows[t] = sorted(found, key=json.dumps)
        out["rows"] = rows
    db.close()
    shutil.rmtree(folder)
    print(json.dumps(out, sort_keys=True))


main()
