"""Members of every ordered relationship of a Core Data SQLite store, in their order, read with
python3's sqlite3 alone: for each Z_FOK_<X> column, the owners (column Z<X> of an entity table,
or the other key column of a join table) and their members sorted by the position. Objects are
named by an identity column of the one entity table given (DuckDuckGo's ZUUID), so two stores
with other primary keys compare. Prints JSON {"<Z_FOK_ column>": {"<owner id>": [member ids]}}.

usage: ordered_members.py STORE TABLE IDCOLUMN
"""
import json
import sys
from store_copy import open_copy

store, table, idcolumn = sys.argv[1:4]
db = open_copy(store)
ids = dict(db.execute(f'SELECT Z_PK, "{idcolumn}" FROM "{table}"'))
result = {}
tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
for t in tables:
    columns = [r[1] for r in db.execute(f'PRAGMA table_info("{t}")')]
    for c in columns:
        if not c.startswith("Z_FOK_"):
            continue
        if t == table:
            member, owner = "Z_PK", "Z" + c[len("Z_FOK_"):]
        else:
            member = "Z_" + c[len("Z_FOK_"):]
            owner = next(k for k in columns if k != member and not k.startswith("Z_FOK_"))
        rows = db.execute(f'SELECT "{owner}", "{member}" FROM "{t}" WHERE "{owner}" IS NOT NULL ORDER BY "{c}", "{member}"')
        by_owner = {}
        for o, m in rows:
            by_owner.setdefault(str(ids[o]), []).append(str(ids[m]))
        result[c] = by_owner
print(json.dumps(result, sort_keys=True))
