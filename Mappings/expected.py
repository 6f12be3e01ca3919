#!/usr/bin/env python3
"""Computes the expected output store of each worked example, independently of mapc.

Each example's migration is written out by hand below, following its mapping and the rules of
the contract (creation order, ids `<Entity>/<n>`, model defaults, inverses), and the entity
version hashes are computed from the model files with Core Data's algorithm (reference notes
§3.6). The result is written as the contract's store format: Python's
json.dump(indent=2, ensure_ascii=False) plus a newline.

Usage: python3 Mappings/expected.py [--check]   (--check compares with the files instead of writing)
"""
import base64
import hashlib
import json
import os
import struct
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))

TYPE_CODES = {
    "Integer 16": 100, "Integer 32": 200, "Integer 64": 300, "Decimal": 400, "Double": 500,
    "Float": 600, "String": 700, "Boolean": 800, "Date": 900, "Binary": 1000, "UUID": 1100,
    "URI": 1200, "Transformable": 1800,
}


def sha(data):
    return hashlib.sha256(data).digest()


def property_base(e):
    flags = (1 if e.get("optional") == "YES" else 0) | (2 if e.get("transient") == "YES" else 0)
    return sha(e.get("name").encode() + struct.pack("<H", flags))


def entity_hashes(contents):
    """Version hash of every entity of a model without inheritance, modifiers or constraints."""
    root = ET.parse(contents).getroot()
    hashes = {}
    for entity in root.findall("entity"):
        props = []
        for a in entity.findall("attribute"):
            if a.get("transient") == "YES":
                continue
            props.append((a.get("name"), sha(property_base(a) + struct.pack("<i", TYPE_CODES[a.get("attributeType")]))))
        for r in entity.findall("relationship"):
            data = property_base(r) + r.get("destinationEntity").encode()
            if r.get("inverseName"):
                data += r.get("inverseName").encode()
            max_count = 0 if r.get("toMany") == "YES" else 1
            data += struct.pack("<i", int(r.get("maxCount", max_count))) + struct.pack("<i", int(r.get("minCount", 0)))
            if r.get("ordered") == "YES":
                data += struct.pack("<H", 1)
            props.append((r.get("name"), sha(data)))
        data = entity.get("name").encode() + bytes([1 if entity.get("isAbstract") == "YES" else 0])
        for _, h in sorted(props, key=lambda p: p[0].encode()):
            data += h
        hashes[entity.get("name")] = base64.b64encode(sha(data)).decode()
    return root.get("userDefinedModelVersionIdentifier"), dict(sorted(hashes.items()))


def store(model_contents, objects):
    identifier, hashes = entity_hashes(model_contents)
    return {
        "metadata": {
            "format": "mapc-store", "formatVersion": 1,
            "modelVersionIdentifiers": [identifier], "entityVersionHashes": hashes,
        },
        # Entities by name; in each object `id` first, then properties by name.
        "objects": {name: [dict([("id", o["id"])] + sorted((k, v) for k, v in o.items() if k != "id"))
                           for o in objects[name]] for name in sorted(objects)},
    }


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)["objects"]


def bookshelf():
    folder = os.path.join(HERE, "bookshelf")
    src = load(os.path.join(folder, "store-v1.json"))
    books = {b["id"]: b for b in src["Book"]}
    out = {"Book": [], "Loan": [], "Tag": []}
    book_of = {}   # source book id -> destination Book
    tags_of = {}   # source book id -> destination Tags (BookToTag)
    loan_of = {}   # source loan id -> destination Loan

    # Pass 1, mapping order. BookToBook: books with a title, in store order.
    for b in src["Book"]:
        if b.get("title") is None:
            continue
        open_loans = [l for l in src["Loan"] if l["id"] in b.get("loans", []) and not l["returned"]]
        d = {"id": f"Book/{len(out['Book']) + 1}", "title": b["title"], "year": b.get("year"),
             "authorName": b.get("author") if b.get("author") is not None else "Unknown",
             "openLoans": len(open_loans), "shelf": "new arrivals", "loans": [], "tags": []}
        out["Book"].append(d)
        book_of[b["id"]] = d
    # BookToTag: the same books; one Tag per comma-separated part, trimmed, position = index.
    for b in src["Book"]:
        if b.get("title") is None:
            continue
        tags_of[b["id"]] = []
        if b.get("tags") is None:
            continue
        for i, part in enumerate(b["tags"].split(",")):
            t = {"id": f"Tag/{len(out['Tag']) + 1}", "name": part.strip(), "position": i, "book": None}
            out["Tag"].append(t)
            tags_of[b["id"]].append(t)
    # LoanToLoan: FETCH "returned == NO AND book.title != nil", in store order.
    for l in src["Loan"]:
        if l["returned"] or books[l["book"]].get("title") is None:
            continue
        d = {"id": f"Loan/{len(out['Loan']) + 1}", "borrower": l["borrower"], "book": None}
        out["Loan"].append(d)
        loan_of[l["id"]] = d

    # Pass 2, mapping order. Book.tags (explicit) and Book.loans (implicit, through the source
    # relationship); each sets the inverse to-one.
    for sid, d in book_of.items():
        for t in tags_of[sid]:
            d["tags"].append(t["id"])
            t["book"] = d["id"]
        for lid in books[sid]["loans"]:
            if lid in loan_of:
                d["loans"].append(loan_of[lid]["id"])
                loan_of[lid]["book"] = d["id"]
    # Loan.book (explicit): the Book made from the source loan's book; already in step.
    for lid, d in loan_of.items():
        target = book_of[next(l for l in src["Loan"] if l["id"] == lid)["book"]]
        d["book"] = target["id"]
        if d["id"] not in target["loans"]:
            target["loans"].append(d["id"])

    model = os.path.join(folder, "Bookshelf.xcdatamodeld", "Bookshelf 2.xcdatamodel", "contents")
    return os.path.join(folder, "expected-v2.json"), store(model, out)


def shop():
    folder = os.path.join(HERE, "shop")
    src = load(os.path.join(folder, "store-v1.json"))
    orders = {o["id"]: o for o in src["Order"]}
    out = {"Country": [], "Customer": [], "Order": [], "Settings": []}
    # AddSettings: one object; currency keeps its default.
    out["Settings"].append({"id": "Settings/1", "currency": "EUR", "customerCount": len(src["Customer"])})
    customer_of = {}
    for c in src["Customer"]:
        mine = [orders[o] for o in c["orders"]]
        total = float(sum(o["amount"] for o in mine))
        d = {"id": f"Customer/{len(out['Customer']) + 1}", "name": c["name"], "email": c["email"].lower(),
             "orderCount": len(mine), "totalSpent": total,
             # ISO 8601 UTC strings of one format order like the dates they stand for.
             "lastOrderAt": max((o["placedAt"] for o in mine), default=None),
             "vip": total > 100, "orders": []}
        out["Customer"].append(d)
        customer_of[c["id"]] = d
    order_of = {}
    for o in src["Order"]:
        d = {"id": f"Order/{len(out['Order']) + 1}", "amount": float(o["amount"]), "placedAt": o["placedAt"], "customer": None}
        out["Order"].append(d)
        order_of[o["id"]] = d
    for c in src["Country"]:
        out["Country"].append({"id": f"Country/{len(out['Country']) + 1}", "code": c["code"], "name": c["name"]})
    # Pass 2: Customer.orders (implicit) in source order, setting Order.customer; then
    # Order.customer (implicit), already in step.
    for c in src["Customer"]:
        for oid in c["orders"]:
            customer_of[c["id"]]["orders"].append(order_of[oid]["id"])
            order_of[oid]["customer"] = customer_of[c["id"]]["id"]
    model = os.path.join(folder, "Shop.xcdatamodeld", "Shop 2.xcdatamodel", "contents")
    return os.path.join(folder, "expected-v2.json"), store(model, out)


SHARED = os.path.join(os.path.dirname(os.path.dirname(HERE)), "shared")
TOPICS_MODELS = os.path.join(SHARED, "corpus", "billmoss", "CoreDataMigrations-DefaultMigration",
                             "CoreDataMigration", "Model.xcdatamodeld")


def utf16_length(text):
    """NSString's length: UTF-16 code units, so an emoji outside the BMP counts 2."""
    return len(text.encode("utf-16-le")) // 2


def check_input_hashes(path, model_contents):
    """The input store's entityVersionHashes must be the source model's (else mapc refuses it)."""
    with open(path, encoding="utf-8") as f:
        written = json.load(f)["metadata"]["entityVersionHashes"]
    if written != entity_hashes(model_contents)[1]:
        raise SystemExit(f"{path}: entityVersionHashes are not the source model's")


def topics():
    """billmoss's real Xcode mapping model Model1ToModel2 (in ../shared/corpus); None without it.

    Mapping order as in the file (mappingnumber): TopicToTopic, then TopicList (a copy).
    TopicToTopic: every attribute implicit ($source.<name>) except
    timeBudget = $source.content.length * 0.2 (NSString length in UTF-16 units; integer times
    double is a double), stored in an Integer 32 attribute: the fraction is dropped (truncated
    toward zero, as NSNumber's intValue and Core Data's SQLite store do), never rounded.
    A nil content makes nil * 0.2, which raises in Foundation and fails the run
    (store-v1-nil-content.json, not computed here).
    """
    if not os.path.isdir(TOPICS_MODELS):
        return None
    folder = os.path.join(HERE, "topics")
    path = os.path.join(folder, "store-v1.json")
    check_input_hashes(path, os.path.join(TOPICS_MODELS, "Model1.xcdatamodel", "contents"))
    src = load(path)
    out = {"Topic": [], "TopicList": []}
    topic_of, list_of = {}, {}
    # Pass 1. TopicToTopic, store order.
    for t in src["Topic"]:
        assert t["content"] is not None, "a nil content fails the run; see store-v1-nil-content.json"
        d = {"id": f"Topic/{len(out['Topic']) + 1}", "content": t["content"], "dateCreated": t.get("dateCreated"),
             "presenterEmail": t.get("presenterEmail"), "presenterName": t["presenterName"],
             "timeBudget": int(utf16_length(t["content"]) * 0.2), "topicList": None}
        out["Topic"].append(d)
        topic_of[t["id"]] = d
    # TopicListToTopicList (copy), store order.
    for l in src["TopicList"]:
        d = {"id": f"TopicList/{len(out['TopicList']) + 1}", "title": l.get("title"), "topics": []}
        out["TopicList"].append(d)
        list_of[l["id"]] = d
    # Pass 2, mapping order. Topic.topicList (implicit), topic by topic: setting it appends the
    # topic to the list's topics (inverse), so each list's topics come in Topic creation order.
    for t in src["Topic"]:
        if t.get("topicList") is not None:
            lst = list_of[t["topicList"]]
            topic_of[t["id"]]["topicList"] = lst["id"]
            lst["topics"].append(topic_of[t["id"]]["id"])
    # TopicList.topics (implicit), in the source list's order: every member is already there,
    # so nothing is added and the order stays the creation order above.
    for l in src["TopicList"]:
        for tid in l["topics"]:
            if topic_of[tid]["id"] not in list_of[l["id"]]["topics"]:
                list_of[l["id"]]["topics"].append(topic_of[tid]["id"])
                topic_of[tid]["topicList"] = list_of[l["id"]]["id"]
    model = os.path.join(TOPICS_MODELS, "Model2.xcdatamodel", "contents")
    return os.path.join(folder, "expected-v2.json"), store(model, out)


def notes():
    """Notes 1 to Notes 2 (NotesV1ToV2.xml, run as the exported NotesV1ToV2.xcmappingmodel)."""
    folder = os.path.join(HERE, "notes")
    path = os.path.join(folder, "store-v1.json")
    bundle = os.path.join(folder, "Notes.xcdatamodeld")
    check_input_hashes(path, os.path.join(bundle, "Notes.xcdatamodel", "contents"))
    src = load(path)
    notes_by_id = {n["id"]: n for n in src["Note"]}
    out = {"Note": [], "Notebook": []}
    notebook_of, note_of = {}, {}
    # Pass 1. FolderToNotebook: every folder, store order; color keeps its default.
    for f in src["Folder"]:
        d = {"id": f"Notebook/{len(out['Notebook']) + 1}", "name": f["name"], "color": "yellow", "notes": []}
        out["Notebook"].append(d)
        notebook_of[f["id"]] = d
    # NoteToNote: <filter>trashed == NO</filter> (a nil trashed would not match either).
    for n in src["Note"]:
        if n.get("trashed") is not False:
            continue
        text = n.get("text")
        d = {"id": f"Note/{len(out['Note']) + 1}", "body": text,
             "heading": n["title"] if n.get("title") is not None else "Untitled",   # "" stays ""
             "characterCount": utf16_length(text) if text is not None else 0,
             "created": n.get("created"), "pinned": n["pinned"], "notebook": None}
        out["Note"].append(d)
        note_of[n["id"]] = d
    # Pass 2, mapping order. Notebook.notes (implicit, through the source relationship): the
    # migrated notes in the folder's own order; each sets Note.notebook (inverse).
    for f in src["Folder"]:
        for nid in f["notes"]:
            if nid in note_of:
                notebook_of[f["id"]]["notes"].append(note_of[nid]["id"])
                note_of[nid]["notebook"] = notebook_of[f["id"]]["id"]
    # Note.notebook (explicit, FolderToNotebook's instance of the note's folder): already in step.
    for nid, d in note_of.items():
        folder_id = notes_by_id[nid].get("folder")
        target = notebook_of[folder_id]["id"] if folder_id is not None else None
        assert d["notebook"] == target
    model = os.path.join(bundle, "Notes 2.xcdatamodel", "contents")
    return os.path.join(folder, "expected-v2.json"), store(model, out)


def tasks():
    """The `mapc migrate` chain of `tasks/` (Tasks → Tasks 2 → Tasks 3 → Tasks 4), step by step.

    Tasks → Tasks 2 and Tasks 2 → Tasks 3 are inferred (Core Data's lightweight rules): `note`
    is renamed `details` (renaming identifier "note") and then `body` (renaming identifier
    "details"), `priority` widens from Integer 16 to 32, `done` becomes mandatory with default
    NO, TaskList becomes Project and `list` becomes `project`. Tasks 3 → Tasks 4 is the explicit
    mapping `mappings/TasksV3ToV4.xml`. Every step creates Task objects first, then the list
    entity (the order of the destination model, and of the explicit mapping); setting a Task's
    to-one list appends the Task to the list's tasks, and the list's own mapping then sets its
    tasks to its source value: `tasks` is ordered in Tasks 2-4, so the value's order (the
    source array's order) comes first, and tasks the value does not name keep their place after
    it (Specs/functions.md §8.3). Returns the input stores at versions 1-3 and the expected
    results of migrating each to Tasks 4.
    """
    folder = os.path.join(HERE, "tasks")
    bundle = os.path.join(folder, "Tasks.xcdatamodeld")
    model = lambda v: os.path.join(bundle, v + ".xcdatamodel", "contents")
    names = ["Tasks", "Tasks 2", "Tasks 3", "Tasks 4"]

    def step(objects, task_key, list_key, convert_task, convert_list, to_list, to_task_rel, to_list_entity):
        lists_in = objects[list_key]
        tasks_in = objects[task_key]
        task_id = {t["id"]: f"Task/{i + 1}" for i, t in enumerate(tasks_in)}
        list_id = {l["id"]: f"{to_list_entity}/{i + 1}" for i, l in enumerate(lists_in)}
        members = {list_id[l["id"]]: [] for l in lists_in}
        tasks_out = []
        for t in tasks_in:
            o = convert_task(t)
            o["id"] = task_id[t["id"]]
            owner = t[to_task_rel[0]]
            o[to_task_rel[1]] = list_id[owner] if owner is not None else None
            if owner is not None:
                members[list_id[owner]].append(o["id"])
            tasks_out.append(o)
        lists_out = []
        for l in lists_in:
            o = convert_list(l)
            o["id"] = list_id[l["id"]]
            value = [task_id[t] for t in l["tasks"]]
            o["tasks"] = value + [t for t in members[o["id"]] if t not in value]
            lists_out.append(o)
        return {"Task": tasks_out, to_list: lists_out}

    def v1_to_v2(objects):
        return step(objects, "Task", "TaskList",
                    lambda t: {"title": t["title"], "details": t["note"], "priority": t["priority"],
                               "done": t["done"], "tag": None},
                    lambda l: {"name": l["name"]}, "TaskList", ("list", "list"), "TaskList")

    def v2_to_v3(objects):
        return step(objects, "Task", "TaskList",
                    lambda t: {"title": t["title"], "body": t["details"], "priority": t["priority"],
                               "done": t["done"] if t["done"] is not None else False, "tag": t["tag"]},
                    lambda l: {"name": l["name"]}, "Project", ("list", "project"), "Project")

    def v3_to_v4(objects):
        def label(p):  # TERNARY($source.priority >= 2, "high", "normal"); nil >= 2 is false
            return "high" if p is not None and p >= 2 else "normal"
        return step(objects, "Task", "Project",
                    lambda t: {"title": t["title"], "body": t["body"], "done": t["done"], "tag": t["tag"],
                               "priorityLabel": label(t["priority"])},
                    lambda l: {"name": l["name"], "taskCount": len(l["tasks"])}, "Project",
                    ("project", "project"), "Project")

    steps = [v1_to_v2, v2_to_v3, v3_to_v4]
    mapping_of = ["inferred", "inferred", "TasksV3ToV4.xml"]

    v1 = {
        "Task": [
            {"id": "t1", "title": "Buy milk", "note": "2 litres", "priority": 1, "done": False, "list": "home"},
            {"id": "t2", "title": "Write report", "note": None, "priority": 3, "done": None, "list": "work"},
            {"id": "t3", "title": "Fix bike", "note": "back tyre", "priority": None, "done": True, "list": "home"},
            {"id": "t4", "title": "Call Ann", "note": "about the trip", "priority": 2, "done": False, "list": "work"},
            {"id": "t5", "title": "Read", "note": "ünïcödé \"quoted\"", "priority": 0, "done": None, "list": None},
        ],
        "TaskList": [
            {"id": "home", "name": "Home", "tasks": ["t3", "t1"]},
            {"id": "work", "name": "Work", "tasks": ["t2", "t4"]},
            {"id": "empty", "name": "Empty", "tasks": []},
        ],
    }
    v2 = v1_to_v2(v1)
    v3 = {
        "Task": [
            {"id": "a", "title": "Plan trip", "body": "train or plane", "priority": 5, "done": False, "tag": "travel", "project": "p2"},
            {"id": "b", "title": "Pack", "body": None, "priority": None, "done": True, "tag": None, "project": "p2"},
            {"id": "c", "title": "Water plants", "body": "twice", "priority": 1, "done": False, "tag": "home", "project": "p1"},
        ],
        "Project": [
            {"id": "p1", "name": "Garden", "tasks": ["c"]},
            {"id": "p2", "name": "Holiday", "tasks": ["b", "a"]},
        ],
    }
    results = []
    for start, objects in ((0, v1), (1, v2), (2, v3)):
        results.append((os.path.join(folder, f"store-v{start + 1}.json"), store(model(names[start]), objects)))
        records = []
        for k in range(start, 3):
            objects = steps[k](objects)
            records.append({"from": names[k], "to": names[k + 1], "mapping": mapping_of[k]})
        expected = store(model(names[3]), objects)
        expected["metadata"]["mapcMigrations"] = records
        results.append((os.path.join(folder, f"expected-from-v{start + 1}.json"), expected))
    return results


def main():
    check = "--check" in sys.argv
    failed = False
    results = [bookshelf(), shop(), topics(), notes()]
    if results[2] is None:
        print(f"{SHARED} is absent: topics/expected-v2.json is not computed")
    results += tasks()
    for path, value in (r for r in results if r is not None):
        text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
        if check:
            with open(path, encoding="utf-8") as f:
                if f.read() != text:
                    print(f"{path}: differs")
                    failed = True
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
