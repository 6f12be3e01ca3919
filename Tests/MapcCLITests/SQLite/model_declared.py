"""What an Xcode data model's `contents` XML declares, read with python3's xml.etree alone: per
entity its parent, whether it is abstract, and the names of the attributes and relationships it
declares itself (sorted). Prints JSON {entity: {"parent", "abstract", "attributes",
"relationships"}}.

usage: model_declared.py CONTENTS
"""
import json
import sys
import xml.etree.ElementTree as ET


def main():
    root = ET.parse(sys.argv[1]).getroot()
    out = {}
    for e in root.iter("entity"):
        out[e.get("name")] = {
            "parent": e.get("parentEntity"),
            "abstract": e.get("isAbstract") == "YES",
            "attributes": sorted(a.get("name") for a in e.findall("attribute")),
            "relationships": sorted(r.get("name") for r in e.findall("relationship")),
        }
    print(json.dumps(out, sort_keys=True))


main()
