# The facts MapSQLiteTests compares MapSQLite's reading with, read by python3's sqlite3 and
# plistlib alone: per entity (Z_PRIMARYKEY) its rows in its root entity's table, whether the
# store carries a model cache, and the entity version hashes of its metadata (base64).
import base64, json, os, plistlib, sys

# A private copy of the store (MapcCLITests/SQLite/store_copy.py): opened, even read-only, a store
# in WAL mode gets a -shm and a -wal written beside it.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "MapcCLITests", "SQLite"))
from store_copy import open_copy

c = open_copy(sys.argv[1])
tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
entities = {ent: (name, parent) for ent, name, parent in c.execute("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY")}

def root(ent):
    while entities[ent][1]:
        ent = entities[ent][1]
    return entities[ent][0]

rows = {}
for ent, (name, _) in entities.items():
    table = "Z" + root(ent).upper()
    if table in tables:
        rows[name] = c.execute('SELECT COUNT(*) FROM "%s" WHERE Z_ENT = ?' % table, (ent,)).fetchone()[0]
metadata = plistlib.loads(c.execute("SELECT Z_PLIST FROM Z_METADATA").fetchone()[0])
hashes = {k: base64.b64encode(v).decode() for k, v in metadata.get("NSStoreModelVersionHashes", {}).items()}
cache = "Z_MODELCACHE" in tables and c.execute("SELECT COUNT(*) FROM Z_MODELCACHE").fetchone()[0] > 0
print(json.dumps({"rows": rows, "hashes": hashes, "cache": cache}, sort_keys=True))
