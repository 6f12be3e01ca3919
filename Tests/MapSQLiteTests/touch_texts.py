# Changes a Core Data SQLite store in place for the comparison tests, with python3's sqlite3
# alone. `python3 touch_texts.py STORE SIDE`, SIDE 0 or 1. In each root entity table (from
# Z_PRIMARYKEY), taken in Z_ENT order and numbered from 0:
# - SIDE 1: the row with the smallest Z_PK whose first text column (by name, not Z_*) holds
#   text gets "x" appended to it;
# - the table's row with the largest Z_PK is deleted from the store of side (number % 2), when
#   no integer anywhere else in the store equals that Z_PK (so that nothing refers to it).
# Prints, as JSON, each change: kind ("text" or "deleted"), the row's entity (its Z_ENT's
# name), its Z_PK, and for a text its column and old value.
import json, sqlite3, sys

c = sqlite3.connect(sys.argv[1])
side = int(sys.argv[2])
tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
entities = {ent: (name, parent) for ent, name, parent in c.execute("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY")}
roots = [(ent, "Z" + name.upper()) for ent, (name, parent) in sorted(entities.items())
         if not parent and "Z" + name.upper() in tables]

def columns(table):
    return [(r[1], r[2]) for r in c.execute('PRAGMA table_info("%s")' % table)]

def referred(table, pk):
    for other in tables:
        if other.startswith("sqlite_") or other in ("Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"):
            continue
        for name, _ in columns(other):
            if other == table and name in ("Z_PK", "Z_ENT", "Z_OPT"):
                continue
            q = 'SELECT 1 FROM "%s" WHERE typeof("%s") = \'integer\' AND "%s" = ? LIMIT 1' % (other, name, name)
            if c.execute(q, (pk,)).fetchone():
                return True
    return False

changes = []
for number, (ent, table) in enumerate(roots):
    if side == 1:
        for column in sorted(n for n, _ in columns(table) if not n.startswith("Z_")):
            row = c.execute(
                'SELECT Z_PK, Z_ENT, "%s" FROM "%s" WHERE typeof("%s") = \'text\' ORDER BY Z_PK LIMIT 1'
                % (column, table, column)).fetchone()
            if row is None:
                continue
            c.execute('UPDATE "%s" SET "%s" = "%s" || \'x\' WHERE Z_PK = ?' % (table, column, column), (row[0],))
            changes.append({"kind": "text", "entity": entities[row[1]][0], "pk": row[0], "column": column, "old": row[2]})
            break
    if number % 2 == side:
        row = c.execute('SELECT Z_PK, Z_ENT FROM "%s" ORDER BY Z_PK DESC LIMIT 1' % table).fetchone()
        if row and not referred(table, row[0]):
            c.execute('DELETE FROM "%s" WHERE Z_PK = ?' % table, (row[0],))
            changes.append({"kind": "deleted", "entity": entities[row[1]][0], "pk": row[0], "column": "", "old": ""})
c.commit()
print(json.dumps(changes))
