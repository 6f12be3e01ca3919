#!/usr/bin/env python3
"""The SongbookSimple migration (Examples/SongbookSimple), written independently of mapc.

    songbook_simple_expected.py STORE.json OUT.json

Computes what `SongbookSimple run SongbookSimple1_2.xml --store STORE.json --output OUT.json`
must write, from the rules in Examples/SongbookSimple/README.md, and writes it in the store
format (json.dump with indent=2, ensure_ascii=False, then a newline). Exits with 2 and a message
when the policy's custom validation must refuse the store (two songs with the same slug).
The destination entity version hashes are those `mapc hash` prints for the model.
"""
import datetime
import json
import sys
import unicodedata

DEST_HASHES = {
    "Artist": "fb/nlU56L+q9bTrxik1uQFNfNDeLmNRaokevwuBwE9Q=",
    "Library": "c1JktrKEPcnzLtQ536NN+2IjpypDMtahDZ1E+NqwXLE=",
    "Song": "Ag/0SU6VVPdfUM9z52eQn9NQqf3iK7wNinnYtnVOfG8=",
    "Tag": "4lc3ps1LVWNEu2NmuRUssMi2lb4+mrTA9PtXA3c2LQw=",
}


def slugify(text):
    """NFD, drop nonspacing marks, lowercase, runs of anything but a-z and 0-9 become '-'."""
    plain = "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn").lower()
    out, pending = [], False
    for c in plain:
        if "a" <= c <= "z" or "0" <= c <= "9":
            if pending and out:
                out.append("-")
            out.append(c)
            pending = False
        else:
            pending = True
    return "".join(out)


def slug(title, artist):
    s = slugify(title if title is not None else "Untitled") or "untitled"
    if artist is not None and slugify(artist):
        s += "-" + slugify(artist)
    return s


def seconds(duration):
    if duration is None:
        return None
    minutes, secs = duration.split(":")
    return int(minutes) * 60 + int(secs)


def released(text):
    if text is None:
        return None
    day, month, year = (int(x) for x in text.split("."))
    return datetime.date(year, month, day).isoformat() + "T00:00:00Z"


def main():
    store_path, out_path = sys.argv[1], sys.argv[2]
    with open(store_path, encoding="utf-8") as f:
        sources = json.load(f)["objects"]["LegacySong"]

    library = {"id": "Library/1", "name": "My Songbook", "skippedCount": 0, "songCount": 0, "songs": []}
    songs, tags, artists = [], [], []
    tag_by_name, artist_by_name = {}, {}
    origin = {}  # song id -> source id
    skipped = 0

    # Pass 1, AddLibrary: Library/1 (created first: its mapping comes first).
    # Pass 1, LegacySongToSong: one Song per source that is not deleted, tags split and shared.
    for src in sources:
        if src.get("deleted"):
            skipped += 1
            continue
        title = src.get("title")
        trimmed = title.strip() if title is not None else None
        song = {
            "id": f"Song/{len(songs) + 1}",
            "artist": None,
            "library": None,
            "releasedAt": released(src.get("released")),
            "seconds": seconds(src.get("duration")),
            "slug": slug(title, src.get("artist")),
            "tags": [],
            "title": trimmed if trimmed is not None else "Untitled",
        }
        songs.append(song)
        origin[song["id"]] = src["id"]
        names = []
        for piece in (src.get("tags") or "").split(","):
            name = piece.strip().lower()
            if name and name not in names:
                names.append(name)
        for name in names:
            tag = tag_by_name.get(name)
            if tag is None:
                tag = {"id": f"Tag/{len(tags) + 1}", "name": name, "songs": []}
                tags.append(tag)
                tag_by_name[name] = tag
            song["tags"].append(tag["id"])
            tag["songs"].append(song["id"])
    # endInstanceCreation: one Artist per distinct trimmed artist name, in song order.
    for song, src in zip(songs, [s for s in sources if not s.get("deleted")]):
        name = (src.get("artist") or "").strip()
        if not name:
            continue
        artist = artist_by_name.get(name)
        if artist is None:
            artist = {"id": f"Artist/{len(artists) + 1}", "name": name, "songs": []}
            artists.append(artist)
            artist_by_name[name] = artist
        song["artist"] = artist["id"]
        artist["songs"].append(song["id"])

    # Pass 2, AddLibrary: Library.songs is every Song in creation order; the inverse sets
    # Song.library. The policy then counts songs and reads the skipped count.
    library["songs"] = [s["id"] for s in songs]
    for s in songs:
        s["library"] = "Library/1"
    library["songCount"] = len(songs)
    library["skippedCount"] = skipped

    # Custom validation: slugs are unique.
    first = {}
    for s in songs:
        if s["slug"] in first:
            print(f"slug {s['slug']!r} of {s['id']} (from {origin[s['id']]}) is already used by {first[s['slug']]}",
                  file=sys.stderr)
            sys.exit(2)
        first[s["slug"]] = s["id"]

    store = {
        "metadata": {
            "format": "mapc-store",
            "formatVersion": 1,
            "modelVersionIdentifiers": ["2"],
            "entityVersionHashes": DEST_HASHES,
        },
        "objects": {"Artist": artists, "Library": [library], "Song": songs, "Tag": tags},
    }
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(store, f, indent=2, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
