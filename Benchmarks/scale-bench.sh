#!/usr/bin/env bash
# The scaling benchmark (issue 41): mapc run on the diary migration at growing sizes, JSON and
# SQLite, with one or more sets of mapc flags, against the I/O floor of the same run and, up to a
# size, against the jq and Python peers. Inputs are generated (never committed) and kept by size
# and seed; every output is digested (sha256, size) and deleted before the next run.
#
#   Benchmarks/scale-bench.sh [WORKDIR]
#
# Environment (defaults in brackets):
#   SIZES            records per store ["30000 300000 3000000 10000000"]
#   FORMATS          store formats ["json sqlite"]
#   CONFIGS          mapc flag sets separated by '|', "default" for none
#                    ["default|--memory-limit 1G"]; a set the binary refuses (exit 64,
#                    "Unknown option") is reported as not supported by this build
#   MAPC             release mapc binary [built here: swift build -c release --product mapc]
#   PEER_MAX_JSON    largest size the jq and Python JSON peers run at [300000]
#   PEER_MAX_SQLITE  largest size the Python SQLite peer runs at [300000]
#   PEERS_JSON       JSON peers to run ["jq python"]
#   RUNS             timed runs per tool, config and size; the median is reported [1]
#   SEED             generator seed [1]
#   DISK_MARGIN_MB   free space kept beyond the estimate of what a size needs [2048]
#   KEEP_INPUTS      1 keeps generated inputs for the next run, 0 deletes each after its size [1]
#   SLOPE_REF        size whose slope (from the size before) the later slopes are divided by [300000]
#   STREAM_CHECK     1 runs Benchmarks/scale/stream_check.py on each JSON size's reference output [1]
#
# Writes in WORKDIR [Benchmarks/work-scale]: scale-log.tsv (raw measurements),
# scale-results.json (the same, assembled), scale-results.md (table, digests, machine) and
# scale-plot.png (Benchmarks/scale/plot.py; skipped with a note when matplotlib is missing).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
here="$root/Benchmarks/scale"
bench="$root/../shared/bench"
sqlitedir="$root/Benchmarks/sqlite"
fixture="$root/../shared/fixtures/diary"
work="${1:-$root/Benchmarks/work-scale}"

SIZES="${SIZES:-30000 300000 3000000 10000000}"
FORMATS="${FORMATS:-json sqlite}"
CONFIGS="${CONFIGS:-default|--memory-limit 1G}"
PEER_MAX_JSON="${PEER_MAX_JSON:-300000}"
PEER_MAX_SQLITE="${PEER_MAX_SQLITE:-300000}"
PEERS_JSON="${PEERS_JSON:-jq python}"
RUNS="${RUNS:-1}"
SEED="${SEED:-1}"
DISK_MARGIN_MB="${DISK_MARGIN_MB:-2048}"
KEEP_INPUTS="${KEEP_INPUTS:-1}"
SLOPE_REF="${SLOPE_REF:-300000}"

# Bytes per record, measured at 300,000 records with seed 1 (../shared/bench/README.md, the
# SQLite section of Benchmarks/README.md), rounded up; used only to estimate the disk a size
# needs before anything of it is written.
est_bytes() {  # format what(in|out) records
  local per
  case "$1:$2" in
    json:in) per=440 ;;     # 130,392,204 / 300,000 = 435
    json:out) per=1420 ;;   # 421,969,736 / 300,000 = 1,407 (indented)
    sqlite:in) per=880 ;;   # 261,169,152 / 300,000 = 871
    sqlite:out) per=400 ;;  # 116,371,456 / 300,000 = 388
  esac
  echo $(($3 * per))
}

[ -x /usr/bin/time ] || { echo "scale-bench: /usr/bin/time is needed (apt-get install time)" >&2; exit 1; }
mkdir -p "$work"
work="$(cd "$work" && pwd)"
if [ -z "${MAPC:-}" ]; then
  echo "scale-bench: building mapc (swift build -c release --product mapc)" >&2
  (cd "$root" && swift build -c release --product mapc >/dev/null)
  MAPC="$root/.build/release/mapc"
fi
MAPC="$(cd "$(dirname "$MAPC")" && pwd)/$(basename "$MAPC")"
cd "$work"

log="$work/scale-log.tsv"
: > "$log"
emit() {  # fields... -> one tab-separated line of the log
  local IFS=$'\t'
  echo "$*" >> "$log"
}
say() { echo "scale-bench: $*" >&2; }
free_bytes() { df -B1 --output=avail "$work" | tail -1 | tr -d ' '; }
digest() { sha256sum "$1" | cut -d' ' -f1; }
lscpu_model() { lscpu | awk -F: '/Model name/ {sub(/^[ \t]+/, "", $2); print $2; exit}'; }

# The machine and the build.
emit machine date "$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
emit machine nproc "$(nproc)"
emit machine cpu "$(lscpu_model)"
emit machine memory "$(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
emit machine kernel "$(uname -sr)"
emit machine loadavg_start "$(cut -d' ' -f1-3 /proc/loadavg)"
emit machine mapc_binary "$MAPC"
emit machine mapc_version "$("$MAPC" --version 2>&1 | head -1)"
commit="$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then commit="$commit (worktree has changes)"; fi
emit machine git_commit "$commit"
emit machine swift "$(swift --version 2>&1 | head -1 || true)"
emit machine python "$(python3 --version 2>&1)"
emit machine jq "$(jq --version 2>&1 || echo missing)"
emit machine filesystem "$(df -T "$work" | awk 'NR == 2 {print $1 " (" $2 ")"}')"
emit settings sizes "$SIZES"
emit settings formats "$FORMATS"
emit settings peer_max_json "$PEER_MAX_JSON"
emit settings peer_max_sqlite "$PEER_MAX_SQLITE"
emit settings peers_json "$PEERS_JSON"
emit settings runs "$RUNS"
emit settings seed "$SEED"
emit settings slope_ref "$SLOPE_REF"

"$MAPC" compile "$fixture/SQADMappingModel1_2.xml" -o diary.cdm >/dev/null 2>compile.err \
  || { cat compile.err >&2; exit 1; }
rm -f compile.err

# Which flag sets this build takes: each is tried once on the diary fixture. Exit 64 (usage) is
# a refusal, reported with mapc's own line; anything else lets the set run at every size.
labels=()
flagsets=()
IFS='|' read -r -a raw_configs <<< "$CONFIGS"
for c in "${raw_configs[@]}"; do
  c="$(echo "$c" | sed 's/^ *//; s/ *$//')"
  [ -n "$c" ] || continue
  if [ "$c" = default ]; then flags=""; else flags="$c"; fi
  rc=0
  # shellcheck disable=SC2086  # a flag set is split into words on purpose
  "$MAPC" run diary.cdm --store "$fixture/store-v1.json" --output probe.json $flags --quiet \
    >/dev/null 2>probe.err || rc=$?
  rm -f probe.json
  if [ "$rc" -eq 64 ]; then
    reason="$(grep -m1 -i 'unknown option' probe.err || head -1 probe.err)"
    emit config "$c" unsupported "not supported by this build (exit 64: $reason)"
    say "config '$c': not supported by this build ($reason)"
  else
    emit config "$c" supported "$([ "$rc" -eq 0 ] && echo ok || echo "probe exit $rc: $(head -1 probe.err)")"
    labels+=("$c")
    flagsets+=("$flags")
  fi
done
rm -f probe.err

# One timed run: sync first (no run pays for the previous one's writeback), the input read once
# untimed (so every run finds it in the page cache, as the I/O floor does), wall time and peak
# RSS from /usr/bin/time. Sets run_rc, run_secs, run_kb.
timed() {  # input command...
  local input=$1
  shift
  cat "$input" > /dev/null
  sync
  run_rc=0
  /usr/bin/time -f "%e %M" -o time.out "$@" >/dev/null 2>run.err || run_rc=$?
  read -r run_secs run_kb < <(tail -1 time.out)
}

# The I/O floor of a size: reading the input (in the page cache, as for the runs) and writing as
# many bytes as the output has, fsynced, on the same file system (Benchmarks/scale/iofloor.py).
floor() {  # format size input outbytes
  local f=$1 n=$2 in=$3 out=$4 k line
  for k in $(seq 1 "$RUNS"); do
    cat "$in" > /dev/null
    sync
    line="$(python3 "$here/iofloor.py" "$in" "$out" "$work/floor.tmp")"
    emit floor "$f" "$n" "$k" $line "$out"
  done
}

for f in $FORMATS; do
  case "$f" in
    json) ext=json; peer_max=$PEER_MAX_JSON ;;
    sqlite) ext=sqlite; peer_max=$PEER_MAX_SQLITE ;;
    *) say "unknown format '$f' (json or sqlite)"; exit 1 ;;
  esac
  for n in $SIZES; do
    in="diary-$n-seed$SEED.$ext"
    # What this size needs at once: the input (when not cached; counted twice for SQLite, whose
    # generator builds the store with a rollback journal beside it), one output being written, and
    # for SQLite sizes with a peer the reference output, another config's and the peer's (they
    # are compared row by row, so they live together); plus the margin.
    outb=$(est_bytes "$f" out "$n")
    need=$outb
    [ -f "$in" ] || need=$((need + $(est_bytes "$f" in "$n") * $([ "$f" = sqlite ] && echo 2 || echo 1)))
    if [ "$f" = sqlite ] && [ "$n" -le "$peer_max" ]; then need=$((need + 2 * outb)); fi
    need=$((need + DISK_MARGIN_MB * 1048576))
    have=$(free_bytes)
    if [ "$have" -lt "$need" ]; then
      msg="skipped: needs about $((need / 1048576)) MiB free in $work, $((have / 1048576)) MiB free"
      say "$f $n: $msg"
      emit skip "$f" "$n" "$msg"
      continue
    fi

    if [ ! -f "$in" ]; then
      say "$f $n: generating $in"
      start=$(date +%s.%N)
      if [ "$f" = json ]; then
        python3 "$bench/gen_diary_store.py" "$n" "$in.tmp" --seed "$SEED"
      else
        rm -f "$in.tmp" "$in.tmp-wal" "$in.tmp-shm"
        python3 "$sqlitedir/gen_diary_sqlite.py" "$n" "$in.tmp" --seed "$SEED" >/dev/null
      fi
      mv "$in.tmp" "$in"
      digest "$in" > "$in.sha256"
      emit generated "$f" "$n" "$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')"
    fi
    [ -f "$in.sha256" ] || digest "$in" > "$in.sha256"
    emit input "$f" "$n" "$(stat -L -c %s "$in")" "$(cat "$in.sha256")"

    # mapc, every supported flag set. The first set's output is the reference the others are
    # compared with: by sha256 for JSON (it is then deleted), for SQLite by sha256 and, when the
    # bytes differ, row by row, so it is kept until this size is done.
    ref=""; ref_sha=""; ref_bytes=""
    for i in "${!labels[@]}"; do
      label=${labels[$i]}
      flags=${flagsets[$i]}
      out="out-mapc-$i.$ext"
      sha=""; bytes=""
      for k in $(seq 1 "$RUNS"); do
        rm -f "$out" "$out-wal" "$out-shm"
        say "$f $n: mapc [$label] run $k"
        # shellcheck disable=SC2086
        timed "$in" "$MAPC" run diary.cdm --store "$in" --output "$out" $flags --quiet
        if [ "$run_rc" -eq 0 ] && [ -f "$out" ]; then
          bytes=$(stat -c %s "$out")
          this=$(digest "$out")
          note=""
          if [ -n "$sha" ] && [ "$this" != "$sha" ]; then note="output differs from run 1"; fi
          [ -n "$sha" ] || sha=$this
          emit run "$f" "$n" mapc "$label" "$k" ok "$run_secs" "$run_kb" "$bytes" "$this" "$note"
        else
          if [ "$run_rc" -eq 64 ]; then
            emit run "$f" "$n" mapc "$label" "$k" refused "$run_secs" "$run_kb" "" "" "not supported by this build (exit 64: $(grep -m1 . run.err || true))"
          else
            emit run "$f" "$n" mapc "$label" "$k" failed "$run_secs" "$run_kb" "" "" "exit $run_rc: $(grep -m1 . run.err || true)"
          fi
          sha=""
          break
        fi
        # The last run's output is kept for the comparisons below; the others go now.
        if [ "$k" -lt "$RUNS" ]; then rm -f "$out" "$out-wal" "$out-shm"; fi
      done
      [ -n "$sha" ] || { rm -f "$out" "$out-wal" "$out-shm"; continue; }
      if [ -z "$ref_bytes" ]; then ref_bytes=$bytes; fi
      # The streaming checker (Benchmarks/scale/stream_check.py: the peer's per-record rule,
      # applied record by record) on the reference output, at every JSON size (the other flag
      # sets are compared with the reference by sha256): at the sizes the peer runs at it is
      # cross-checked by the peer's own bytes below.
      if [ "$f" = json ] && [ "${STREAM_CHECK:-1}" = 1 ] && [ -z "$ref" ]; then
        say "$f $n: stream check of mapc [$label]"
        verdict="$(python3 "$here/stream_check.py" "$in" "$out" | tail -1 || true)"
        emit compare "$f" "$n" "stream_check.py" "mapc [$label]" "$verdict"
      fi
      if [ -z "$ref" ]; then
        ref="$label"; ref_sha=$sha
        if [ "$f" = sqlite ]; then mv "$out" out-mapc-ref.sqlite; else rm -f "$out" "$out-wal" "$out-shm"; fi
      else
        if [ "$sha" = "$ref_sha" ]; then
          emit compare "$f" "$n" "mapc [$label]" "mapc [$ref]" "equal (sha256)"
        elif [ "$f" = sqlite ]; then
          verdict="$(python3 "$sqlitedir/compare_sqlite.py" out-mapc-ref.sqlite "$out" | tail -1 || true)"
          emit compare "$f" "$n" "mapc [$label]" "mapc [$ref]" "bytes differ; row by row: $verdict"
        else
          emit compare "$f" "$n" "mapc [$label]" "mapc [$ref]" "DIFFERENT (sha256)"
        fi
        rm -f "$out" "$out-wal" "$out-shm"
      fi
    done

    # The floor, with the output size of the first flag set that finished (else the estimate).
    floor "$f" "$n" "$in" "${ref_bytes:-$outb}"

    # Peers, up to their size limit; compared with mapc's reference output.
    if [ "$n" -le "$peer_max" ]; then
      if [ "$f" = json ]; then peers=$PEERS_JSON; else peers=python; fi
      for p in $peers; do
        pout="out-$p.$ext"
        psha=""
        for k in $(seq 1 "$RUNS"); do
          rm -f "$pout" "$pout-wal" "$pout-shm"
          say "$f $n: peer $p run $k"
          case "$f:$p" in
            json:jq) timed "$in" sh -c 'jq -f "$1" "$2" > "$3"' sh "$bench/diary.jq" "$in" "$pout" ;;
            json:python) timed "$in" python3 "$bench/diary.py" "$in" "$pout" ;;
            sqlite:python) timed "$in" python3 "$sqlitedir/diary_sqlite.py" "$in" "$pout" ;;
            *) say "unknown peer $p for $f"; exit 1 ;;
          esac
          if [ "$run_rc" -ne 0 ] || [ ! -f "$pout" ]; then
            emit run "$f" "$n" peer "$p" "$k" failed "$run_secs" "$run_kb" "" "" "exit $run_rc: $(grep -m1 . run.err || true)"
            psha=""
            break
          fi
          psha=$(digest "$pout")
          emit run "$f" "$n" peer "$p" "$k" ok "$run_secs" "$run_kb" "$(stat -c %s "$pout")" "$psha" ""
          if [ "$k" -lt "$RUNS" ]; then rm -f "$pout" "$pout-wal" "$pout-shm"; fi
        done
        if [ -n "$psha" ] && [ -n "$ref" ]; then
          if [ "$f" = json ]; then
            if [ "$psha" = "$ref_sha" ]; then v="equal (sha256)"; else v="DIFFERENT (sha256)"; fi
          else
            v="$(python3 "$sqlitedir/compare_sqlite.py" out-mapc-ref.sqlite "$pout" | tail -1 || true)"
          fi
          emit compare "$f" "$n" "$p" "mapc [$ref]" "$v"
        fi
        rm -f "$pout" "$pout-wal" "$pout-shm"
      done
    else
      emit peers_skipped "$f" "$n" "not run above $peer_max records"
    fi
    rm -f out-mapc-ref.sqlite
    if [ "$KEEP_INPUTS" = 0 ]; then rm -f "$in" "$in.sha256"; fi
  done
done
rm -f time.out run.err floor.tmp
emit machine loadavg_end "$(cut -d' ' -f1-3 /proc/loadavg)"

python3 "$here/report.py" "$log" "$work/scale-results.json" "$work/scale-results.md"
if python3 -c 'import matplotlib' 2>/dev/null; then
  python3 "$here/plot.py" "$work/scale-results.json" "$work/scale-plot.png"
else
  say "matplotlib is missing, so no plot: python3 -m pip install --user matplotlib, then"
  say "  python3 $here/plot.py $work/scale-results.json $work/scale-plot.png"
fi
say "wrote $work/scale-results.md"
cat "$work/scale-results.md"
