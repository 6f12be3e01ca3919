#!/usr/bin/env python3
"""Compares two SQLite stores row by row with python3's sqlite3 (nothing of mapc): the same
schema (sqlite_master: type, name, table and SQL text, in order), page size, auto-vacuum and
journal mode, and in every table the same rows (ordered by rowid) with the same values and
storage classes in every column. BLOBs that differ are compared decoded when both are binary
property lists (Z_METADATA's plist; keyed archives through keyed_archive.unarchive), and such a
difference is reported as one. Z_MODELCACHE's rows are not compared: mapc writes the model
cache, the Python peers do not (SQLiteModelCacheTests compares mapc's with Core Data's). Exits 0
when equal, 1 otherwise, printing the first differences.

    compare_sqlite.py A.sqlite B.sqlite
"""
import os
import plistlib
import sqlite3
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from keyed_archive import unarchive  # noqa: E402


def decoded(blob):
    try:
        return ("archive", unarchive(blob))
    except Exception:
        return ("plist", plistlib.loads(blob))


def main(a, b):
    da = sqlite3.connect(f"file:{a}?mode=ro", uri=True)
    db = sqlite3.connect(f"file:{b}?mode=ro", uri=True)
    problems = []
    for pragma in ("page_size", "auto_vacuum", "journal_mode"):
        x, y = da.execute(f"PRAGMA {pragma}").fetchone(), db.execute(f"PRAGMA {pragma}").fetchone()
        if x != y:
            problems.append(f"PRAGMA {pragma}: {x} != {y}")
    query = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid"
    sa, sb = da.execute(query).fetchall(), db.execute(query).fetchall()
    if sa != sb:
        problems.append(f"schemas differ:\n  {sa}\n  {sb}")
    tables = [n for t, n, _, _ in sa if t == "table" and n != "Z_MODELCACHE"]
    rows = 0
    decoded_equal = 0
    for t in tables:
        if t not in {n for _, n, _, _ in sb}:
            continue
        q = f'SELECT *, typeof(rowid) FROM "{t}" ORDER BY rowid'
        ra, rb = da.execute(q), db.execute(q)
        n = 0
        while True:
            x, y = ra.fetchone(), rb.fetchone()
            if x is None and y is None:
                break
            n += 1
            if x is None or y is None:
                problems.append(f"{t}: row counts differ (one store ends at row {n})")
                break
            if x == y and all(type(u) is type(v) for u, v in zip(x, y)):
                continue
            for c, (u, v) in enumerate(zip(x, y)):
                if u == v and type(u) is type(v):
                    continue
                if isinstance(u, bytes) and isinstance(v, bytes) and u.startswith(b"bplist") and v.startswith(b"bplist"):
                    if decoded(u) == decoded(v):
                        decoded_equal += 1
                        continue
                problems.append(f"{t} row {n} column {c}: {u!r:.80} != {v!r:.80}")
            if len(problems) > 20:
                break
        rows += n
    for p in problems[:20]:
        print(p)
    print(f"compared {len(tables)} tables, {rows} rows: "
          + ("equal" if not problems else f"{len(problems)} differences")
          + (f" ({decoded_equal} BLOBs equal only decoded)" if decoded_equal else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
