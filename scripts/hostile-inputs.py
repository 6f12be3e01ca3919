#!/usr/bin/env python3
"""Writes the inputs of the scaling measurements of issue 17 into a folder (default
./hostile): each is a case that used to take superlinear time. Usage:
  scripts/hostile-inputs.py [FOLDER]
Then time, for example:
  mapc hash FOLDER/chain2000.xcdatamodel
  mapc hash FOLDER/cycle2000.xcdatamodel
  mapc hash FOLDER/attrs20000.xcdatamodel       (refused quickly, after reading every attribute)
  mapc run FOLDER/m.xml --store FOLDER/pets50000.json --output /tmp/out.json
  mapc run FOLDER/m.xml --store FOLDER/errors40000.json --dry-run --max-errors 0
"""
import os, sys

folder = sys.argv[1] if len(sys.argv) > 1 else "hostile"
os.makedirs(folder, exist_ok=True)
HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">\n'


def model(name, body):
    os.makedirs(f"{folder}/{name}.xcdatamodel", exist_ok=True)
    with open(f"{folder}/{name}.xcdatamodel/contents", "w") as f:
        f.write(HEAD + body + "</model>\n")


def chain(n, cycle):
    lines = []
    for i in range(n):
        parent = f' parentEntity="E{i - 1}"' if i > 0 else (f' parentEntity="E{n - 1}"' if cycle else "")
        lines.append(f'<entity name="E{i}"{parent}><attribute name="a{i}" optional="YES" attributeType="String"/></entity>\n')
    return "".join(lines)


model("chain2000", chain(2000, False))
model("cycle2000", chain(2000, True))
model("attrs20000", '<entity name="E" ' + " ".join(f'a{i}="x"' for i in range(20000)) + "/>\n")

people = """<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/>
<relationship name="pets" optional="YES" toMany="YES" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/></entity>
<entity name="Pet"><attribute name="name" optional="YES" attributeType="String"/>
<relationship name="owner" optional="YES" maxCount="1" destinationEntity="Person" inverseName="pets" inverseEntity="Person"/></entity>
"""
model("v1", people)
model("v2", people)
with open(f"{folder}/m.xml", "w") as f:
    f.write("""<mappingModel name="People" formatVersion="1">
  <sourceModel path="v1.xcdatamodel"/>
  <destinationModel path="v2.xcdatamodel"/>
  <entityMapping name="PetToPet" type="transform" source="Pet" destination="Pet"/>
  <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
    <relationship name="pets">FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "pets", $source.pets)</relationship>
  </entityMapping>
</mappingModel>
""")
n = 50000
with open(f"{folder}/pets{n}.json", "w") as f:
    pets = ", ".join(f'"x{i}"' for i in range(n))
    f.write('{"objects": {"Person": [{"id": "p1", "name": "Ann", "pets": [' + pets + ']}],\n"Pet": [')
    f.write(",\n".join(f'{{"id": "x{i}", "name": "P{i}"}}' for i in range(n)))
    f.write("]}}\n")
n = 40000
with open(f"{folder}/errors{n}.json", "w") as f:
    f.write('{"objects": {"Pet": [' + ", ".join(f'{{"id": "x{i}", "name": {i}}}' for i in range(n)) + "]}}\n")
