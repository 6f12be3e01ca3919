#!/bin/sh
# Compile benchmark: a generated mapping of 200 entity mappings x 20 attributes (and its two
# models, 200 entities each) compiled with the release build of mapc. Not a test: it prints
# timings. Target: under 0.2 s per compile.
#
#   Benchmarks/compile-bench.sh [RUNS [ENTITIES [ATTRIBUTES]]]     (defaults: 10 200 20)
#
# Uses hyperfine when it is installed, else a loop timed with the shell. Set MAPC to use
# another executable; set NO_BUILD=1 to skip `swift build -c release`.
set -eu
cd "$(dirname "$0")/.."
runs=${1:-10}
entities=${2:-200}
attributes=${3:-20}
if [ -z "${NO_BUILD:-}" ]; then swift build -c release --product mapc >/dev/null; fi
mapc=${MAPC:-.build/release/mapc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 Benchmarks/generate-compile-input.py "$work" "$entities" "$attributes"
echo "input: $entities entity mappings x $attributes attributes;" \
  "mapping $(wc -c <"$work/mapping.xml") bytes, models $(cat "$work"/*.xcdatamodel/contents | wc -c) bytes"
"$mapc" compile "$work/mapping.xml" -o "$work/plan.cdm"   # warm-up, and fails loudly on errors
echo "plan: $(wc -c <"$work/plan.cdm") bytes"
if command -v hyperfine >/dev/null 2>&1; then
  hyperfine --warmup 2 --runs "$runs" "$mapc compile $work/mapping.xml -o $work/plan.cdm"
else
  best=
  total=0
  i=0
  while [ "$i" -lt "$runs" ]; do
    start=$(date +%s%N)
    "$mapc" compile "$work/mapping.xml" -o "$work/plan.cdm"
    end=$(date +%s%N)
    ms=$(( (end - start) / 1000000 ))
    total=$((total + ms))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
    i=$((i + 1))
  done
  echo "mapc compile: mean $((total / runs)) ms, best $best ms over $runs runs"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown) (timings are only meaningful on an idle machine)"
