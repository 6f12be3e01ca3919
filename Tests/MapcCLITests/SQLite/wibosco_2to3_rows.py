#!/usr/bin/env python3
"""Checks the rows of wibosco's version 2 store migrated to version 3 (python3's sqlite3 only,
nothing of mapc). The expectation is computed from the version 2 store's rows, as the app's
Post2ToPost3MigrationPolicy makes them: every post kept with its date, hexColor and postID, and
one Section per post with body = the post's content, title = content's first four characters
followed by "..." (nil for nil content), index 0, its ZPOST naming the post (the to-one; the
to-many Post.sections is its inverse, read through the same column). The real version 3 store,
which Core Data wrote with that policy and then the app added two posts to, must hold the same
post and section for every version 2 post, so the expectation is Core Data's too.

Prints JSON: {"posts": n, "sections": n, "problems": [...]}; no problems means the rows are right.

    wibosco_2to3_rows.py V2_STORE MIGRATED_STORE REAL_V3_STORE
"""
import json, os, sqlite3, sys

sys.dont_write_bytecode = True  # no __pycache__ in the package
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from store_copy import store_copy

v2_path, out_path, real_path = sys.argv[1:4]


def read(path, query):
    with store_copy(path) as copy:
        db = sqlite3.connect(copy)
        rows = db.execute(query).fetchall()
        keys = {name: (ent, mx) for ent, name, mx in db.execute("SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY")}
        db.close()
    return rows, keys


def expected_section(content):
    # The policy's `content?.prefix(4).appending("...")`; python slices code points where Swift
    # counts characters, the same for these stores' texts (no combining marks in their first four).
    return {"title": None if content is None else content[:4] + "...", "body": content, "index": 0}


def migrated(path):
    """postID -> {"post": {...}, "sections": [...]} from a version 3 store, with problems."""
    posts, keys = read(path, "SELECT Z_PK, Z_ENT, ZDATE, ZHEXCOLOR, ZPOSTID FROM ZPOST")
    sections, _ = read(path, "SELECT Z_PK, Z_ENT, ZPOST, ZTITLE, ZBODY, ZINDEX FROM ZSECTION")
    problems = []
    by_pk, result = {}, {}
    for pk, ent, date, hex_color, post_id in posts:
        if ent != keys["Post"][0]:
            problems.append(f"{path}: ZPOST row {pk} has Z_ENT {ent}")
        if post_id in result:
            problems.append(f"{path}: two posts have postID {post_id}")
        by_pk[pk] = post_id
        result[post_id] = {"post": {"date": date, "hexColor": hex_color, "postID": post_id}, "sections": []}
    for pk, ent, post, title, body, index in sections:
        if ent != keys["Section"][0]:
            problems.append(f"{path}: ZSECTION row {pk} has Z_ENT {ent}")
        if post not in by_pk:
            problems.append(f"{path}: section {pk} names post {post}, which is not a post")
            continue
        result[by_pk[post]]["sections"].append({"title": title, "body": body, "index": index})
    return result, posts, sections, keys, problems


v2_rows, _ = read(v2_path, "SELECT ZDATE, ZHEXCOLOR, ZPOSTID, ZCONTENT FROM ZPOST")
expected = {
    post_id: {"post": {"date": date, "hexColor": hex_color, "postID": post_id}, "sections": [expected_section(content)]}
    for date, hex_color, post_id, content in v2_rows
}

got, posts, sections, keys, problems = migrated(out_path)
if len(expected) != len(v2_rows):
    problems.append("the version 2 store has two posts with the same postID")
if got != expected:
    for post_id in sorted(set(got) | set(expected), key=str):
        if got.get(post_id) != expected.get(post_id):
            problems.append(f"post {post_id}: migrated {got.get(post_id)!r}, expected {expected.get(post_id)!r}")
# Z_MAX is the largest primary key handed out per entity.
for name, table_rows in (("Post", posts), ("Section", sections)):
    largest = max((r[0] for r in table_rows), default=0)
    if keys.get(name, (None, None))[1] != largest:
        problems.append(f"Z_PRIMARYKEY.Z_MAX of {name} is {keys.get(name)}, largest Z_PK {largest}")

real, _, _, _, real_problems = migrated(real_path)
problems += real_problems
for post_id, want in expected.items():
    if real.get(post_id) != want:
        problems.append(f"the real version 3 store has {real.get(post_id)!r} for post {post_id}, expected {want!r}")

print(json.dumps({"posts": len(posts), "sections": len(sections), "problems": problems}, sort_keys=True))
