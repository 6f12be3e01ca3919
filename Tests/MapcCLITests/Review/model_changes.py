"""What changed between two Xcode model versions, read from their `contents` XML with python3's
xml.etree alone (the oracle of ModelDiffTests; independent of mapc's model reader). A
destination entity or property matches the source one its renamingIdentifier names, else the one
of its own name, as Core Data matches them. Prints JSON:
{"added": [...], "removed": [...], "renamed": {new: old},
 "entities": {name: {"added": [...], "removed": [...], "renamed": {new: old}}}}
listing, for entities in both, only those whose stored properties were added, removed or renamed.

usage: model_changes.py SOURCE_CONTENTS DESTINATION_CONTENTS
"""
import json
import sys
import xml.etree.ElementTree as ET


def entities(path):
    root = ET.parse(path).getroot()
    result = {}
    for e in root.iter("entity"):
        props = {}
        for p in e:
            if p.tag in ("attribute", "relationship"):
                props[p.get("name")] = (p.tag, p.get("elementID"))
        result[e.get("name")] = (e.get("elementID"), props)
    return result


def match(source, destination):
    """(pairs new→old, added, removed) by renaming identifier, else name."""
    pairs, used = {}, set()
    for name, (renaming, _) in destination.items():
        old = renaming if renaming in source else (name if name in source else None)
        if old is not None and old not in used:
            pairs[name] = old
            used.add(old)
    added = sorted(n for n in destination if n not in pairs)
    removed = sorted(n for n in source if n not in used)
    return pairs, added, removed


source, destination = entities(sys.argv[1]), entities(sys.argv[2])
pairs, added, removed = match(source, destination)
out = {"added": added, "removed": removed, "renamed": {n: o for n, o in pairs.items() if n != o}, "entities": {}}
for new, old in pairs.items():
    sp = {k: (v[1], v[0]) for k, v in source[old][1].items()}
    dp = {k: (v[1], v[0]) for k, v in destination[new][1].items()}
    # A property matches only one of its own kind (attribute or relationship).
    ppairs, pused = {}, set()
    for name, (renaming, kind) in dp.items():
        for candidate in (renaming, name):
            if candidate in sp and candidate not in pused and sp[candidate][1] == kind:
                ppairs[name] = candidate
                pused.add(candidate)
                break
    padded = sorted(n for n in dp if n not in ppairs)
    premoved = sorted(n for n in sp if n not in pused)
    prenamed = {n: o for n, o in ppairs.items() if n != o}
    if padded or premoved or prenamed:
        out["entities"][new] = {"added": padded, "removed": premoved, "renamed": prenamed}
print(json.dumps(out, sort_keys=True))
