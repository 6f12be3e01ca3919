"""Shared by the tests' independent readers: a private copy of a Core Data SQLite store with
its -wal and -journal, so that SQLite replays committed frames without touching the original.
(Opened even read-only, a store in WAL mode gets a -shm and a -wal written beside it, and a
connection that may write checkpoints the -wal into it on close: never open a real store.)"""
import atexit, contextlib, os, shutil, sqlite3, tempfile


@contextlib.contextmanager
def store_copy(store):
    with tempfile.TemporaryDirectory() as folder:
        copy = os.path.join(folder, os.path.basename(store))
        for suffix in ("", "-wal", "-journal"):
            if os.path.exists(store + suffix):
                shutil.copyfile(store + suffix, copy + suffix)
        yield copy


_copies = contextlib.ExitStack()
atexit.register(_copies.close)


def open_copy(store):
    """A connection to a private copy of `store` (`store_copy`), removed when the script exits."""
    return sqlite3.connect(_copies.enter_context(store_copy(store)))
