#!/usr/bin/env python3
"""The I/O floor of one migration, for Benchmarks/scale-bench.sh: the least a tool that reads
the input and writes the output must spend on the bytes alone.

    iofloor.py IN OUT_BYTES SCRATCH

Reads IN to its end in 8 MiB blocks (what `cat IN > /dev/null` does; the caller has just read it
once, so it comes from the page cache as it does for the timed runs), then writes OUT_BYTES
bytes to SCRATCH in 8 MiB blocks, fsyncs and closes it, and deletes it (the deletion is not
timed). The blocks written are random bytes, made once, so nothing on the way can compress
them. Prints the two wall times in seconds: "READ WRITE".
"""
import os
import sys
import time

BLOCK = 8 << 20


def read_all(path):
    buf = bytearray(BLOCK)
    view = memoryview(buf)
    start = time.perf_counter()
    with open(path, "rb", buffering=0) as f:
        while f.readinto(view):
            pass
    return time.perf_counter() - start


def write_fsynced(path, count):
    block = os.urandom(BLOCK)
    view = memoryview(block)
    start = time.perf_counter()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        left = count
        while left > 0:
            left -= os.write(fd, view[: min(left, BLOCK)])
        os.fsync(fd)
    finally:
        os.close(fd)
    elapsed = time.perf_counter() - start
    os.unlink(path)
    return elapsed


def main(argv):
    if len(argv) != 4:
        sys.exit("usage: iofloor.py IN OUT_BYTES SCRATCH")
    read_s = read_all(argv[1])
    write_s = write_fsynced(argv[3], int(argv[2]))
    print(f"{read_s:.3f} {write_s:.3f}")


if __name__ == "__main__":
    main(sys.argv)
