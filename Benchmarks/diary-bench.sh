#!/usr/bin/env bash
# The diary benchmark (issue 4): mapc against the jq and Python peers of ../shared/bench on the
# 300,000-record store, same input, outputs compared byte for byte, medians of timed runs.
#
#   Benchmarks/diary-bench.sh [WORKDIR] [RUNS]
#   MAPC=path     use this mapc binary instead of building one
#   MAPC_BASE=path  also run this (older) mapc in every round, as "mapc-base", to compare two
#                   commits side by side against the same peers
#
# Builds mapc in release mode, generates the store once (checking its sha256), compiles the plan
# outside the timing, warms the page cache with one mapc run, then runs RUNS rounds (default 3)
# in which every tool and form runs once under /usr/bin/time. Prints a Markdown table with
# medians, ratios of medians and ratios within each round.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bench="$root/../shared/bench"
work="${1:-$root/Benchmarks/work}"
runs="${2:-3}"
mkdir -p "$work"
cd "$root"
if [ -z "${MAPC:-}" ]; then
  swift build -c release >/dev/null
  MAPC="$root/.build/release/mapc"
fi
mapc="$MAPC"
base="${MAPC_BASE:-}"
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
# The VM this runs on changes speed over minutes, so the tools take turns: each round runs
# every tool and form once, and ratios are also computed within each round. Each run starts
# after a sync, so no tool pays for writing back the previous tool's output.
one() {  # round name form command...
  local round=$1 name=$2 form=$3
  shift 3
  sync  # the previous run's output goes to disk now, not during this run
  /usr/bin/time -f "$round $name $form %e %M" -a -o "$log" "$@" >/dev/null 2>&1
}
"$mapc" run diary.cdm --store "$store" --output out-mapc.json --quiet  # warm-up: input in the page cache
# The two mapc builds run next to each other, form by form, in an order that alternates
# between rounds (a run right after a peer's long one found the machine slower).
mapcs() {  # round form
  local round=$1 form=$2 flag="" suffix="" order="mapc" name
  if [ "$form" = compact ]; then flag="--compact" suffix="-c"; fi
  if [ -n "$base" ]; then
    if [ $((round % 2)) -eq 1 ]; then order="mapc-base mapc"; else order="mapc mapc-base"; fi
  fi
  for name in $order; do
    if [ "$name" = mapc ]; then
      one "$round" mapc "$form" "$mapc" run diary.cdm --store "$store" --output "out-mapc$suffix.json" $flag --quiet
    else
      one "$round" mapc-base "$form" "$base" run diary.cdm --store "$store" --output "out-base$suffix.json" $flag --quiet
    fi
  done
}
for round in $(seq 1 "$runs"); do
  mapcs "$round" indented
  mapcs "$round" compact
  one "$round" jq indented sh -c "jq -f '$bench/diary.jq' '$store' > out-jq.json"
  one "$round" python indented python3 "$bench/diary.py" "$store" out-py.json
  one "$round" jq compact sh -c "jq -c -f '$bench/diary.jq' '$store' > out-jq-c.json"
  one "$round" python compact python3 "$bench/diary.py" "$store" out-py-c.json --compact
done

status="equal"
cmp -s out-mapc.json out-py.json && cmp -s out-mapc.json out-jq.json || status="DIFFERENT (indented)"
cmp -s out-mapc-c.json out-py-c.json && cmp -s out-mapc-c.json out-jq-c.json || status="$status; DIFFERENT (compact)"
if [ -n "$base" ]; then
  cmp -s out-mapc.json out-base.json && cmp -s out-mapc-c.json out-base-c.json || status="$status; DIFFERENT (base)"
fi

python3 - "$log" "$status" "$(stat -L -c %s "$store")" <<'PY'
import sys, statistics
log, status, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = {}
for line in open(log):
    rnd, name, form, secs, kb = line.split()
    rows.setdefault((name, form), {})[int(rnd)] = (float(secs), int(kb))
def med(k):
    r = rows[k].values()
    return statistics.median(s for s, _ in r), max(m for _, m in r), [rows[k][i][0] for i in sorted(rows[k])]
print(f"input: 300,000 records, {size:,} bytes; outputs compared with cmp: {status}")
print()
print("| tool | form | wall time (rounds) | median | peak RSS | peer time / mapc time: medians (per round) | mapc RSS / peer RSS |")
print("|---|---|---|---|---|---|---|")
for form in ("indented", "compact"):
    mt, mm, _ = med(("mapc", form))
    for name in ("mapc-base", "mapc", "jq", "python"):
        if (name, form) not in rows:
            continue
        t, m, all_ = med((name, form))
        if name == "mapc":
            ratio, rss = "—", "—"
        else:
            per = [rows[(name, form)][i][0] / rows[("mapc", form)][i][0] for i in sorted(rows[(name, form)])]
            ratio = f"**{t / mt:.1f}x** ({', '.join(f'{x:.1f}' for x in per)})"
            rss = f"{mm / m:.2f}"
        print(f"| {name} | {form} | {', '.join(f'{x:.2f}' for x in all_)} s | {t:.2f} s | {m/1024:.0f} MB | {ratio} | {rss} |")
print()
for form in ("indented", "compact"):
    mt, mm, _ = med(("mapc", form))
    print(f"mapc peak RSS / input size ({form}): {mm*1024/size:.2f}")
if ("mapc-base", "indented") in rows:
    print()
    print("| peer | form | peer / mapc-base (median) | peer / mapc (median) |")
    print("|---|---|---|---|")
    for form in ("indented", "compact"):
        bt, _, _ = med(("mapc-base", form))
        mt, _, _ = med(("mapc", form))
        for name in ("jq", "python"):
            t, _, _ = med((name, form))
            print(f"| {name} | {form} | {t / bt:.1f}x | {t / mt:.1f}x |")
PY
