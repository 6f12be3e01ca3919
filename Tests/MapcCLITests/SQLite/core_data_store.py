#!/usr/bin/env python3
"""An independent reader of Core Data SQLite stores for the tests (python3's sqlite3 and
plistlib, nothing of mapc): prints JSON with the store's NSStoreModelVersionHashes (base64) and
the rows per entity (Z_PRIMARYKEY.Z_NAME -> rows whose Z_ENT is that entity's number, over
every table with a Z_ENT column, history entities from 16000 on left out), the store UUID, and
whether the plist's hashes digest and checksum are right (null when absent), and SQLite's
PRAGMA integrity_check.

The store is read from a copy with its -wal (store_copy.py): SQLite's recovery reads the
un-checkpointed frames without touching the originals.

    core_data_store.py STORE
"""
import base64, hashlib, json, os, plistlib, sqlite3, sys

sys.dont_write_bytecode = True  # no __pycache__ in the package
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from store_copy import store_copy

store = sys.argv[1]
with store_copy(store) as copy:
    db = sqlite3.connect(copy)
    (blob,) = db.execute("SELECT Z_PLIST FROM Z_METADATA").fetchone()
    plist = plistlib.loads(blob)
    raw = plist["NSStoreModelVersionHashes"]
    hashes = {k: base64.b64encode(v).decode() for k, v in raw.items()}
    # Digest and checksum as the reference (§2.2) reproduced them on real stores; None if absent.
    names = sorted(raw, key=lambda n: n.encode())
    digest = base64.b64encode(hashlib.sha512(b"".join(n.encode() + raw[n] for n in names)).digest()).decode()
    checksum = base64.b64encode(hashlib.sha256(b"".join(raw[n] for n in names)).digest()).decode()
    digest_ok = plist["NSStoreModelVersionHashesDigest"] == digest if "NSStoreModelVersionHashesDigest" in plist else None
    checksum_ok = plist["NSStoreModelVersionChecksumKey"] == checksum if "NSStoreModelVersionChecksumKey" in plist else None
    names = {n: name for n, name in db.execute("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY") if n < 16000}
    rows = {name: 0 for name in names.values()}
    tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    for t in tables:
        columns = [c[1] for c in db.execute(f'PRAGMA table_info("{t}")')]
        if "Z_ENT" not in columns or t == "Z_PRIMARYKEY":
            continue
        for ent, count in db.execute(f'SELECT Z_ENT, count(*) FROM "{t}" GROUP BY Z_ENT'):
            if ent in names:
                rows[names[ent]] += count
    (uuid,) = db.execute("SELECT Z_UUID FROM Z_METADATA").fetchone()
    integrity = "; ".join(r[0] for r in db.execute("PRAGMA integrity_check"))
    db.close()
print(json.dumps({"hashes": hashes, "rows": rows, "uuid": uuid, "digestOK": digest_ok, "checksumOK": checksum_ok, "integrity": integrity}, sort_keys=True))
