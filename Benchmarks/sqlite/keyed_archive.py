"""NSKeyedArchiver archives of property-list values, with python3's plistlib only (nothing of
mapc): what Core Data stores for a Transformable attribute with the default transformer.

    archive(value) -> bytes       # list, dict (str keys), str, int, float, bool, None (NSNull
                                  # inside containers), bytes, Date
    unarchive(data) -> value      # the reverse; raises ValueError for anything else

The layout follows Foundation's NSKeyedArchiver as observed in real Core Data stores (see
mapc's Specs/sqlite-store.md §5.1 for the evidence and the guesses):
- $objects[0] = "$null"; an object is numbered when its encoding starts, so a container comes
  before its contents; equal strings, numbers and data are archived once, NSNull once;
- an NSArray is {"NS.objects": [UID…], "$class": UID}, an NSDictionary {"NS.keys": [UID…],
  "NS.objects": [UID…], "$class": UID}, an NSDate {"NS.time": float, "$class": UID};
- a class dictionary {"$classname", "$classes"} is added when the first instance of its class
  is complete;
- top: {"$version": 100000, "$objects", "$archiver": "NSKeyedArchiver", "$top": {"root": UID}}.
plistlib then writes the binary property list the way CoreFoundation does (objects numbered
depth-first, keys before values, equal strings, numbers and data once) as long as keys are not
sorted and every UID is a distinct Python object (plistlib shares identical objects only;
CoreFoundation writes each UID at each place). CoreFoundation wrote class names longer
than 7 bytes (other than NSObject) once per place in the one real archive that has one; a str
subclass of their own keeps plistlib from sharing those.
"""
import plistlib


class Date:
    """An NSDate: seconds since 2001-01-01 00:00:00 UTC."""
    __slots__ = ("seconds",)

    def __init__(self, seconds):
        self.seconds = float(seconds)

    def __eq__(self, other):
        return isinstance(other, Date) and other.seconds == self.seconds

    def __repr__(self):
        return f"Date({self.seconds!r})"


def _unshared(s):
    """A string plistlib writes as its own object: plistlib shares scalars by (type, value), so
    each place gets a str subclass of its own."""
    return type("Unshared", (str,), {})(s)


CHAINS = {"NSArray": ["NSArray", "NSObject"], "NSDictionary": ["NSDictionary", "NSObject"],
          "NSNull": ["NSNull", "NSObject"], "NSDate": ["NSDate", "NSObject"]}


def _name(s):
    return s if len(s.encode()) <= 7 or s == "NSObject" else _unshared(s)


def archive(value):
    objects = ["$null"]
    shared = {}
    classes = {}
    null = []

    def class_uid(name):
        if name not in classes:
            objects.append({"$classname": _name(name), "$classes": [_name(c) for c in CHAINS[name]]})
            classes[name] = len(objects) - 1
        return plistlib.UID(classes[name])  # a new UID object at each place: written each time

    def enc(v):
        if v is None:
            if null:
                return null[0]
            objects.append(None)
            slot = len(objects) - 1
            objects[slot] = {"$class": class_uid("NSNull")}
            null.append(slot)
            return slot
        if isinstance(v, (list, tuple)):
            objects.append(None)
            slot = len(objects) - 1
            refs = [plistlib.UID(enc(x)) for x in v]
            objects[slot] = {"NS.objects": refs, "$class": class_uid("NSArray")}
            return slot
        if isinstance(v, dict):
            objects.append(None)
            slot = len(objects) - 1
            keys = [plistlib.UID(enc(k)) for k in v]
            vals = [plistlib.UID(enc(x)) for x in v.values()]
            objects[slot] = {"NS.keys": keys, "NS.objects": vals, "$class": class_uid("NSDictionary")}
            return slot
        if isinstance(v, Date):
            objects.append(None)
            slot = len(objects) - 1
            objects[slot] = {"NS.time": v.seconds, "$class": class_uid("NSDate")}
            return slot
        if not isinstance(v, (str, bool, int, float, bytes)):
            raise TypeError(f"cannot archive {type(v).__name__}")
        key = (type(v), v)
        if key not in shared:
            objects.append(v)
            shared[key] = len(objects) - 1
        return shared[key]

    root = enc(value)
    top = {"$version": 100000, "$objects": objects, "$archiver": "NSKeyedArchiver",
           "$top": {"root": plistlib.UID(root)}}
    return plistlib.dumps(top, fmt=plistlib.FMT_BINARY, sort_keys=False)


def unarchive(data):
    """The value of an archive of NSArray, NSDictionary, NSString, NSNumber, NSDate, NSData,
    NSNull (and their mutable forms)."""
    top = plistlib.loads(data)
    if not isinstance(top, dict) or top.get("$archiver") != "NSKeyedArchiver":
        raise ValueError("not a keyed archive")
    objects = top["$objects"]

    def dec(uid, depth):
        if depth > 256:
            raise ValueError("too deep")
        o = objects[uid.data if isinstance(uid, plistlib.UID) else uid]
        if isinstance(o, (str, int, float, bool, bytes)) and o != "$null":
            return o
        if not isinstance(o, dict):
            raise ValueError(f"unexpected object {o!r}")
        name = objects[o["$class"].data]["$classname"]
        if name in ("NSArray", "NSMutableArray"):
            return [dec(u, depth + 1) for u in o["NS.objects"]]
        if name in ("NSDictionary", "NSMutableDictionary"):
            return {dec(k, depth + 1): dec(v, depth + 1) for k, v in zip(o["NS.keys"], o["NS.objects"])}
        if name in ("NSString", "NSMutableString"):
            s = o["NS.string"]
            return dec(s, depth + 1) if isinstance(s, plistlib.UID) else s
        if name == "NSDate":
            return Date(o["NS.time"])
        if name in ("NSData", "NSMutableData"):
            return o["NS.data"]
        if name == "NSNull":
            return None
        raise ValueError(f"class {name}")

    return dec(top["$top"]["root"], 0)
