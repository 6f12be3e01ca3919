#!/usr/bin/env python3
"""Writes a large mapping and its two models for the compile benchmark.

Usage: generate-compile-input.py FOLDER [ENTITIES [ATTRIBUTES]]   (defaults: 200 entities, 20 attributes)

FOLDER gets Source.xcdatamodel/contents, Destination.xcdatamodel/contents and mapping.xml:
ENTITIES entity mappings, each setting ATTRIBUTES attributes with an explicit expression
(a mix of key paths, arithmetic, string functions and policy calls), and one relationship
through destinationInstancesForEntityMappingNamed:sourceInstances: to the next mapping.
"""
import os
import sys

folder = sys.argv[1]
entities = int(sys.argv[2]) if len(sys.argv) > 2 else 200
attributes = int(sys.argv[3]) if len(sys.argv) > 3 else 20

HEADER = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
          '<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" '
          'lastSavedToolsVersion="21513" systemVersion="22D68" minimumToolsVersion="Automatic" '
          'sourceLanguage="Swift" userDefinedModelVersionIdentifier="{version}">\n')

# Attribute k: its source type, destination type and the mapping's expression.
def attribute(k):
    kind = k % 5
    if kind == 0:
        return ("String", "String", "uppercase:($source.s{k})")
    if kind == 1:
        return ("Integer 32", "Integer 64", "$source.s{k} + 1")
    if kind == 2:
        return ("String", "Date", 'FUNCTION($entityPolicy, "dateFromString:format:", $source.s{k}, "yyyy-MM-dd")')
    if kind == 3:
        return ("Double", "Double", "$source.s{k} * 2.5")
    return ("String", "String", 'FUNCTION($entityPolicy, "defaultValue:for:", "none", $source.s{k})')

def model(side):
    out = [HEADER.format(version=side)]
    for i in range(entities):
        nxt = (i + 1) % entities
        prefix = "s" if side == "source" else "d"
        out.append(f'    <entity name="E{i}" syncable="YES">\n')
        for k in range(attributes):
            src, dst, _ = attribute(k)
            t = src if side == "source" else dst
            out.append(f'        <attribute name="{prefix}{k}" optional="YES" attributeType="{t}"/>\n')
        out.append(f'        <relationship name="next" optional="YES" maxCount="1" deletionRule="Nullify" '
                   f'destinationEntity="E{nxt}" inverseName="previous" inverseEntity="E{nxt}"/>\n')
        prev = (i - 1) % entities
        out.append(f'        <relationship name="previous" optional="YES" maxCount="1" deletionRule="Nullify" '
                   f'destinationEntity="E{prev}" inverseName="next" inverseEntity="E{prev}"/>\n')
        out.append('    </entity>\n')
    out.append('</model>\n')
    return "".join(out)

def mapping():
    out = ['<mappingModel name="Bench" formatVersion="1">\n',
           '  <sourceModel path="Source.xcdatamodel"/>\n',
           '  <destinationModel path="Destination.xcdatamodel"/>\n']
    for i in range(entities):
        nxt = (i + 1) % entities
        out.append(f'  <entityMapping name="E{i}ToE{i}" source="E{i}" destination="E{i}">\n')
        out.append(f'    <filter>s1 &gt; {i} OR s0 BEGINSWITH "x{i}"</filter>\n')
        for k in range(attributes):
            expr = attribute(k)[2].format(k=k)
            out.append(f'    <attribute name="d{k}">{expr}</attribute>\n')
        out.append(f'    <relationship name="next">FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", '
                   f'"E{nxt}ToE{nxt}", $source.next)</relationship>\n')
        out.append('  </entityMapping>\n')
    out.append('</mappingModel>\n')
    return "".join(out)

for name, side in (("Source", "source"), ("Destination", "destination")):
    os.makedirs(os.path.join(folder, f"{name}.xcdatamodel"), exist_ok=True)
    with open(os.path.join(folder, f"{name}.xcdatamodel", "contents"), "w") as f:
        f.write(model(side))
with open(os.path.join(folder, "mapping.xml"), "w") as f:
    f.write(mapping())
