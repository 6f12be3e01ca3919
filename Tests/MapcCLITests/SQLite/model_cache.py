"""Reads the Z_MODELCACHE rows of two Core Data stores and compares the models they hold.

Each row is inflated (a raw DEFLATE stream) and read as an NSKeyedArchiver property list;
object references are followed into one tree, so UID numbering does not matter. Dictionaries
are compared by key, sets as sorted lists, everything else in order. An instance reached a
second time is a reference to the path where it was first reached (fields visited in key
order), so what is shared is compared too. Prints JSON: {"real": {...}, "other": {...},
"differences": [{"at", "path", "real", "other"}]} where "real"/"other" describe each row (bytes,
inflated bytes, objects, SHA-256 of the row). With one store, prints its description and its
tree ("tree") and each entity's tree on its own ("entities"); the row must inflate to an archive whose root is an NSManagedObjectModel.
Independent of mapc: python3's sqlite3, zlib and plistlib only.
"""
import hashlib
import json
import os
import plistlib
import shutil
import sqlite3
import sys
import tempfile
import zlib


def read_row(path):
    folder = tempfile.mkdtemp(prefix="model-cache-")
    try:
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                shutil.copyfile(path + suffix, os.path.join(folder, "s.sqlite" + suffix))
        db = sqlite3.connect(os.path.join(folder, "s.sqlite"))
        rows = db.execute("SELECT Z_CONTENT FROM Z_MODELCACHE").fetchall()
        db.close()
    finally:
        shutil.rmtree(folder)
    if len(rows) != 1:
        raise SystemExit("%s: %d Z_MODELCACHE rows" % (path, len(rows)))
    inflater = zlib.decompressobj(-15)
    raw = inflater.decompress(rows[0][0]) + inflater.flush()
    if not inflater.eof or inflater.unused_data:
        raise SystemExit("%s: Z_MODELCACHE is not one raw DEFLATE stream" % path)
    archive = plistlib.loads(raw)
    return rows[0][0], raw, archive


class Canon:
    def __init__(self, archive):
        self.objects = archive["$objects"]
        self.seen = {}

    def classname(self, obj):
        return self.objects[obj["$class"].data]["$classname"]

    def value(self, v, path):
        if isinstance(v, plistlib.UID):
            index = v.data
            obj = self.objects[index]
            if isinstance(obj, dict) and "$class" in obj:
                if index in self.seen:
                    return {"$ref": self.seen[index]}
                self.seen[index] = path
                return self.instance(obj, path)
            return self.value(obj, path)
        if v == "$null":
            return None
        if isinstance(v, bool):
            return v
        if isinstance(v, (int, float, str)):
            return v
        if isinstance(v, bytes):
            return {"$data": v.hex()}
        if isinstance(v, list):
            return [self.value(x, "%s[%d]" % (path, i)) for i, x in enumerate(v)]
        raise SystemExit("unexpected value at %s: %r" % (path, v))

    def key(self, k):
        k = self.objects[k.data] if isinstance(k, plistlib.UID) else k
        if not isinstance(k, str):
            raise SystemExit("non-string dictionary key %r" % (k,))
        return k

    def instance(self, obj, path):
        cls = self.classname(obj)
        if cls in ("NSDictionary", "NSMutableDictionary"):
            pairs = sorted(zip((self.key(k) for k in obj["NS.keys"]), obj["NS.objects"]))
            return {"$class": cls, "entries": {k: self.value(v, "%s{%s}" % (path, k)) for k, v in pairs}}
        if cls in ("NSSet", "NSMutableSet"):
            items = [self.value(x, path + "{}") for x in obj["NS.objects"]]
            return {"$class": cls, "members": sorted(items, key=lambda x: json.dumps(x, sort_keys=True))}
        if cls == "NSKnownKeysDictionary1":
            mapping = self.objects[obj["searchMapping"].data]
            keys = [self.key(k) for k in self.objects[mapping["keys"].data]["NS.objects"]]
            values = self.objects[obj["values"].data]["NS.objects"]
            fields = {k: self.value(v, "%s.%s" % (path, k)) for k, v in sorted(obj.items()) if k not in ("$class", "values", "searchMapping")}
            fields["keys"] = keys
            fields["length"] = mapping.get("length")
            fields["entries"] = {k: self.value(v, "%s{%s}" % (path, k)) for k, v in sorted(zip(keys, values))}
            fields["$class"] = cls
            return fields
        out = {"$class": cls}
        for k in sorted(obj):
            if k != "$class":
                out[k] = self.value(obj[k], "%s.%s" % (path, k))
        return out


def tree(archive):
    if archive.get("$archiver") != "NSKeyedArchiver" or archive.get("$version") != 100000:
        raise SystemExit("not an NSKeyedArchiver archive")
    root = Canon(archive).value(archive["$top"]["root"], "root")
    if not isinstance(root, dict) or root.get("$class") != "NSManagedObjectModel":
        raise SystemExit("the archive's root is not an NSManagedObjectModel")
    return root


def entities(archive):
    """Each entity's tree on its own (expanded here, whatever else refers to it first)."""
    objects = archive["$objects"]
    model = archive["$top"]["root"]
    known = objects[objects[model.data]["NSEntities"].data]
    keys = objects[objects[known["searchMapping"].data]["keys"].data]["NS.objects"]
    values = objects[known["values"].data]["NS.objects"]
    result = {}
    for k, v in zip(keys, values):
        canon = Canon(archive)
        canon.seen[model.data] = "root"
        result[canon.key(k)] = canon.value(v, "entity")
    return result


def short(v):
    text = json.dumps(v, sort_keys=True)
    return text if len(text) <= 120 else text[:117] + "..."


def owner(node, context):
    """Names the instance a difference is in: the model, an entity, or entity.property."""
    cls = node.get("$class")
    if cls == "NSManagedObjectModel":
        return "model"
    if cls == "NSEntityDescription":
        return "entity " + str(node.get("NSEntityName"))
    if cls in ("NSAttributeDescription", "NSRelationshipDescription") and context.startswith("entity "):
        return "%s.%s" % (context, node.get("NSPropertyName"))
    return context


def diff(a, b, context, path, out):
    """Differences as "<owner> <path within it>", each once (an instance compared once)."""
    if isinstance(a, dict) and isinstance(b, dict) and "$ref" not in a and "$ref" not in b:
        if "$class" in a and a.get("$class") == b.get("$class"):
            inner = owner(a, context)
            if inner != context:
                context, path = inner, ""
        for k in sorted(set(a) | set(b)):
            p = "%s.%s" % (path, k) if path else k
            if k not in a:
                out.append({"at": context, "path": p, "real": "(absent)", "other": short(b[k])})
            elif k not in b:
                out.append({"at": context, "path": p, "real": short(a[k]), "other": "(absent)"})
            else:
                diff(a[k], b[k], context, p, out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, context, "%s[%d]" % (path, i), out)
    elif json.dumps(a, sort_keys=True) != json.dumps(b, sort_keys=True):
        out.append({"at": context, "path": path, "real": short(a), "other": short(b)})


def describe(row, raw, archive):
    return {
        "bytes": len(row),
        "inflated": len(raw),
        "objects": len(archive["$objects"]),
        "sha256": hashlib.sha256(row).hexdigest(),
    }


def main():
    first = read_row(sys.argv[1])
    result = {"real": describe(*first)}
    real_tree = tree(first[2])
    if len(sys.argv) == 2:
        result["tree"] = real_tree
        result["entities"] = entities(first[2])
    if len(sys.argv) > 2:
        second = read_row(sys.argv[2])
        result["other"] = describe(*second)
        out = []
        diff(real_tree, tree(second[2]), "model", "", out)
        result["differences"] = out
    print(json.dumps(result, indent=1, sort_keys=True))


main()
