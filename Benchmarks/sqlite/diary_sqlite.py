#!/usr/bin/env python3
"""Benchmark peer: the SQADMappingModel1_2 migration (fixtures/diary) from a Core Data SQLite
store of the source model to one of the destination model, in plain Python (sqlite3, plistlib
through keyed_archive.py; nothing of mapc).

    diary_sqlite.py IN.sqlite OUT.sqlite

Reads Questions and Records (Transformable `questions`/`answers` unarchived), makes Template,
TemplateQuestion, DayRecord, SectionRecord and Question as the mapping does, and writes the
store Core Data creates for SimpleQADiary 2 (tables, columns in rank order, foreign keys,
Z_FOK_ positions 2048 + 1024 x index, indexes, Z_PRIMARYKEY, Z_METADATA with the destination
hashes, digest and checksum, the source's UUID and framework version; page 4096, incremental
auto-vacuum, one transaction, WAL). Z_PK numbering: objects in the order the mapping creates
them. Exits with 2 and writes nothing when the source's hashes are not the source model's, or
a record has no usable date or an empty question.
"""
import base64
import datetime
import hashlib
import os
import plistlib
import sqlite3
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from keyed_archive import unarchive  # noqa: E402

SOURCE_HASHES = {
    "Questions": "x/26kMi1F8IaoSI4G5HDxRettQgZyNWu66T0OZ/3fjA=",
    "Records": "YrDXtQ8GUYBl6QduITdR0BJQrdnMeML+lpBnlSQa8Qg=",
}
DEST_HASHES = {
    "DayRecord": "X+Lqt3QaweuZ4TuY5SgWy6u3rnEfgQKc6yWwxizFGiE=",
    "Question": "CQLGMAplp3XSk99gbNMn7l3S2B7j7n7v0OnyJYBEN5I=",
    "SectionRecord": "vLgRrmEq8ON8Q0HOoHrgEmwml1FeXEEEIGHJhZzneeM=",
    "Template": "UCTIvk3HFfgIZBHnq7XpVxJ1OlsAS8pAreXpyPXeC7Q=",
    "TemplateQuestion": "A08qKCfkK5xAsLMprbrKqdZl8ZqtKz3j3tBW0VtNY/w=",
}
SCHEMA = [
    "CREATE TABLE ZDAYRECORD ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDATE TIMESTAMP )",
    "CREATE TABLE ZQUESTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZORDER INTEGER, ZTYPE INTEGER, "
    "ZSECTION INTEGER, Z_FOK_SECTION INTEGER, ZANSWER VARCHAR, ZTEXT VARCHAR )",
    "CREATE TABLE ZSECTIONRECORD ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDAYRECORD INTEGER, "
    "Z_FOK_DAYRECORD INTEGER, ZSORTFIELD VARCHAR, ZTEMPLATENAME VARCHAR )",
    "CREATE TABLE ZTEMPLATE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATEDAT TIMESTAMP, ZNAME VARCHAR )",
    "CREATE TABLE ZTEMPLATEQUESTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZORDER INTEGER, ZTYPE INTEGER, "
    "ZTEMPLATE INTEGER, Z_FOK_TEMPLATE INTEGER, ZTEXT VARCHAR )",
    "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
    "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
    "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
    "CREATE INDEX ZQUESTION_ZSECTION_INDEX ON ZQUESTION (ZSECTION)",
    "CREATE INDEX ZSECTIONRECORD_ZDAYRECORD_INDEX ON ZSECTIONRECORD (ZDAYRECORD)",
    "CREATE INDEX ZTEMPLATEQUESTION_ZTEMPLATE_INDEX ON ZTEMPLATEQUESTION (ZTEMPLATE)",
]
EPOCH = datetime.date(2001, 1, 1).toordinal()


class MigrationError(Exception):
    pass


def day(value, oid):
    """dateFromString:format: with yyyy-MM-dd in UTC, as seconds since 2001."""
    try:
        d = datetime.datetime.strptime(value, "%Y-%m-%d").date()
    except (TypeError, ValueError):
        raise MigrationError(f"{oid}: DayRecord.date is mandatory but {value!r} is not a yyyy-MM-dd date")
    return float((d.toordinal() - EPOCH) * 86400)


def text(t, oid, entity):
    if not isinstance(t, str) or t == "":
        raise MigrationError(f"{oid}: {entity}.text is mandatory and must not be empty")
    return t


def metadata(source_plist):
    hashes = {k: base64.b64decode(v) for k, v in DEST_HASHES.items()}
    names = sorted(hashes, key=lambda n: n.encode())
    return plistlib.dumps({
        "NSPersistenceFrameworkVersion": source_plist.get("NSPersistenceFrameworkVersion", 1344),
        "NSStoreModelVersionChecksumKey": base64.b64encode(hashlib.sha256(b"".join(hashes[n] for n in names)).digest()).decode(),
        "NSStoreModelVersionHashes": hashes,
        "NSStoreModelVersionHashesDigest": base64.b64encode(
            hashlib.sha512(b"".join(n.encode() + hashes[n] for n in names)).digest()).decode(),
        "NSStoreModelVersionHashesVersion": 3,
        "NSStoreModelVersionIdentifiers": ["2"],
        "NSStoreType": "SQLite",
        "_NSAutoVacuumLevel": "2",
    }, fmt=plistlib.FMT_BINARY)


def migrate(src, out):
    s = sqlite3.connect(f"file:{src}?mode=ro", uri=True)
    uuid, plist = s.execute("SELECT Z_UUID, Z_PLIST FROM Z_METADATA").fetchone()
    meta = plistlib.loads(plist)
    hashes = meta.get("NSStoreModelVersionHashes", {})
    bad = [e for e in sorted(SOURCE_HASHES) if base64.b64encode(hashes.get(e, b"")).decode() != SOURCE_HASHES[e]]
    if bad:
        raise MigrationError("store does not match the source model; entity version hashes differ for " + ", ".join(bad))

    tmp = out + ".tmp"
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(tmp + suffix):
            os.remove(tmp + suffix)
    d = sqlite3.connect(tmp, isolation_level=None)
    try:
        d.execute("PRAGMA page_size = 4096")
        d.execute("PRAGMA auto_vacuum = 2")
        d.execute("PRAGMA synchronous = OFF")
        d.execute("BEGIN")
        for statement in SCHEMA:
            d.execute(statement)
        # QuestionsToTemplate, then QuestionsToTemplateQuestion (forEach $source.questions)
        templates = []
        template_questions = []
        for t, (pk, blob) in enumerate(s.execute("SELECT Z_PK, ZQUESTIONS FROM ZQUESTIONS ORDER BY Z_PK"), 1):
            templates.append((t, 4, 1, 0.0, "Default"))
            for j, q in enumerate(unarchive(blob) if blob is not None else []):
                template_questions.append((len(template_questions) + 1, 5, 1, j, 0, t, 2048 + 1024 * j,
                                           text(q, f"Questions/{pk}", "TemplateQuestion")))
        d.executemany("INSERT INTO ZTEMPLATE VALUES (?, ?, ?, ?, ?)", templates)
        d.executemany("INSERT INTO ZTEMPLATEQUESTION VALUES (?, ?, ?, ?, ?, ?, ?, ?)", template_questions)
        # RecordsToDayRecord, RecordsToSectionRecord, RecordsToQuestion (one section and one day
        # per record, in record order; questions per (question, answer) pair)
        days = []
        sections = []
        questions = []
        for i, (pk, date, answers, qs) in enumerate(
                s.execute("SELECT Z_PK, ZDATE, ZANSWERS, ZQUESTIONS FROM ZRECORDS ORDER BY Z_PK"), 1):
            oid = f"Records/{pk}"
            days.append((i, 1, 1, day(date, oid)))
            sections.append((i, 3, 1, i, 2048, date, "Default"))
            answers = unarchive(answers) if answers is not None else None
            for j, q in enumerate(unarchive(qs) if qs is not None else []):
                answer = answers[j] if isinstance(answers, list) and j < len(answers) else None
                questions.append((len(questions) + 1, 2, 1, j, 0, i, 2048 + 1024 * j, answer, text(q, oid, "Question")))
        d.executemany("INSERT INTO ZDAYRECORD VALUES (?, ?, ?, ?)", days)
        d.executemany("INSERT INTO ZQUESTION VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", questions)
        d.executemany("INSERT INTO ZSECTIONRECORD VALUES (?, ?, ?, ?, ?, ?, ?)", sections)
        d.executemany("INSERT INTO Z_PRIMARYKEY VALUES (?, ?, 0, ?)", [
            (1, "DayRecord", len(days)), (2, "Question", len(questions)), (3, "SectionRecord", len(sections)),
            (4, "Template", len(templates)), (5, "TemplateQuestion", len(template_questions))])
        d.execute("INSERT INTO Z_METADATA VALUES (1, ?, ?)", (uuid, metadata(meta)))
        d.execute("COMMIT")
        d.execute("PRAGMA journal_mode = WAL")
        d.close()
    except BaseException:
        d.close()
        os.remove(tmp)
        raise
    os.replace(tmp, out)


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: diary_sqlite.py IN.sqlite OUT.sqlite\n")
        return 64
    try:
        migrate(*argv)
    except MigrationError as e:
        sys.stderr.write(f"{argv[0]}: error: {e}\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
