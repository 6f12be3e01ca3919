#!/usr/bin/env python3
"""Checks a migrated diary store against its input without holding either in memory.

    stream_check.py IN.json OUT.json

For stores too large for the Python peer (../shared/bench/diary.py, which loads the whole store),
this applies the peer's per-record rule (its `day` and `question_text` functions, imported from
it, and the objects it builds for each record) to the input's records one at a time, read
incrementally with json.JSONDecoder.raw_decode, and renders each object as the peer's
json.dump(indent=2, ensure_ascii=False) would place it. It hashes each entity's section of that
expected text (the lines between `    "Entity": [` and its closing `    ]`), hashes the same
sections of OUT.json read line by line, and compares them, and the metadata text. Memory stays
flat: one record, one object and the hashers at a time.

Only the indented form is checked. Exit status 0 when every section agrees, 1 otherwise (the
sections that differ are named), 2 when the input breaks a rule of the peer (no usable date,
empty question text). Cross-check: on a store the peer can take, run the peer and this checker on
the peer's own output (it must agree), then on mapc's.
"""
import hashlib
import json
import os
import re
from json.encoder import encode_basestring
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "bench"))
import diary  # noqa: E402  the peer: its per-record rule and its metadata

BLOCK = 1 << 20


class Records:
    """The objects of one entity array of a JSON store, read incrementally."""

    def __init__(self, path, entity):
        self.f = open(path, encoding="utf-8")
        self.buf = ""
        self.pos = 0
        self.decoder = json.JSONDecoder()
        # The entity's key with an array after it (the metadata names entities too, with strings).
        marker = re.compile(r'"%s"\s*:\s*\[' % re.escape(entity))
        while True:
            m = marker.search(self.buf, self.pos)
            if m:
                self.pos = m.end()
                break
            if not self._more():
                raise SystemExit(f"{path}: no array {entity}")

    def _more(self):
        chunk = self.f.read(BLOCK)
        if not chunk:
            return False
        self.buf = self.buf[self.pos:] + chunk
        self.pos = 0
        return True

    def __iter__(self):
        while True:
            while True:
                while self.pos < len(self.buf) and self.buf[self.pos] in " \t\r\n,":
                    self.pos += 1
                if self.pos < len(self.buf):
                    break
                if not self._more():
                    return
            if self.buf[self.pos] == "]":
                return
            while True:
                try:
                    obj, end = self.decoder.raw_decode(self.buf, self.pos)
                    # An object ends with "}": a decode that ends at the buffer's end may be
                    # cut only if more bytes follow, which raw_decode would have failed on.
                    self.pos = end
                    yield obj
                    break
                except json.JSONDecodeError:
                    if not self._more():
                        raise


def scalar(v):
    """A value as json.dumps(v, ensure_ascii=False) writes it (the types the peer's objects hold)."""
    if isinstance(v, str):
        return encode_basestring(v)
    if v is None:
        return "null"
    if isinstance(v, bool) or not isinstance(v, int):
        return json.dumps(v, ensure_ascii=False)
    return str(v)


def render(obj):
    """An object at depth 3 as json.dump(indent=2, ensure_ascii=False) places it, without the
    newline after it: the same text as its json.dumps lines indented by six spaces, made by hand
    for speed (lists of scalars and scalars; anything else goes through json.dumps)."""
    parts = ["      {"]
    items = list(obj.items())
    for k, (key, v) in enumerate(items):
        end = "," if k < len(items) - 1 else ""
        if isinstance(v, list):
            if not v:
                parts.append(f"        {encode_basestring(key)}: []{end}")
                continue
            if any(isinstance(x, (list, dict)) for x in v):
                text = json.dumps(obj, indent=2, ensure_ascii=False)
                return "\n".join("      " + line for line in text.split("\n"))
            parts.append(f"        {encode_basestring(key)}: [")
            parts.append(",\n".join("          " + scalar(x) for x in v))
            parts.append(f"        ]{end}")
        elif isinstance(v, dict):
            text = json.dumps(obj, indent=2, ensure_ascii=False)
            return "\n".join("      " + line for line in text.split("\n"))
        else:
            parts.append(f"        {encode_basestring(key)}: {scalar(v)}{end}")
    parts.append("      }")
    return "\n".join(parts)


class Section:
    """The hash of one entity's objects as json.dump(indent=2) places them at depth 3."""

    def __init__(self):
        self.h = hashlib.sha256()
        self.pending = None
        self.count = 0

    def add(self, obj):
        if self.pending is not None:
            self.h.update((self.pending + ",\n").encode("utf-8"))
        self.pending = render(obj)
        self.count += 1

    def digest(self):
        if self.pending is not None:
            self.h.update((self.pending + "\n").encode("utf-8"))
            self.pending = None
        return self.h.hexdigest()


def expected(src):
    """The sections the peer's rule gives for the input, and the input's object counts."""
    s = {e: Section() for e in ("DayRecord", "Question", "SectionRecord", "Template", "TemplateQuestion")}
    tq = 0
    for i, q in enumerate(Records(src, "Questions"), 1):
        ids = []
        for j, text in enumerate(q.get("questions") or []):
            tq += 1
            s["TemplateQuestion"].add({"id": f"TemplateQuestion/{tq}", "order": j, "template": f"Template/{i}",
                                       "text": diary.question_text(text, q["id"], "TemplateQuestion"), "type": 0})
            ids.append(f"TemplateQuestion/{tq}")
        s["Template"].add({"id": f"Template/{i}", "createdAt": diary.REFERENCE_DATE, "name": "Default",
                           "questions": ids})
    qn = 0
    for i, r in enumerate(Records(src, "Records"), 1):
        s["DayRecord"].add({"id": f"DayRecord/{i}", "date": diary.day(r.get("date"), r["id"]),
                            "sections": [f"SectionRecord/{i}"]})
        answers = r.get("answers")
        qids = []
        for j, text in enumerate(r.get("questions") or []):
            qn += 1
            answer = answers[j] if isinstance(answers, list) and j < len(answers) else None
            s["Question"].add({"id": f"Question/{qn}", "answer": answer, "order": j,
                               "section": f"SectionRecord/{i}",
                               "text": diary.question_text(text, r["id"], "Question"), "type": 0})
            qids.append(f"Question/{qn}")
        s["SectionRecord"].add({"id": f"SectionRecord/{i}", "dayRecord": f"DayRecord/{i}", "questions": qids,
                                "sortField": r["date"], "templateName": "Default"})
    return {e: (v.digest(), v.count) for e, v in s.items()}


def actual(dst):
    """The sections of the output as written, and its metadata text."""
    sections = {}
    head = []
    current = None
    h = None
    in_objects = False
    with open(dst, encoding="utf-8") as f:
        for line in f:
            if not in_objects:
                head.append(line)
                in_objects = line == '  "objects": {\n'
            elif current is None:
                if line.startswith('    "') and line.rstrip("\n").endswith("["):
                    current = json.loads(line.strip()[:-2].rstrip(":"))
                    h = hashlib.sha256()
                elif line.startswith('    "') and line.rstrip("\n").endswith("[],"):
                    sections[json.loads(line.strip().split(":")[0])] = hashlib.sha256().hexdigest()
                elif line.startswith('    "') and line.rstrip("\n").endswith("[]"):
                    sections[json.loads(line.strip().split(":")[0])] = hashlib.sha256().hexdigest()
            elif line in ("    ]\n", "    ],\n"):
                sections[current] = h.hexdigest()
                current = None
            else:
                h.update(line.encode("utf-8"))
    return sections, "".join(head)


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: stream_check.py IN.json OUT.json\n")
        return 64
    src, dst = argv
    try:
        want = expected(src)
    except diary.MigrationError as e:
        sys.stderr.write(f"{src}: error: {e}\n")
        return 2
    got, head = actual(dst)
    meta = json.dumps({"metadata": diary.DEST_METADATA}, indent=2, ensure_ascii=False)
    want_head = meta[: meta.rindex("}")].rstrip() + ',\n  "objects": {\n'
    bad = [e for e in want if got.get(e) != want[e][0]]
    if head != want_head:
        bad.append("metadata")
    counts = ", ".join(f"{e} {want[e][1]}" for e in sorted(want))
    if bad:
        print(f"differ: {', '.join(bad)} (expected {counts})")
        return 1
    print(f"agree: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
