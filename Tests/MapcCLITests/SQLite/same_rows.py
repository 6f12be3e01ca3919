"""Whether two Core Data SQLite stores hold byte-identical rows, read with python3's sqlite3 alone:
every table but Z_METADATA and Z_MODELCACHE (compared elsewhere), its rows as sets of values
with their SQLite types (a REAL is compared as its exact double, a BLOB byte for byte), Z_OPT
(each row's optimistic-locking version) included. With --z-opt-one (a store written from a JSON
store, which has no place for versions), Z_OPT is left out of the comparison and must be 1 in
every row of the written store that has the column (NULL in history tables). Prints JSON: the
differences found, at most 20 per table, and the number of rows compared.

usage: same_rows.py ORIGINAL WRITTEN [--z-opt-one]
"""
import json
import sys
from store_copy import open_copy


def open_store(path):
    return open_copy(path)


def tables(db):
    return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} - {
        "Z_METADATA", "Z_MODELCACHE"}


z_opt_one = sys.argv[3:] == ["--z-opt-one"]


def rows(db, table):
    columns = sorted(r[1] for r in db.execute(f'PRAGMA table_info("{table}")') if r[1] != "Z_OPT" or not z_opt_one)
    select = ", ".join(f'"{c}", typeof("{c}")' for c in columns)
    result = {}
    for r in db.execute(f'SELECT {select} FROM "{table}"'):
        row = tuple((columns[i], r[2 * i + 1], r[2 * i].hex() if isinstance(r[2 * i], bytes) else r[2 * i])
                    for i in range(len(columns)))
        result[row] = result.get(row, 0) + 1
    return result


a, b = open_store(sys.argv[1]), open_store(sys.argv[2])
problems = []
count = 0
for t in sorted(tables(a) | tables(b)):
    if t not in tables(b) or t not in tables(a):
        problems.append(f"table {t} only in {'the original' if t in tables(a) else 'the written store'}")
        continue
    ra, rb = rows(a, t), rows(b, t)
    count += sum(ra.values())
    only_a = [r for r in ra if ra[r] != rb.get(r, 0)]
    only_b = [r for r in rb if rb[r] != ra.get(r, 0)]
    for r in only_a[:10]:
        problems.append(f"{t}: original row {dict((c, v) for c, _, v in r)} not written as it was")
    for r in only_b[:10]:
        problems.append(f"{t}: written row {dict((c, v) for c, _, v in r)} not in the original")
    if z_opt_one and "Z_OPT" in [r[1] for r in b.execute(f'PRAGMA table_info("{t}")')]:
        for (v, n) in b.execute(f'SELECT Z_OPT, COUNT(*) FROM "{t}" WHERE Z_OPT IS NOT 1 AND Z_OPT IS NOT NULL GROUP BY Z_OPT'):
            problems.append(f"{t}: {n} written rows have Z_OPT {v}, not 1")
print(json.dumps({"rows": count, "problems": problems}, default=str))
