#!/usr/bin/env python3
"""Checks Transformable values of a Core Data SQLite store against mapc's JSON export of it and
against a store mapc imported from that export, with python3's sqlite3 and plistlib only.

    transformable_check.py STORE EXPORT.json [IMPORTED.sqlite]

For every BLOB column of the entity tables holding a binary property list (the
Transformable columns), the JSON form each value must have (Specs/sqlite-store.md §5.1) is
worked out here: the archive's value (keyed_archive.unarchive, NSNull as null, NSDate as
{"$date": seconds}, NSData as {"$data": base64}) when keyed_archive.archive gives the same bytes
back, else {"$bytes": base64}. Every such form must be among the export's attribute values (as
a multiset); bytes of a Binary attribute (an app's own archive) may be there as a base64 string. With IMPORTED, each of those columns must hold the same multiset of bytes there.
Prints a JSON summary; exits 1 on a mismatch.
"""
import base64
import collections
import json
import os
import sqlite3
import sys

sys.dont_write_bytecode = True
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "..", "Tests", "MapcCLITests", "SQLite"))
from keyed_archive import Date, archive, unarchive  # noqa: E402
from store_copy import store_copy  # noqa: E402


def jsonable(v):
    if isinstance(v, Date):
        return {"$date": v.seconds}
    if isinstance(v, bytes):
        return {"$data": base64.b64encode(v).decode()}
    if isinstance(v, list):
        return [jsonable(x) for x in v]
    if isinstance(v, dict):
        return {k: jsonable(x) for k, x in v.items()}
    return v


def expected(blob):
    try:
        v = unarchive(blob)
        if archive(v) == blob:
            return jsonable(v), True
    except Exception:
        pass
    return {"$bytes": base64.b64encode(blob).decode()}, False


def canonical(v):
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def columns(path):
    result = {}
    with store_copy(path) as copy:
        db = sqlite3.connect(copy)
        tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'Z\\_%' ESCAPE '\\'")]
        for t in tables:
            for c in db.execute(f'PRAGMA table_info("{t}")').fetchall():
                if c[2] != "BLOB":
                    continue
                values = [v for (v,) in db.execute(f'SELECT "{c[1]}" FROM "{t}" WHERE "{c[1]}" IS NOT NULL')]
                if any(isinstance(v, bytes) and v.startswith(b"bplist") for v in values):
                    result[f"{t}.{c[1]}"] = values
    return result


def main(store, export, imported=None):
    want = collections.Counter()
    decoded = 0
    original = columns(store)
    for values in original.values():
        for blob in values:
            form, ok = expected(blob)
            decoded += ok
            want[canonical(form)] += 1
    got = collections.Counter()
    doc = json.load(open(export, encoding="utf-8"))
    for objects in doc["objects"].values():
        for o in objects:
            for k, v in o.items():
                if isinstance(v, (list, dict)) or k != "id":
                    got[canonical(v)] += 1
    missing = want - got
    # Columns of Binary attributes (an app's own archives) are exported as base64 strings.
    binary = 0
    for m in list(missing):
        form = json.loads(m)
        if isinstance(form, dict) and set(form) == {"$bytes"} and got[canonical(form["$bytes"])] >= missing[m]:
            binary += missing.pop(m)
    problems = [f"not in the export: {m[:120]}" for m in missing]
    if imported:
        again = columns(imported)
        for name, values in original.items():
            if sorted(again.get(name, [])) != sorted(values):
                problems.append(f"{name}: the imported store holds other bytes")
    print(json.dumps({"values": sum(want.values()), "decoded": decoded, "binary": binary, "columns": sorted(original), "problems": problems[:10]}))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
