#!/usr/bin/env bash
# mapc test --jobs and mapc migrate --stores --jobs on 2+ cores (issue 44): a fixture tree of
# 200 chain cases and a fleet of 100 stores, both made from DuckDuckGo's real Bookmarks stores
# (V1–V4) and their bundle in ../shared/stores, run with --jobs 1 and --jobs 2 in alternating
# rounds; prints each run, the medians and their ratio. Not a test: run it by hand, on a quiet
# machine. Usage: Benchmarks/parallel-bench.sh [WORKDIR] [ROUNDS]  (MAPC=path to use a built mapc)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d)}
rounds=${2:-3}
shared=${MAPC_SHARED:-$root/../shared}
ddg=$shared/stores/duckduckgo+BrowserServicesKit
bundle=$ddg/Sources/Bookmarks/BookmarksModel.xcdatamodeld
res=$ddg/Tests/BookmarksTests/Resources
[ -d "$bundle" ] || { echo "parallel-bench: $bundle is absent" >&2; exit 2; }
if [ -z "${MAPC:-}" ]; then
  (cd "$root" && swift build -c release --scratch-path .build-release >/dev/null)
  MAPC=$root/.build-release/release/mapc
fi
mkdir -p "$work"; cd "$work"
rm -rf tree fleet out-*
# 50 fixtures, each store V1–V4 to every later version; after --update, the cases that pass
# (the steps that need consent or cannot be inferred are left out): 4 a fixture, 200 in all.
for f in $(seq -w 0 49); do
  mkdir -p "tree/f$f"
  cases=""
  for from in 1 2 3 4; do
    for to in 2 3 4 5; do
      [ "$to" -gt "$from" ] || continue
      cases+="{\"store\": \"$res/Bookmarks_V$from.sqlite\", \"to\": \"BookmarksModel $to\", \"expected\": \"v$from-$to.json\"},"
    done
  done
  printf '{"model": "%s", "cases": [%s]}\n' "$bundle" "${cases%,}" >"tree/f$f/fixture.json"
done
"$MAPC" test tree --update --jobs 2 --quiet >/dev/null || true   # expected stores, outside the timing
for fixture in tree/*/fixture.json; do
  python3 - "$fixture" <<'PY'
import json, os, sys
path = sys.argv[1]
folder = os.path.dirname(path)
d = json.load(open(path))
d["cases"] = [c for c in d["cases"] if os.path.exists(os.path.join(folder, c["expected"]))]
json.dump(d, open(path, "w"))
PY
done
# 100 stores: 25 copies of each of V1–V4 (with their -wal and -shm).
mkdir -p fleet
for i in $(seq -w 0 24); do
  for v in 1 2 3 4; do
    for suffix in "" -wal -shm; do
      [ -f "$res/Bookmarks_V$v.sqlite$suffix" ] && cp "$res/Bookmarks_V$v.sqlite$suffix" "fleet/s$i-v$v.sqlite$suffix"
    done
  done
done
cases=$(find tree -name fixture.json | xargs grep -o '"store"' | wc -l)
echo "parallel-bench: $cases cases, $(ls fleet/*.sqlite | wc -l) stores, $(nproc) cores, $rounds rounds; mapc $MAPC"
t() { { /usr/bin/time -f "%e" "$@" 2>&1 >/dev/null || true; } | tail -1; }
declare -a test1 test2 mig1 mig2
for r in $(seq 1 "$rounds"); do
  order="1 2"; [ $((r % 2)) -eq 0 ] && order="2 1"
  for j in $order; do
    sync; s=$(t "$MAPC" test tree --jobs "$j" --quiet)
    rm -rf "out-$j"; sync; m=$(t "$MAPC" migrate --stores 'fleet/*.sqlite' --model "$bundle" --output "out-$j" --jobs "$j" --quiet)
    echo "round $r: --jobs $j: test ${s} s, migrate --stores ${m} s"
    if [ "$j" = 1 ]; then test1+=("$s"); mig1+=("$m"); else test2+=("$s"); mig2+=("$m"); fi
  done
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
mt1=$(median "${test1[@]}"); mt2=$(median "${test2[@]}"); mm1=$(median "${mig1[@]}"); mm2=$(median "${mig2[@]}")
echo "mapc test:              --jobs 1 ${mt1} s, --jobs 2 ${mt2} s, ratio $(echo "scale=2; $mt2 / $mt1" | bc)"
echo "mapc migrate --stores:  --jobs 1 ${mm1} s, --jobs 2 ${mm2} s, ratio $(echo "scale=2; $mm2 / $mm1" | bc)"
# The outputs of both job counts are the same bytes.
diff -r out-1 out-2 >/dev/null && echo "outputs of --jobs 1 and --jobs 2: identical" || { echo "outputs differ" >&2; exit 1; }
