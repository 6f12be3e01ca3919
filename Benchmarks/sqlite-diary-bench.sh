#!/usr/bin/env bash
# The SQLite diary benchmark (issue 16): mapc run against a plain Python sqlite3 peer on the
# 300,000-record diary as a Core Data SQLite store, outputs compared row by row.
#
#   Benchmarks/sqlite-diary-bench.sh [WORKDIR] [RUNS] [RECORDS]
#
# Builds mapc in release mode (scratch path .build-sqlite-rel unless MAPC is set), generates the
# store once with Benchmarks/sqlite/gen_diary_sqlite.py (seed 1; python3 sqlite3 + plistlib,
# nothing of mapc), compiles the plan outside the timing, warms the page cache, then runs RUNS
# rounds (default 3) of mapc and the peer in turn under /usr/bin/time -v, compares the two
# outputs with Benchmarks/sqlite/compare_sqlite.py (every table, every column), and prints wall
# times, the ratio peer/mapc, peak RSS and RSS / store size.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
here="$root/Benchmarks/sqlite"
work="${1:-$root/Benchmarks/work-sqlite}"
runs="${2:-3}"
records="${3:-300000}"
mkdir -p "$work"
if [ -z "${MAPC:-}" ]; then
  (cd "$root" && swift build -c release --scratch-path .build-sqlite-rel >/dev/null)
  MAPC="$root/.build-sqlite-rel/release/mapc"
fi
cd "$work"
store="diary-$records.sqlite"
[ -f "$store" ] || python3 "$here/gen_diary_sqlite.py" "$records" "$store" --seed 1
"$MAPC" compile "$root/../shared/fixtures/diary/SQADMappingModel1_2.xml" -o diary.cdm >/dev/null

log=times.log
: > "$log"
one() {  # round name command...
  local round=$1 name=$2
  shift 2
  sync
  /usr/bin/time -v -o time.tmp "$@" >/dev/null 2>&1
  echo "$round $name $(awk -F': ' '/Elapsed \(wall clock\)/ {print $2} /Maximum resident/ {print $2}' time.tmp | tr '\n' ' ')" >> "$log"
}
"$MAPC" run diary.cdm --store "$store" --output out-mapc.sqlite --quiet  # warm-up
for round in $(seq 1 "$runs"); do
  one "$round" mapc "$MAPC" run diary.cdm --store "$store" --output out-mapc.sqlite --quiet
  one "$round" python python3 "$here/diary_sqlite.py" "$store" out-py.sqlite
done
status="$(python3 "$here/compare_sqlite.py" out-mapc.sqlite out-py.sqlite | tail -1)"

python3 - "$log" "$status" "$(stat -L -c %s "$store")" "$records" "$(stat -L -c %s out-mapc.sqlite)" <<'PY'
import sys, statistics
log, status, size, records, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
def secs(t):
    parts = [float(p) for p in t.split(":")]
    return sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
rows = {}
for line in open(log):
    rnd, name, wall, kb = line.split()
    rows.setdefault(name, {})[int(rnd)] = (secs(wall), int(kb))
print(f"input: {records:,} records, {size:,} bytes (SQLite); mapc's output {out:,} bytes")
print(f"outputs compared row by row: {status}")
print()
print("| tool | wall time (rounds) | median | peak RSS | RSS / store | peer time / mapc time: medians (per round) |")
print("|---|---|---|---|---|---|")
mt = statistics.median(s for s, _ in rows["mapc"].values())
for name in ("mapc", "python"):
    r = rows[name]
    t = statistics.median(s for s, _ in r.values())
    m = max(k for _, k in r.values())
    ratio = "—" if name == "mapc" else (f"**{t / mt:.1f}x** (" + ", ".join(
        f"{r[i][0] / rows['mapc'][i][0]:.1f}" for i in sorted(r)) + ")")
    print(f"| {name} | {', '.join(f'{r[i][0]:.2f}' for i in sorted(r))} s | {t:.2f} s | {m / 1024:.0f} MB | {m * 1024 / size:.2f} | {ratio} |")
PY
