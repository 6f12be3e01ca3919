"""Damaged copies of a real Core Data store, made with python3's sqlite3 and plistlib alone
(nothing of mapc), for `mapc store check` and `mapc store repair` (StoreCheckTests).

The source is DuckDuckGo's Bookmarks_V4.sqlite (one entity BookmarkEntity in ZBOOKMARKENTITY:
an optional to-one `parent` with its ordered inverse `children` (Z_FOK_PARENT), an ordered
many-to-many `favorites` in Z_1FAVORITES, mandatory `uuid`, an optional Date `modifiedAt`).
Each copy has one damage; `all` has every damage but `version` (which makes the repair refuse
everything). Each damage names the finding id the check must report and what a repair must
change, as python knows it from the damage itself.

usage:
  damage_store.py make SOURCE OUTDIR   writes OUTDIR/<damage>.sqlite; prints JSON
      {damage: {"finding": id, "consent": [...], "expected": [[table, key, column, value]...],
      "deleted": [[table, key]...], "repairable": bool}}
  damage_store.py diff A B             prints JSON {"changed": [[table, key, column, a, b]...],
      "deleted": [[table, key]...], "added": [[table, key]...]}: every row of every table of
      both (Z_METADATA and Z_MODELCACHE aside), keyed by its primary key (Z_PK; Z_ENT; a join
      table's two keys as "a|b"), or by the whole row
"""
import json
import os
import plistlib
import shutil
import sqlite3
import sys
import tempfile

T = "ZBOOKMARKENTITY"
J = "Z_1FAVORITES"


def zmax(db):
    db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_ENT = 1")
    return {"finding": "check-primary-key-max", "expected": [["Z_PRIMARYKEY", 1, "Z_MAX", 10]]}


def zent(db):
    db.execute(f"UPDATE {T} SET Z_ENT = 7 WHERE Z_PK = 6")
    # Row 6 is in no join row; its children (none) would dangle.
    return {"finding": "check-row-entity", "consent": ["--allow-data-loss"], "deleted": [[T, 6]]}


def dangling(db):
    db.execute(f"UPDATE {T} SET ZPARENT = 99 WHERE Z_PK = 7")
    return {"finding": "check-dangling-to-one",
            "expected": [[T, 7, "ZPARENT", None], [T, 7, "Z_FOK_PARENT", None]]}


def join(db):
    db.execute(f"INSERT INTO {J} VALUES (3, 77, 7168)")
    return {"finding": "check-dangling-join", "deleted": [[J, "3|77"]]}


def joincollision(db):
    # Folder 3's favorites, ordered by Z_FOK_1FAVORITES: one moved onto the first one's position.
    rows = db.execute(f"SELECT rowid, Z_1FAVORITES, Z_FOK_1FAVORITES FROM {J} WHERE Z_1FAVORITEFOLDERS = 3 "
                      "ORDER BY Z_FOK_1FAVORITES").fetchall()
    first, second = rows[0], rows[1]
    db.execute(f"UPDATE {J} SET Z_FOK_1FAVORITES = ? WHERE rowid = ?", (first[2], second[0]))
    # Numbered again 2048, 3072, … by (position, rowid), as python computes it here.
    after = [(r[2] if r[0] != second[0] else first[2], r[0], r[1]) for r in rows]
    expected = []
    for n, (position, rowid, member) in enumerate(sorted(after)):
        new = 2048 + 1024 * n
        if new != position:
            expected.append([J, f"3|{member}", "Z_FOK_1FAVORITES", new])
    return {"finding": "check-ordered-collision", "expected": expected}


def collision(db):
    # Parent 5 holds 2 (2048), 9 (3072), 4 (4096), 1 (5120), 8 (6144): 9 moved onto 2's position.
    db.execute(f"UPDATE {T} SET Z_FOK_PARENT = 2048 WHERE Z_PK = 9")
    # Numbered again by (position, Z_PK): 2, 9, 4, 1, 8 → 2048, 3072, …: 9 back at 3072.
    return {"finding": "check-ordered-collision", "expected": [[T, 9, "Z_FOK_PARENT", 3072]]}


def mandatory(db):
    db.execute(f"UPDATE {T} SET ZUUID = NULL WHERE Z_PK = 10")
    return {"finding": "check-mandatory-null", "repairable": False}


def date(db):
    db.execute(f"UPDATE {T} SET ZMODIFIEDAT = 'yesterday' WHERE Z_PK = 1")
    return {"finding": "check-value-undecodable", "consent": ["--allow-drop", "BookmarkEntity.modifiedAt"],
            "expected": [[T, 1, "ZMODIFIEDAT", None]]}


def index(db):
    db.execute("DROP INDEX ZBOOKMARKENTITY_ZPARENT_INDEX")
    return {"finding": "check-layout-index"}


def column(db):
    db.execute("DROP INDEX Z_BookmarkEntity_byURL")
    db.execute(f"ALTER TABLE {T} DROP COLUMN ZURL")
    return {"finding": "check-layout-column", "added_columns": [[T, "ZURL"]]}


def integrity(db):
    # The index's entries stay those of ZISPENDINGDELETION while its definition names ZTITLE;
    # the repair makes the index again (it differs from the layout too), which is the change.
    db.execute("PRAGMA writable_schema = ON")
    db.execute("UPDATE sqlite_master SET sql = replace(sql, '(ZISPENDINGDELETION COLLATE', '(ZTITLE COLLATE') "
               "WHERE name = 'Z_BookmarkEntity_isPendingDeletion'")
    db.execute("PRAGMA writable_schema = OFF")
    return {"finding": "check-integrity", "reported": "check-layout-index"}


def version(db):
    (plist,) = db.execute("SELECT Z_PLIST FROM Z_METADATA").fetchone()
    p = plistlib.loads(plist)
    p["NSStoreModelVersionHashes"]["BookmarkEntity"] = b"\x00" * 32
    db.execute("UPDATE Z_METADATA SET Z_PLIST = ?", (plistlib.dumps(p, fmt=plistlib.FMT_BINARY),))
    return {"finding": "check-unknown-version", "repairable": False}


DAMAGES = {"zmax": zmax, "zent": zent, "dangling": dangling, "join": join, "collision": collision,
           "joincollision": joincollision,
           "mandatory": mandatory, "date": date, "index": index, "column": column, "integrity": integrity,
           "version": version}


def copy(source, out):
    """The store and its -wal copied, opened (SQLite folds the -wal in), made one file."""
    tmp = tempfile.mkdtemp()
    try:
        base = os.path.join(tmp, "s.sqlite")
        for suffix in ["", "-wal"]:
            if os.path.exists(source + suffix):
                shutil.copyfile(source + suffix, base + suffix)
        db = sqlite3.connect(base)
        db.execute("PRAGMA journal_mode = DELETE")
        db.close()
        shutil.copyfile(base, out)
    finally:
        shutil.rmtree(tmp)


def make(source, outdir):
    manifest = {}
    for name in list(DAMAGES) + ["all"]:
        out = os.path.join(outdir, name + ".sqlite")
        copy(source, out)
        db = sqlite3.connect(out, isolation_level=None)
        if name == "all":
            entries = [DAMAGES[d](db) for d in DAMAGES if d != "version"]
            manifest[name] = {"findings": [e["finding"] for e in entries],
                              "consent": ["--allow-data-loss"], "repairable": False}
        else:
            manifest[name] = DAMAGES[name](db)
        db.close()
    print(json.dumps(manifest, sort_keys=True))


def rows(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    result = {}
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    for t in tables:
        if t in ("Z_METADATA", "Z_MODELCACHE") or t.startswith("sqlite_"):
            continue
        cols = [r[1] for r in db.execute(f'PRAGMA table_info("{t}")')]
        # Keyed by Z_PK, Z_PRIMARYKEY by Z_ENT, a join table by its primary key, others by the row.
        info = list(db.execute(f'PRAGMA table_info("{t}")'))
        pk = [c[1] for c in sorted(info, key=lambda c: c[5]) if c[5] > 0]
        table = {}
        for r in db.execute(f'SELECT * FROM "{t}"'):
            d = dict(zip(cols, r))
            if len(pk) == 1:
                key = d[pk[0]]
            else:
                key = "|".join(str(d[c]) for c in pk) if pk else "|".join(str(v) for v in r)
            table[key] = d
        result[t] = table
    db.close()
    return result


def diff(a, b):
    x, y = rows(a), rows(b)
    changed, deleted, added = [], [], []
    for t in sorted(set(x) | set(y)):
        tx, ty = x.get(t, {}), y.get(t, {})
        for key in sorted(tx, key=str):
            if key not in ty:
                deleted.append([t, key])
                continue
            for c in sorted(set(tx[key]) | set(ty[key])):
                u, v = tx[key].get(c, "<absent>"), ty[key].get(c, "<absent>")
                if u != v:
                    changed.append([t, key, c, u if not isinstance(u, bytes) else u.hex(),
                                    v if not isinstance(v, bytes) else v.hex()])
        for key in sorted(ty, key=str):
            if key not in tx:
                added.append([t, key])
    print(json.dumps({"changed": changed, "deleted": deleted, "added": added}, sort_keys=True))


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3])
    else:
        diff(sys.argv[2], sys.argv[3])
