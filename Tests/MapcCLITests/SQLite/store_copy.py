"""Shared by the tests' independent readers: a private copy of a Core Data SQLite store with
its -wal and -journal, so that SQLite replays committed frames without touching the original."""
import contextlib, os, shutil, tempfile


@contextlib.contextmanager
def store_copy(store):
    with tempfile.TemporaryDirectory() as folder:
        copy = os.path.join(folder, os.path.basename(store))
        for suffix in ("", "-wal", "-journal"):
            if os.path.exists(store + suffix):
                shutil.copyfile(store + suffix, copy + suffix)
        yield copy
