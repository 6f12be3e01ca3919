#!/usr/bin/env python3
"""Generate the diary store as a Core Data SQLite store of the diary's source model, with
python3's sqlite3 and plistlib only (nothing of mapc).

    gen_diary_sqlite.py N OUT.sqlite [--seed S]

The content is that of ../shared/bench/gen_diary_store.py (same N and seed: the same records,
questions and answers); the layout is what Core Data creates for
fixtures/diary/SimpleQADiary.xcdatamodeld version 1 (reference core-data-sqlite.md §§1-4):
entity numbers by name (Questions 1, Records 2), one table per entity, columns ranked
(VARCHAR before Transformable BLOBs), Z_PK from 1, Z_OPT 1, Z_PRIMARYKEY with Z_MAX,
Z_METADATA with the model's hashes, digest and checksum, an empty Z_MODELCACHE, page size
4096, incremental auto-vacuum, WAL. Transformable values (`questions`, `answers`) are
NSKeyedArchiver archives (keyed_archive.py) of NSArrays of NSStrings, a null answer an NSNull.
The same N and seed give the same bytes.
"""
import argparse
import base64
import hashlib
import os
import plistlib
import random
import sqlite3
import sys
import uuid

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "..", "..", "shared", "bench"))
sys.dont_write_bytecode = True
import gen_diary_store as content  # noqa: E402
from keyed_archive import archive  # noqa: E402

SCHEMA = [
    "CREATE TABLE ZQUESTIONS ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZQUESTIONS BLOB )",
    "CREATE TABLE ZRECORDS ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDATE VARCHAR, ZANSWERS BLOB, ZQUESTIONS BLOB )",
    "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
    "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
    "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
]
FRAMEWORK_VERSION = 1344


def metadata_plist():
    hashes = {k: base64.b64decode(v) for k, v in content.SOURCE_HASHES.items()}
    names = sorted(hashes, key=lambda n: n.encode())
    return plistlib.dumps({
        "NSPersistenceFrameworkVersion": FRAMEWORK_VERSION,
        "NSStoreModelVersionChecksumKey": base64.b64encode(hashlib.sha256(b"".join(hashes[n] for n in names)).digest()).decode(),
        "NSStoreModelVersionHashes": hashes,
        "NSStoreModelVersionHashesDigest": base64.b64encode(
            hashlib.sha512(b"".join(n.encode() + hashes[n] for n in names)).digest()).decode(),
        "NSStoreModelVersionHashesVersion": 3,
        "NSStoreModelVersionIdentifiers": ["1"],
        "NSStoreType": "SQLite",
        "_NSAutoVacuumLevel": "2",
    }, fmt=plistlib.FMT_BINARY)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("n", type=int)
    p.add_argument("out")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    rng = random.Random(a.seed)
    records = [content.record(rng, n) for n in range(1, a.n + 1)]
    store_uuid = str(uuid.UUID(int=random.Random(f"uuid {a.seed}").getrandbits(128), version=4)).upper()

    tmp = a.out + ".tmp"
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(tmp + suffix):
            os.remove(tmp + suffix)
    db = sqlite3.connect(tmp, isolation_level=None)
    db.execute("PRAGMA page_size = 4096")
    db.execute("PRAGMA auto_vacuum = 2")
    db.execute("PRAGMA journal_mode = DELETE")
    db.execute("PRAGMA synchronous = OFF")
    db.execute("BEGIN")
    for statement in SCHEMA:
        db.execute(statement)
    questions = archive(list(content.QUESTIONS))
    db.execute("INSERT INTO ZQUESTIONS VALUES (1, 1, 1, ?)", (questions,))
    # The archives of equal question lists are equal: make each once.
    lists = {}

    def questions_of(qs):
        key = tuple(qs)
        if key not in lists:
            lists[key] = archive(list(qs))
        return lists[key]

    db.executemany(
        "INSERT INTO ZRECORDS VALUES (?, 2, 1, ?, ?, ?)",
        ((n, r["date"], archive(r["answers"]), questions_of(r["questions"])) for n, r in enumerate(records, 1)))
    db.executemany("INSERT INTO Z_PRIMARYKEY VALUES (?, ?, 0, ?)", [(1, "Questions", 1), (2, "Records", len(records))])
    db.execute("INSERT INTO Z_METADATA VALUES (1, ?, ?)", (store_uuid, metadata_plist()))
    db.execute("COMMIT")
    db.execute("PRAGMA journal_mode = WAL")
    db.close()
    for suffix in ("-wal", "-shm"):
        if os.path.exists(tmp + suffix):
            os.remove(tmp + suffix)
    os.replace(tmp, a.out)


if __name__ == "__main__":
    main(sys.argv[1:])
