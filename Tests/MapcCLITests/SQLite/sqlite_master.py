#!/usr/bin/env python3
"""Prints a SQLite store's sqlite_master rows as JSON, read with python3's sqlite3 (nothing of
mapc): a list of [type, name, tbl_name, sql], sql exactly as stored (null for SQLite's own
automatic indexes), sorted. A copy of the store (with its -wal) is read, never the store itself.

    sqlite_master.py STORE
"""
import json, os, sqlite3, sys

sys.dont_write_bytecode = True  # no __pycache__ in the package
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from store_copy import store_copy

with store_copy(sys.argv[1]) as copy:
    db = sqlite3.connect(copy)
    rows = [list(r) for r in db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")]
    db.close()
print(json.dumps(sorted(rows, key=lambda r: (r[0], r[1])), sort_keys=True))
