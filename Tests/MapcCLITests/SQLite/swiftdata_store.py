"""Writes a SwiftData-shaped Core Data SQLite store with python3 alone (sqlite3, zlib, plistlib,
hashlib; nothing of mapc): composite attributes (a struct with a nested struct, an enum with a
raw value), element names that clash with the entity's own columns, an `id` attribute, a
to-many relationship, persistent-history tables with rows, the model in Z_MODELCACHE (a keyed
archive built here, raw-deflated) and Z_METADATA's hashes computed here with Core Data's
algorithm (composite: SHA-256 of its elements' attribute hashes sorted by name).

The layout follows what the real SwiftData stores show: a composite's elements get columns named
after the element alone, in the entity's one namespace, numbered on a clash in the order of the
attributes by name. Prints JSON: the rows written, for the test to compare with mapc's export.

usage: swiftdata_store.py OUT
"""
import base64
import hashlib
import json
import plistlib
import sqlite3
import struct
import sys
import zlib

H = lambda b: hashlib.sha256(b).digest()


# --- the model ---------------------------------------------------------------------------------

def attr(name, code, optional=False, elements=None, user_info=None):
    return {"kind": "attribute", "name": name, "code": code, "optional": optional, "elements": elements,
            "userInfo": user_info}


MODEL = {
    "Trip": [
        attr("id", 1100),
        attr("kind", 2100, elements=[attr("kind", 700, optional=True)], user_info={"EnumType": True}),
        attr("name", 700),
        attr("place", 2100, optional=True, elements=[
            attr("id", 1100, optional=True),
            attr("name", 700, optional=True),
            attr("location", 2100, optional=True, elements=[
                attr("latitude", 500, optional=True), attr("longitude", 500, optional=True)]),
        ]),
        {"kind": "relationship", "name": "stops", "destination": "Stop", "inverse": "trip", "toMany": True,
         "optional": True},
    ],
    "Stop": [
        attr("title", 700, optional=True),
        {"kind": "relationship", "name": "trip", "destination": "Trip", "inverse": "stops", "toMany": False,
         "optional": True},
    ],
}


def base(name, optional):
    return H(name.encode() + struct.pack("<H", 1 if optional else 0))


def attribute_hash(a):
    if a["code"] == 2100:
        return H(b"".join(attribute_hash(e) for e in sorted(a["elements"], key=lambda e: e["name"].encode())))
    return H(base(a["name"], a["optional"]) + struct.pack("<i", a["code"]))


def relationship_hash(r):
    return H(base(r["name"], r["optional"]) + r["destination"].encode() + r["inverse"].encode()
             + struct.pack("<i", 0 if r["toMany"] else 1) + struct.pack("<i", 0))


def entity_hash(name):
    props = sorted(MODEL[name], key=lambda p: p["name"].encode())
    body = b"".join(attribute_hash(p) if p["kind"] == "attribute" else relationship_hash(p) for p in props)
    return H(name.encode() + b"\x00" + body)


# --- the keyed archive of the model -------------------------------------------------------------

class Archive:
    def __init__(self):
        self.objects = ["$null"]
        self.classes = {}

    def add(self, value):
        self.objects.append(value)
        return plistlib.UID(len(self.objects) - 1)

    def reserve(self):
        return self.add(None)

    def cls(self, name, chain):
        if name not in self.classes:
            self.classes[name] = self.add({"$classname": name, "$classes": chain + ["NSObject"]})
        return self.classes[name]

    def fill(self, uid, name, chain, fields):
        fields = dict(fields)
        fields["$class"] = self.cls(name, chain)
        self.objects[uid.data] = fields

    def instance(self, name, chain, fields):
        uid = self.reserve()
        self.fill(uid, name, chain, fields)
        return uid

    def array(self, items, name="NSArray"):
        return self.instance(name, [name], {"NS.objects": list(items)})

    def dictionary(self, pairs, name="NSDictionary"):
        return self.instance(name, [name], {"NS.keys": [self.add(k) for k, _ in pairs],
                                            "NS.objects": [v for _, v in pairs]})

    def bytes(self, root):
        return plistlib.dumps({"$version": 100000, "$archiver": "NSKeyedArchiver", "$top": {"root": root},
                               "$objects": self.objects}, fmt=plistlib.FMT_BINARY)


PROPERTY = ["NSPropertyDescription"]
CLASS_OF = {700: "NSString", 1100: "NSUUID", 500: "NSNumber", 2100: "NSDictionary"}


def archive_model():
    a = Archive()
    model = a.reserve()
    entity_uids = {name: a.reserve() for name in sorted(MODEL)}
    property_uids = {(e, p["name"]): a.reserve() for e in MODEL for p in MODEL[e]}

    def attribute_fields(entity, p):
        fields = {"NSPropertyName": a.add(p["name"]), "NSEntity": entity_uids[entity],
                  "NSRenamingIdentifier": a.add(p["name"]), "NSAttributeType": p["code"],
                  "NSAttributeValueClassName": a.add(CLASS_OF[p["code"]]), "NSFlagsKey": 0,
                  "_P": 241 + (2 if p["optional"] else 0) - (64 if p["userInfo"] else 0)}
        if p["optional"]:
            fields["NSIsOptional"] = True
        if p["userInfo"]:
            fields["NSUserInfo"] = a.dictionary([(k, a.add(v)) for k, v in p["userInfo"].items()])
        if p["code"] == 2100:
            fields["NSCompositeElements"] = a.array([element(entity, e) for e in p["elements"]], "NSMutableArray")
        return fields

    def element(entity, e):
        name = "NSCompositeAttributeDescription" if e["code"] == 2100 else "NSAttributeDescription"
        chain = [name] + (["NSAttributeDescription"] if e["code"] == 2100 else []) + PROPERTY
        return a.instance(name, chain, attribute_fields(entity, e))

    for entity in sorted(MODEL):
        props = []
        for p in sorted(MODEL[entity], key=lambda p: p["name"]):
            uid = property_uids[(entity, p["name"])]
            if p["kind"] == "attribute":
                composite = p["code"] == 2100
                name = "NSCompositeAttributeDescription" if composite else "NSAttributeDescription"
                chain = [name] + (["NSAttributeDescription"] if composite else []) + PROPERTY
                a.fill(uid, name, chain, attribute_fields(entity, p))
            else:
                a.fill(uid, "NSRelationshipDescription", ["NSRelationshipDescription"] + PROPERTY, {
                    "NSPropertyName": a.add(p["name"]), "NSEntity": entity_uids[entity],
                    "NSRenamingIdentifier": a.add(p["name"]), "_P": 243,
                    "NSIsOptional": True, "NSDestinationEntity": entity_uids[p["destination"]],
                    "_NSDestinationEntityName": a.add(p["destination"]),
                    "NSInverseRelationship": property_uids[(p["destination"], p["inverse"])],
                    "_NSInverseRelationshipName": a.add(p["inverse"]), "NSDeleteRule": 1, "NSMinCount": 0,
                    "NSMaxCount": 0 if p["toMany"] else 1})
            props.append((p["name"], uid))
        a.fill(entity_uids[entity], "NSEntityDescription", ["NSEntityDescription"], {
            "NSEntityName": a.add(entity), "NSClassNameForEntity": a.add("App." + entity),
            "NSProperties": a.dictionary(props, "NSMutableDictionary"), "NSManagedObjectModel": model,
            "NSRenamingIdentifier": a.add(entity), "NSSubentities": a.dictionary([], "NSMutableDictionary"),
            "NSUserInfo": a.dictionary([])})
    names = sorted(MODEL)
    strategy = a.instance("NSKnownKeysMappingStrategy1", ["NSKnownKeysMappingStrategy1"], {
        "keys": a.array([a.add(n) for n in names]), "length": len(names), "version": 1})
    entities = a.instance("NSKnownKeysDictionary1", ["NSKnownKeysDictionary1", "NSDictionary"], {
        "values": a.array([entity_uids[n] for n in names]), "searchMapping": strategy, "version": 1,
        "emptyToken": a.add("__empty_slot_token_4c24_98dc_ac1e_b773__")})
    a.fill(model, "NSManagedObjectModel", ["NSManagedObjectModel"], {
        "NSEntities": entities, "NSVersionIdentifiers": a.array([a.add("1.0.0")], "NSSet"),
        "NSFetchRequestTemplates": plistlib.UID(0)})
    deflate = zlib.compressobj(wbits=-15)
    return deflate.compress(a.bytes(model)) + deflate.flush()


# --- the store ----------------------------------------------------------------------------------

TRIPS = [
    {"pk": 1, "id": "1F0C1D6E-6A55-4C1B-9D3B-2D0F2A64B001", "kind": {"kind": "car"}, "name": "Coast",
     "place": {"id": "1F0C1D6E-6A55-4C1B-9D3B-2D0F2A64B0AA", "name": "Porto",
               "location": {"latitude": 41.15, "longitude": -8.625}}},
    {"pk": 2, "id": "1F0C1D6E-6A55-4C1B-9D3B-2D0F2A64B002", "kind": {"kind": None}, "name": "Hills", "place": None},
]
STOPS = [{"pk": 1, "title": "Café \u00e9t\u00e9", "trip": 1}, {"pk": 2, "title": "Ponte", "trip": 1},
         {"pk": 3, "title": None, "trip": None}]


def uuid_bytes(text):
    return bytes.fromhex(text.replace("-", "")) if text else None


def main():
    out = sys.argv[1]
    db = sqlite3.connect(out)
    db.executescript("""
    PRAGMA page_size = 4096;
    CREATE TABLE ZSTOP ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTRIP INTEGER, ZTITLE VARCHAR );
    CREATE TABLE ZTRIP ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLATITUDE FLOAT, ZLONGITUDE FLOAT,
      ZKIND VARCHAR, ZNAME VARCHAR, ZNAME1 VARCHAR, ZID BLOB, ZID1 BLOB );
    CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
    CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
    CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
    CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER,
      ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB );
    CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER,
      ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR,
      ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB );
    CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
    CREATE INDEX ZSTOP_ZTRIP_INDEX ON ZSTOP (ZTRIP);
    """)
    db.executemany("INSERT INTO Z_PRIMARYKEY VALUES (?, ?, 0, ?)", [
        (1, "Stop", len(STOPS)), (2, "Trip", len(TRIPS)), (16001, "CHANGE", 5), (16002, "TRANSACTION", 1),
        (16003, "TRANSACTIONSTRING", 1)])
    for t in TRIPS:
        p = t["place"] or {}
        loc = p.get("location") or {}
        db.execute("INSERT INTO ZTRIP VALUES (?, 2, 1, ?, ?, ?, ?, ?, ?, ?)",
                   (t["pk"], loc.get("latitude"), loc.get("longitude"), t["kind"]["kind"], t["name"], p.get("name"),
                    uuid_bytes(t["id"]), uuid_bytes(p.get("id"))))
    for s in STOPS:
        db.execute("INSERT INTO ZSTOP VALUES (?, 1, 1, ?, ?)", (s["pk"], s["trip"], s["title"]))
    db.execute("INSERT INTO ATRANSACTIONSTRING VALUES (1, 16003, NULL, 'NSCoreDataCoreSpotlightExporter')")
    db.execute("INSERT INTO ATRANSACTION VALUES (1, 16002, NULL, NULL, NULL, 1, NULL, 786000000.5, NULL, NULL, NULL, NULL, NULL)")
    for k, (entity, pk) in enumerate([(2, 1), (2, 2), (1, 1), (1, 2), (1, 3)]):
        db.execute("INSERT INTO ACHANGE VALUES (?, 16001, NULL, 0, ?, ?, 1, NULL)", (k + 1, entity, pk))
    hashes = {name: entity_hash(name) for name in MODEL}
    plist = {"NSStoreModelVersionHashes": hashes, "NSStoreModelVersionHashesVersion": 3,
             "NSStoreModelVersionIdentifiers": ["1.0.0"], "NSStoreType": "SQLite", "_NSAutoVacuumLevel": "2",
             "NSPersistenceFrameworkVersion": 1403}
    db.execute("INSERT INTO Z_METADATA VALUES (1, 'A2C7D6F1-5B1E-4E58-9A86-0D5C3F1E7B21', ?)",
               (plistlib.dumps(plist, fmt=plistlib.FMT_BINARY),))
    db.execute("INSERT INTO Z_MODELCACHE VALUES (?)", (archive_model(),))
    db.commit()
    db.close()
    print(json.dumps({"trips": TRIPS, "stops": STOPS,
                      "hashes": {k: base64.b64encode(v).decode() for k, v in hashes.items()}}, sort_keys=True))


main()
