#!/bin/sh
# Xcode mapping model benchmark: the largest mapping model of ../shared/corpus (objc.io's
# Moody 3 -> Moody 4, 215 KB, two embedded model snapshots of 70 and 82 KB) compiled, imported and
# exported with the release build of mapc. Not a test: it prints timings. Target: compile under
# 0.1 s.
#
#   Benchmarks/xcmapping-bench.sh [RUNS]     (default 20)
#
# Uses hyperfine when it is installed, else a loop timed with the shell. Set MAPC to use another
# executable; set NO_BUILD=1 to skip `swift build -c release`.
set -eu
cd "$(dirname "$0")/.."
runs=${1:-20}
mapping="../shared/corpus/objcio/core-data/Migrations/Migrations/Moody 3-Moody 4.xcmappingmodel"
if [ ! -d "$mapping" ]; then echo "needs ../shared/corpus beside the package" >&2; exit 1; fi
if [ -z "${NO_BUILD:-}" ]; then swift build -c release --product mapc >/dev/null; fi
mapc=${MAPC:-.build/release/mapc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "input: $(wc -c <"$mapping/xcmapping.xml") bytes"
"$mapc" compile "$mapping" -o "$work/plan.cdm"
"$mapc" import "$mapping" -o "$work/m.xml"
time_loop() {
  label=$1
  shift
  best=
  total=0
  i=0
  while [ "$i" -lt "$runs" ]; do
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    us=$(( (end - start) / 1000 ))
    total=$((total + us))
    if [ -z "$best" ] || [ "$us" -lt "$best" ]; then best=$us; fi
    i=$((i + 1))
  done
  echo "$label: mean $((total / runs / 1000)) ms, best $((best / 1000)) ms over $runs runs"
}
if command -v hyperfine >/dev/null 2>&1; then
  hyperfine --warmup 2 --runs "$runs" \
    "$mapc compile '$mapping' -o $work/plan.cdm" \
    "$mapc import '$mapping' -o $work/m.xml" \
    "$mapc export $work/m.xml -o $work/Moody.xcmappingmodel"
else
  time_loop "mapc compile" "$mapc" compile "$mapping" -o "$work/plan.cdm"
  time_loop "mapc import" "$mapc" import "$mapping" -o "$work/m.xml"
  time_loop "mapc export" "$mapc" export "$work/m.xml" -o "$work/Moody.xcmappingmodel"
  time_loop "mapc --version (process start)" "$mapc" --version
fi
