#!/usr/bin/env bash
# Two mapc builds side by side (a refactoring's "within 5% of the commit before"): the
# 300,000-record diary as a JSON store (indented output) and as a Core Data SQLite store, each
# build run once per round in an order that alternates between rounds, medians of the rounds.
#
#   Benchmarks/ab-bench.sh BASE_MAPC NEW_MAPC [WORKDIR] [ROUNDS]
#
# BASE_MAPC and NEW_MAPC are release binaries (`swift build -c release`). The stores are made
# once by ../shared/bench/gen_diary_store.py and Benchmarks/sqlite/gen_diary_sqlite.py (seed 1;
# the JSON store's sha256 is checked). The two builds' outputs are compared byte for byte (cmp);
# a difference is printed and the script exits 1. Prints a Markdown table: per store, each
# build's times per round, median and peak RSS, and new / base of the medians.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
base=${1:?usage: ab-bench.sh BASE_MAPC NEW_MAPC [WORKDIR] [ROUNDS]}
new=${2:?usage: ab-bench.sh BASE_MAPC NEW_MAPC [WORKDIR] [ROUNDS]}
work="${3:-$root/Benchmarks/work-ab}"
rounds="${4:-5}"
base=$(cd "$(dirname "$base")" && pwd)/$(basename "$base")
new=$(cd "$(dirname "$new")" && pwd)/$(basename "$new")
mkdir -p "$work"
cd "$work"

json=diary-300k.json
want=7cb91a860ffa82ccd6803f56283f0855dfc9df46ad491337ef05949017a9198f
if [ ! -f "$json" ] || [ "$(sha256sum "$json" | cut -d' ' -f1)" != "$want" ]; then
  python3 "$root/../shared/bench/gen_diary_store.py" 300000 "$json" --seed 1
fi
[ "$(sha256sum "$json" | cut -d' ' -f1)" = "$want" ] || { echo "ab-bench: $json's sha256 differs" >&2; exit 1; }
sqlite=diary-300000.sqlite
[ -f "$sqlite" ] || python3 "$root/Benchmarks/sqlite/gen_diary_sqlite.py" 300000 "$sqlite" --seed 1
"$base" compile "$root/../shared/fixtures/diary/SQADMappingModel1_2.xml" -o base.cdm >/dev/null
"$new" compile "$root/../shared/fixtures/diary/SQADMappingModel1_2.xml" -o new.cdm >/dev/null

log=times.log
: > "$log"
one() {  # round store build binary plan output
  sync
  /usr/bin/time -f "$1 $2 $3 %e %M" -a -o "$log" "$4" run "$5" --store "$2" --output "$6" --quiet >/dev/null 2>&1
}
for store in "$json" "$sqlite"; do
  ext=${store##*.}
  "$new" run new.cdm --store "$store" --output "warm.$ext" --quiet  # the input into the page cache
  rm -f "warm.$ext"
  for round in $(seq 1 "$rounds"); do
    if [ $((round % 2)) -eq 1 ]; then order="base new"; else order="new base"; fi
    for build in $order; do
      if [ "$build" = base ]; then bin=$base; else bin=$new; fi
      one "$round" "$store" "$build" "$bin" "$build.cdm" "out-$build.$ext"
    done
  done
  if ! cmp -s "out-base.$ext" "out-new.$ext"; then
    echo "ab-bench: the two builds' outputs for $store differ" >&2
    exit 1
  fi
done

python3 - "$log" "$rounds" <<'PY'
import sys, statistics
log, rounds = sys.argv[1], int(sys.argv[2])
rows = {}
for line in open(log):
    rnd, store, build, secs, kb = line.split()
    rows.setdefault((store, build), []).append((int(rnd), float(secs), int(kb)))
print(f"{rounds} rounds, builds alternating; outputs byte-identical (cmp)")
print()
print("| store | build | wall time per round | median | peak RSS | new / base (medians) |")
print("|---|---|---|---|---|---|")
for store in sorted({s for s, _ in rows}):
    med = {b: statistics.median(t for _, t, _ in rows[(store, b)]) for b in ("base", "new")}
    for b in ("base", "new"):
        times = ", ".join(f"{t:.2f}" for _, t, _ in sorted(rows[(store, b)]))
        rss = max(k for _, _, k in rows[(store, b)]) / 1024
        ratio = f"**{med['new'] / med['base']:.3f}**" if b == "new" else "—"
        print(f"| {store} | {b} | {times} s | {med[b]:.2f} s | {rss:.0f} MB | {ratio} |")
PY
