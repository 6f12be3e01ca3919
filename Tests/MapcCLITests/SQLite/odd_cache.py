"""Gives a Core Data store's Z_MODELCACHE what no real cache of ../shared shows but Core Data
archives: an attribute's default value of the app's own class, and fetch request templates in an
NSKnownKeysDictionary1. python3 alone (sqlite3, zlib, plistlib); nothing of mapc.

  odd_cache.py write STORE ENTITY.ATTRIBUTE
      rewrites STORE's row (in place: give it a copy) with ENTITY.ATTRIBUTE's default a
      `TripsApp.Palette` (a name, an array of colours, a weight, and a reference to itself) and
      one template, 'recentTrips' (an NSFetchRequest of the entity); prints the default's tree.
  odd_cache.py default STORE ENTITY.ATTRIBUTE
      prints the tree of ENTITY.ATTRIBUTE's default in STORE's row (null when it has none).

A tree follows references: an instance is {"$classes": its chain, field: tree, ...} (every field
but $class), a second visit of an instance is {"$ref": the path of the first}, a string object is
its text, `$null` is null.
"""
import json
import plistlib
import sqlite3
import sys
import zlib

UID = plistlib.UID
EMPTY = "__empty_slot_token_4c24_98dc_ac1e_b773__"


def read(path):
    db = sqlite3.connect(path)
    blob = db.execute("SELECT Z_CONTENT FROM Z_MODELCACHE").fetchone()[0]
    db.close()
    inflater = zlib.decompressobj(-15)
    return plistlib.loads(inflater.decompress(blob) + inflater.flush())


def entries(objects, ref):
    """(key, value) of an NSDictionary or an NSKnownKeysDictionary1 (keys resolved)."""
    o = objects[ref.data]
    if "NS.keys" in o:
        keys, values = o["NS.keys"], o["NS.objects"]
    else:
        keys = objects[objects[o["searchMapping"].data]["keys"].data]["NS.objects"]
        values = objects[o["values"].data]["NS.objects"]
    text = lambda k: objects[k.data] if isinstance(k, UID) else k
    return [(text(k), v) for k, v in zip(keys, values)]


def attribute(archive, name):
    objects = archive["$objects"]
    entity_name, attribute_name = name.split(".")
    root = objects[archive["$top"]["root"].data]
    entity = dict(entries(objects, root["NSEntities"]))[entity_name]
    return entity, objects[dict(entries(objects, objects[entity.data]["NSProperties"]))[attribute_name].data]


def tree(objects, value, path, seen):
    if isinstance(value, UID):
        o = objects[value.data]
        if isinstance(o, dict) and "$class" in o:
            if value.data in seen:
                return {"$ref": seen[value.data]}
            seen[value.data] = path
            out = {"$classes": objects[o["$class"].data]["$classes"]}
            for k in sorted(o):
                if k != "$class":
                    out[k] = tree(objects, o[k], path + "." + k, seen)
            return out
        return tree(objects, o, path, seen)
    if value == "$null":
        return None
    if isinstance(value, list):
        return [tree(objects, v, "%s[%d]" % (path, i), seen) for i, v in enumerate(value)]
    if isinstance(value, bytes):
        return {"$data": value.hex()}
    return value


def write(path, name):
    archive = read(path)
    objects = archive["$objects"]

    def add(value):
        objects.append(value)
        return UID(len(objects) - 1)

    def cls(name, chain):
        return add({"$classname": name, "$classes": chain})

    entity, description = attribute(archive, name)
    palette = add({})
    colours = add({"$class": cls("NSArray", ["NSArray", "NSObject"]), "NS.objects": [add("amber"), add("ochre")]})
    objects[palette.data] = {"$class": cls("TripsApp.Palette", ["TripsApp.Palette", "NSObject"]),
                             "name": add("warm"), "colours": colours, "weight": 3, "base": palette}
    description["NSDefaultValue"] = palette
    request = add({"$class": cls("NSFetchRequest", ["NSFetchRequest", "NSPersistentStoreRequest", "NSObject"]),
                   "NSEntity": entity, "NSFetchLimit": 0, "NSBatchSize": 0})
    strategy = add({"$class": cls("NSKnownKeysMappingStrategy1", ["NSKnownKeysMappingStrategy1",
                                                                  "NSKnownKeysMappingStrategy", "NSObject"]),
                    "keys": add({"$class": cls("NSArray", ["NSArray", "NSObject"]), "NS.objects": [add("recentTrips")]}),
                    "length": 1, "version": 1})
    templates = add({"$class": cls("NSKnownKeysDictionary1", ["NSKnownKeysDictionary1", "NSKnownKeysDictionary",
                                                              "NSMutableDictionary", "NSDictionary", "NSObject"]),
                     "values": add({"$class": cls("NSArray", ["NSArray", "NSObject"]), "NS.objects": [request]}),
                     "searchMapping": strategy, "emptyToken": add(EMPTY), "version": 1})
    objects[archive["$top"]["root"].data]["NSFetchRequestTemplates"] = templates
    deflater = zlib.compressobj(wbits=-15)
    blob = deflater.compress(plistlib.dumps(archive, fmt=plistlib.FMT_BINARY)) + deflater.flush()
    db = sqlite3.connect(path)
    db.execute("UPDATE Z_MODELCACHE SET Z_CONTENT = ?", (blob,))
    db.commit()
    db.close()
    return default(path, name)


def default(path, name):
    archive = read(path)
    _, description = attribute(archive, name)
    return tree(archive["$objects"], description.get("NSDefaultValue", UID(0)), "default", {})


def main():
    command, path, name = sys.argv[1:4]
    print(json.dumps(write(path, name) if command == "write" else default(path, name), sort_keys=True))


main()
