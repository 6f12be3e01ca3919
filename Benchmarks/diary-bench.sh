#!/usr/bin/env bash
# The diary benchmark (issue 4): mapc against the jq and Python peers of ../shared/bench on the
# 300,000-record store, same input, outputs compared byte for byte, medians of timed runs.
#
#   Benchmarks/diary-bench.sh [WORKDIR] [RUNS]
#
# Builds mapc in release mode, generates the store once (checking its sha256), compiles the plan
# outside the timing, then for each tool and form runs once to warm the cache and RUNS times
# (default 3) under /usr/bin/time. Prints a Markdown table with medians and ratios.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bench="$root/../shared/bench"
work="${1:-$root/Benchmarks/work}"
runs="${2:-3}"
mkdir -p "$work"
cd "$root"
swift build -c release >/dev/null
mapc="$root/.build/release/mapc"
cd "$work"

store=diary-300k.json
want=7cb91a860ffa82ccd6803f56283f0855dfc9df46ad491337ef05949017a9198f
if [ ! -f "$store" ] || [ "$(sha256sum "$store" | cut -d' ' -f1)" != "$want" ]; then
  python3 "$bench/gen_diary_store.py" 300000 "$store" --seed 1
fi
[ "$(sha256sum "$store" | cut -d' ' -f1)" = "$want" ] || { echo "store sha256 differs" >&2; exit 1; }
"$mapc" compile "$root/../shared/fixtures/diary/SQADMappingModel1_2.xml" -o diary.cdm

log=times.log
: > "$log"
measure() {  # name form command...
  local name=$1 form=$2
  shift 2
  "$@" >/dev/null 2>&1 || true  # warm-up
  for i in $(seq 1 "$runs"); do
    /usr/bin/time -f "$name $form %e %M" -a -o "$log" "$@" >/dev/null 2>&1
  done
}
measure mapc indented "$mapc" run diary.cdm --store "$store" --output out-mapc.json --quiet
measure mapc compact "$mapc" run diary.cdm --store "$store" --output out-mapc-c.json --compact --quiet
measure jq indented sh -c "jq -f '$bench/diary.jq' '$store' > out-jq.json"
measure jq compact sh -c "jq -c -f '$bench/diary.jq' '$store' > out-jq-c.json"
measure python indented python3 "$bench/diary.py" "$store" out-py.json
measure python compact python3 "$bench/diary.py" "$store" out-py-c.json --compact

status="equal"
cmp -s out-mapc.json out-py.json && cmp -s out-mapc.json out-jq.json || status="DIFFERENT (indented)"
cmp -s out-mapc-c.json out-py-c.json && cmp -s out-mapc-c.json out-jq-c.json || status="$status; DIFFERENT (compact)"

python3 - "$log" "$status" "$(stat -L -c %s "$store")" <<'PY'
import sys, statistics
log, status, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = {}
for line in open(log):
    name, form, secs, kb = line.split()
    rows.setdefault((name, form), []).append((float(secs), int(kb)))
def med(k):
    r = rows[k]
    return statistics.median(s for s, _ in r), max(m for _, m in r), [s for s, _ in r]
print(f"input: 300,000 records, {size:,} bytes; outputs compared with cmp: {status}")
print()
print("| tool | form | wall time (runs) | median | peak RSS | peer time / mapc time | mapc RSS / peer RSS |")
print("|---|---|---|---|---|---|---|")
for form in ("indented", "compact"):
    mt, mm, _ = med(("mapc", form))
    for name in ("mapc", "jq", "python"):
        t, m, all_ = med((name, form))
        ratio = "—" if name == "mapc" else f"{t / mt:.1f}x"
        rss = "—" if name == "mapc" else f"{mm / m:.2f}"
        print(f"| {name} | {form} | {', '.join(f'{x:.2f}' for x in all_)} s | {t:.2f} s | {m/1024:.0f} MB | {ratio} | {rss} |")
print()
mt, mm, _ = med(("mapc", "indented"))
print(f"mapc peak RSS / input size: {mm*1024/size:.2f}")
PY
