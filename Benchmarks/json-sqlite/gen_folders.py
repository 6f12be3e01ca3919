"""A JSON store of N items in F folders for `store convert --to sqlite` in chunks (issue 41).

usage: gen_folders.py MAPC N F OUTDIR [--no-inverse]

Writes OUTDIR/F.xcdatamodeld (Folder.items, ordered, to Item; with --no-inverse it has no inverse,
else Item.folder is its inverse) and OUTDIR/folders.json: item i in folder 1 + (7919 i mod F),
each folder's items shuffled (random.seed(1)), ids Entity/n, the entity version hashes that
`MAPC hash` prints for the model, a fixed NSStoreUUID. Plain python3: json, random, subprocess.
"""
import json
import os
import random
import subprocess
import sys

mapc, n, folders, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
inverse = "--no-inverse" not in sys.argv[5:]
version = os.path.join(out, "F.xcdatamodeld", "V1.xcdatamodel")
os.makedirs(version, exist_ok=True)
back = ' inverseName="folder" inverseEntity="Item"' if inverse else ""
folder = (
    '<relationship name="folder" optional="YES" maxCount="1" destinationEntity="Folder" '
    'inverseName="items" inverseEntity="Folder"/>' if inverse else ""
)
with open(os.path.join(version, "contents"), "w") as f:
    f.write(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">\n'
        '<entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/>'
        f'<relationship name="items" optional="YES" toMany="YES" ordered="YES" destinationEntity="Item"{back}/></entity>\n'
        '<entity name="Item"><attribute name="title" optional="YES" attributeType="String"/>'
        f'<attribute name="n" attributeType="Integer 64" defaultValueString="0"/>{folder}</entity>\n'
        "</model>\n"
    )
hashes = {}
for line in subprocess.run([mapc, "hash", version], capture_output=True, text=True, check=True).stdout.splitlines():
    parts = line.split()
    if len(parts) == 2 and parts[0] in ("Folder", "Item"):
        hashes[parts[0]] = parts[1]
random.seed(1)
members = {}
items = []
for i in range(1, n + 1):
    f = 1 + (i * 7919) % folders
    item = {"id": "Item/%d" % i, "title": "item %d, a few words to fill its row" % i, "n": i * 3}
    if inverse:
        item["folder"] = "Folder/%d" % f
    items.append(item)
    members.setdefault(f, []).append("Item/%d" % i)
listed = []
for f in range(1, folders + 1):
    m = members.get(f, [])
    random.shuffle(m)
    listed.append({"id": "Folder/%d" % f, "name": "folder %d" % f, "items": m})
metadata = {"NSStoreUUID": "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0", "entityVersionHashes": hashes}
with open(os.path.join(out, "folders.json"), "w") as f:
    json.dump({"metadata": metadata, "objects": {"Item": items, "Folder": listed}}, f)
