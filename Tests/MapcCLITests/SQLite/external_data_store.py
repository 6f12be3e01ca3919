"""A Core Data-shaped SQLite store whose Binary attribute allows external storage, written and
read with python3 alone (sqlite3, plistlib, hashlib; nothing of mapc).

Model (version 1): entity Photo with `image` (Binary, optional, allowsExternalBinaryDataStorage),
`thumb` (Binary, optional) and `title` (String, optional). Core Data keeps `image` as 1 marker
byte + payload: 0x01 + the bytes, or 0x02 + the file's UUID (36 ASCII characters) + 0x00 for the
file `.<store name without extension>_SUPPORT/_EXTERNAL_DATA/<UUID>` beside the store.
Z_METADATA's hash of Photo is computed here with Core Data's algorithm.

usage:
  external_data_store.py make OUT [--no-missing]   writes OUT and its support folder; prints `read`
  external_data_store.py read STORE                 prints JSON: per Z_PK the title, the thumb
      (base64) and the image as {"kind": "inline"|"file"|"missing", "uuid", "data" (base64)} or
      null; the files of the support folder (path → SHA-256); the store's UUID
"""
import base64
import hashlib
import json
import os
import plistlib
import sqlite3
import sys

H = lambda b: hashlib.sha256(b).digest()

ATTRIBUTES = [("image", 1000, True), ("thumb", 1000, False), ("title", 700, False)]  # name, type, external


def attribute_hash(name, code, external):
    base = H(name.encode() + (1).to_bytes(2, "little"))  # flags: optional
    return H(base + code.to_bytes(4, "little", signed=True) + (b"\x01" if external else b""))


def photo_hash():
    body = b"".join(attribute_hash(*a) for a in sorted(ATTRIBUTES, key=lambda a: a[0].encode()))
    return H(b"Photo" + b"\x00" + body)


def support(store):
    folder, name = os.path.split(store)
    return os.path.join(folder, "." + os.path.splitext(name)[0] + "_SUPPORT")


def blob(seed, n):
    out = bytearray()
    block = seed.encode()
    while len(out) < n:
        block = hashlib.sha256(block).digest()
        out += block
    return bytes(out[:n])


UUIDS = {
    2: "0F6C1D6E-6A55-4C1B-9D3B-2D0F2A64B002",
    3: "0F6C1D6E-6A55-4C1B-9D3B-2D0F2A64B003",
    5: "0F6C1D6E-6A55-4C1B-9D3B-2D0F2A64B005",
    7: "0F6C1D6E-6A55-4C1B-9D3B-2D0F2A64B007",
}
ORPHAN = "0F6C1D6E-6A55-4C1B-9D3B-2D0F2A64BFFF"


def make(out, missing):
    data = os.path.join(support(out), "_EXTERNAL_DATA")
    os.makedirs(data)
    big = blob("big", 1_200_000)
    rows = [
        (1, "inline", b"\x01" + blob("small", 300), b"thumb-1"),
        (2, "file", b"\x02" + UUIDS[2].encode() + b"\x00", None),
        (3, "missing" if missing else "file", b"\x02" + UUIDS[3].encode() + b"\x00", b""),
        (4, "none", None, None),
        (5, "same bytes as 2, another file", b"\x02" + UUIDS[5].encode() + b"\x00", None),
        (6, "empty inline", b"\x01", None),
        (7, "large file", b"\x02" + UUIDS[7].encode() + b"\x00", None),
    ]
    files = {UUIDS[2]: blob("file-2", 70_000), UUIDS[5]: blob("file-2", 70_000), UUIDS[7]: big}
    if not missing:
        files[UUIDS[3]] = blob("file-3", 5_000)
    for name, content in files.items():
        with open(os.path.join(data, name), "wb") as f:
            f.write(content)
    # Files no row names: an orphan in _EXTERNAL_DATA and one beside it.
    with open(os.path.join(data, ORPHAN), "wb") as f:
        f.write(b"orphan")
    with open(os.path.join(support(out), "notes.txt"), "wb") as f:
        f.write(b"not Core Data's")
    db = sqlite3.connect(out)
    db.execute("PRAGMA page_size = 4096")
    db.execute("PRAGMA auto_vacuum = 2")
    db.execute("CREATE TABLE ZPHOTO ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR,"
               " ZIMAGE BLOB, ZTHUMB BLOB )")
    db.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER,"
               " Z_MAX INTEGER)")
    db.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
    for pk, title, image, thumb in rows:
        db.execute("INSERT INTO ZPHOTO VALUES (?, 1, 1, ?, ?, ?)", (pk, title, image, thumb))
    db.execute("INSERT INTO Z_PRIMARYKEY VALUES (1, 'Photo', 0, 7)")
    uuid = "5A1E7C3D-0000-4000-8000-00000000E39A"
    plist = plistlib.dumps({
        "NSStoreModelVersionHashes": {"Photo": photo_hash()}, "NSStoreModelVersionHashesVersion": 3,
        "NSStoreModelVersionIdentifiers": [""], "NSStoreType": "SQLite", "NSStoreUUID": uuid,
        "NSPersistenceFrameworkVersion": 1344, "_NSAutoVacuumLevel": "2"}, fmt=plistlib.FMT_BINARY)
    db.execute("INSERT INTO Z_METADATA VALUES (1, ?, ?)", (uuid, plist))
    db.commit()
    db.close()


def read(store):
    db = sqlite3.connect("file:%s?mode=ro" % store, uri=True)
    data = os.path.join(support(store), "_EXTERNAL_DATA")
    rows = {}
    for pk, title, image, thumb in db.execute("SELECT Z_PK, ZTITLE, ZIMAGE, ZTHUMB FROM ZPHOTO ORDER BY Z_PK"):
        value = None
        if image is not None:
            image = bytes(image)
            if image[:1] == b"\x01":
                value = {"kind": "inline", "data": base64.b64encode(image[1:]).decode()}
            elif image[:1] == b"\x02" and len(image) == 38 and image[-1:] == b"\x00":
                name = image[1:37].decode()
                path = os.path.join(data, name)
                if os.path.exists(path):
                    with open(path, "rb") as f:
                        value = {"kind": "file", "uuid": name, "data": base64.b64encode(f.read()).decode()}
                else:
                    value = {"kind": "missing", "uuid": name}
            else:
                value = {"kind": "bad", "data": base64.b64encode(image).decode()}
        rows[str(pk)] = {"title": title, "thumb": None if thumb is None else base64.b64encode(bytes(thumb)).decode(),
                         "image": value}
    files = {}
    root = support(store)
    for folder, _, names in os.walk(root):
        for n in names:
            path = os.path.join(folder, n)
            with open(path, "rb") as f:
                files[os.path.relpath(path, root)] = hashlib.sha256(f.read()).hexdigest()
    uuid = db.execute("SELECT Z_UUID FROM Z_METADATA").fetchone()[0]
    return {"rows": rows, "files": files, "uuid": uuid}


def main():
    if sys.argv[1] == "make":
        make(sys.argv[2], missing="--no-missing" not in sys.argv)
        print(json.dumps(read(sys.argv[2]), sort_keys=True))
    elif sys.argv[1] == "read":
        print(json.dumps(read(sys.argv[2]), sort_keys=True))
    else:
        sys.exit("unknown command")


main()
