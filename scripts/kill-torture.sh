#!/usr/bin/env bash
# Kill torture (issue 17; issue 40 added `store convert` and `mapc test`): kills `mapc run
# --in-place`, `mapc migrate` (a chain of three steps), `mapc store convert` and `mapc test` at random moments
# (SIGKILL, SIGTERM or SIGINT) on stores that take seconds to migrate, JSON stores and Core
# Data SQLite stores (the SQLite store starts with committed frames in a -wal and a -shm beside
# it), and checks after each kill that the store is the original or the complete result, that a
# rerun succeeds with the complete result, and that no temporary file, work folder or SQLite
# reading copy is left. JSON stores are compared byte for byte; SQLite stores with an
# independent reader (python3's sqlite3, on a copy of the store and its -wal: integrity_check,
# then every table's rows, sorted, hashed) against the original's and the result's.
#
#   scripts/kill-torture.sh RUNS [MAPC]     (MAPC: the mapc to torture, as the second argument or
#                                            the MAPC environment variable; without either, the
#                                            package's mapc is built (`swift build --product
#                                            mapc`, debug) and that one is used;
#                                            TASKS=tasks in the JSON store, default 150000;
#                                            SQLITE_TASKS=tasks in the SQLite store, default 40000;
#                                            FORMATS="json sqlite" (the default) or one of them)
# The runs cycle through run, migrate, convert and test on each format (every other SQLite
# convert with --memory-limit 1M, a chunk at a time); convert's output must be
# absent or complete after a kill, and test's fixture unchanged with no work folder or child left. Prints the counts per format; exits 1 if
# any store was damaged or lost, a rerun failed or anything was left behind.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:?usage: scripts/kill-torture.sh RUNS [MAPC]}
mapc=${2:-${MAPC:-}}
if [ -z "$mapc" ]; then
  echo "kill-torture: building mapc (swift build --product mapc)" >&2
  swift build --product mapc >&2 || { echo "kill-torture: the build failed" >&2; exit 2; }
  mapc=$(swift build --show-bin-path)/mapc
fi
tasks=${TASKS:-150000}
sqlite_tasks=${SQLITE_TASKS:-40000}
read -r -a formats <<<"${FORMATS:-json sqlite}"
[ -x "$mapc" ] && [ -f "$mapc" ] || { echo "kill-torture: no mapc at $mapc" >&2; exit 2; }
mapc=$(cd "$(dirname "$mapc")" && pwd)/$(basename "$mapc")
bundle=$PWD/Mappings/tasks/Tasks.xcdatamodeld
mapping=$PWD/Mappings/tasks/mappings/TasksV3ToV4.xml
work=$(mktemp -d "${TMPDIR:-/tmp}/mapc-kill-torture.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
# mapc's own temporary folder (SQLite reading copies): must be empty after every rerun.
mkdir -p tmp dumps
export TMPDIR=$work/tmp

# A Tasks 1 store with N tasks in 50 lists: make_store N FILE.
make_store() {
python3 - "$1" > "$2" <<'PY'
import json, sys
n = int(sys.argv[1])
lists = [{"id": f"l{i}", "name": f"List {i}"} for i in range(50)]
tasks = [{"id": f"t{i}", "done": i % 3 == 0, "list": f"l{i % 50}", "note": f"note {i}" if i % 2 else None,
          "priority": i % 5, "title": f"Task number {i}"} for i in range(n)]
print(json.dumps({"objects": {"Task": tasks, "TaskList": lists}}))
PY
# Give it Tasks 1's metadata (hashes), from the example store.
python3 - "$OLDPWD/Mappings/tasks/store-v1.json" "$2" <<'PY'
import json, sys
meta = json.load(open(sys.argv[1]))["metadata"]
store = json.load(open(sys.argv[2]))
store = {"metadata": meta, "objects": store["objects"]}
json.dump(store, open(sys.argv[2], "w"), indent=1)
PY
}

# What a store holds, by an independent reader: JSON stores are their bytes; an SQLite store is
# read by python3's sqlite3 from a copy of it and its -wal (the original is never opened), and
# is its integrity check plus a hash of every table's rows, sorted.
content() { # content FORMAT FILE
  if [ "$1" = json ]; then sha256sum <"$2" | cut -c1-64; return; fi
  python3 - "$2" "$work/dumps" <<'PY'
import hashlib, os, shutil, sqlite3, sys, tempfile
source, dumps = sys.argv[1], sys.argv[2]
if not os.path.exists(source):
    print("missing"); sys.exit(0)
folder = tempfile.mkdtemp(dir=dumps)
try:
    for suffix in ("", "-wal"):
        if os.path.exists(source + suffix):
            shutil.copyfile(source + suffix, os.path.join(folder, "s" + suffix))
    c = sqlite3.connect(os.path.join(folder, "s"))
    check = c.execute("PRAGMA integrity_check").fetchone()[0]
    if check != "ok":
        print("corrupt:" + check.replace(" ", "_")); sys.exit(0)
    h = hashlib.sha256()
    for (table,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall():
        h.update(b"\0table " + table.encode())
        for row in sorted(repr(r) for r in c.execute('SELECT * FROM "%s"' % table.replace('"', '""'))):
            h.update(row.encode() + b"\n")
    c.close()
    print(h.hexdigest())
finally:
    shutil.rmtree(folder)
PY
}

# Puts a copy of BASE at FILE; for SQLite, with committed frames in a -wal and a -shm beside it
# (python3 commits two updates of Z_PRIMARYKEY, the second undoing the first, and exits
# without closing, so SQLite keeps the -wal), as a store an app had open looks.
place() { # place FORMAT BASE FILE
  rm -f "$3" "$3-wal" "$3-shm" "$3-journal"
  cp "$2" "$3"
  if [ "$1" = sqlite ]; then
    python3 - "$3" <<'PY'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA journal_mode = WAL")
c.execute("PRAGMA wal_autocheckpoint = 0")
c.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1")
c.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX - 1")
os._exit(0)
PY
    [ -s "$3-wal" ] && [ -e "$3-shm" ] || { echo "kill-torture: no -wal beside $3" >&2; exit 2; }
  fi
}

declare -A run_seconds migrate_seconds convert_seconds test_seconds
# A fixture for `mapc test`: the Tasks 1 store (placed as the tortured ones are) migrated along
# the chain; its expected store is the complete result.
make_fixture() { # make_fixture FORMAT
  rm -rf fx; mkdir fx
  place "$1" "$1-v1" fx/store
  cp "$1-expected-migrate-file" "fx/expected.$1"
  printf '{"model": "%s", "cases": [{"store": "store", "expected": "expected.%s", "arguments": ["--allow-data-loss"]}]}\n' \
    "$bundle" "$1" >fx/fixture.json
}
fixture_content() { (cd fx && find . -type f | sort | xargs sha256sum) | sha256sum | cut -c1-64; }
for format in "${formats[@]}"; do
  case $format in
    json) n=$tasks ;;
    sqlite) n=$sqlite_tasks ;;
    *) echo "kill-torture: unknown format $format" >&2; exit 64 ;;
  esac
  make_store "$n" v1.json
  cp v1.json tmp.json
  "$mapc" migrate --model "$bundle" --store tmp.json --to "Tasks 3" --quiet || { echo "kill-torture: cannot make the Tasks 3 store" >&2; exit 2; }
  if [ "$format" = json ]; then
    mv v1.json json-v1; mv tmp.json json-v3
  else
    "$mapc" store import v1.json --model "$bundle" --output sqlite-v1 2>/dev/null || exit 2
    "$mapc" store import tmp.json --model "$bundle" --output sqlite-v3 2>/dev/null || exit 2
    rm -f v1.json tmp.json
  fi
  # The complete results, from runs nobody kills (timed, to pick kill moments), from stores
  # placed as the tortured ones are.
  place "$format" "$format-v3" expected
  start=$(date +%s.%N)
  "$mapc" run "$mapping" --store expected --store-format "$format" --in-place --quiet || exit 2
  run_seconds[$format]=$(echo "$(date +%s.%N) - $start" | bc)
  content "$format" expected >"$format-expected-run"
  place "$format" "$format-v1" expected
  start=$(date +%s.%N)
  "$mapc" migrate --model "$bundle" --store expected --allow-data-loss --quiet || exit 2
  migrate_seconds[$format]=$(echo "$(date +%s.%N) - $start" | bc)
  content "$format" expected >"$format-expected-migrate"
  cp expected "$format-expected-migrate-file"
  place "$format" "$format-v1" expected
  start=$(date +%s.%N)
  "$mapc" store convert expected --model "$bundle" --to "$format" --output converted --quiet || exit 2
  convert_seconds[$format]=$(echo "$(date +%s.%N) - $start" | bc)
  content "$format" converted >"$format-expected-convert"
  rm -f converted converted-wal converted-shm
  make_fixture "$format"
  start=$(date +%s.%N)
  "$mapc" test fx --quiet >/dev/null || { echo "kill-torture: the $format fixture fails uncut" >&2; exit 2; }
  test_seconds[$format]=$(echo "$(date +%s.%N) - $start" | bc)
  place "$format" "$format-v3" expected; content "$format" expected >"$format-original-run"
  place "$format" "$format-v1" expected; content "$format" expected >"$format-original-migrate"
  rm -f expected expected-wal expected-shm
  echo "kill-torture: $format: $n tasks ($(stat -c %s "$format-v1") bytes); run --in-place takes ${run_seconds[$format]}s, migrate ${migrate_seconds[$format]}s, convert ${convert_seconds[$format]}s, test ${test_seconds[$format]}s"
done

declare -A runs_of kills original complete damaged rerun_failed leftovers finished
for format in "${formats[@]}"; do
  for c in runs_of kills original complete damaged rerun_failed leftovers finished; do eval "$c[$format]=0"; done
done
signals=(KILL KILL TERM INT)
nformats=${#formats[@]}
kinds=(run migrate convert test)
for ((k = 1; k <= runs; k++)); do
  format=${formats[$(((k - 1) / 4 % nformats))]}
  kind=${kinds[$(((k - 1) % 4))]}
  runs_of[$format]=$((runs_of[$format] + 1))
  rm -rf store .store.* dumps/* converted converted-wal converted-shm .converted.*
  if [ $kind = convert ] || [ $kind = test ]; then
    if [ $kind = convert ]; then
      place "$format" "$format-v1" store
      seconds=${convert_seconds[$format]}
      # Every other SQLite conversion (the first too) goes a chunk at a time (its tasks stream with stubs; a
      # JSON store's refer to their lists, which keeps them whole): the same result.
      chunks=()
      if [ "$format" = sqlite ] && [ $(((k - 1) / (4 * nformats) % 2)) = 0 ]; then chunks=(--memory-limit 1M); fi
      "$mapc" store convert store --model "$bundle" --to "$format" --output converted --quiet "${chunks[@]}" 2>/dev/null &
    else
      make_fixture "$format"
      fixture_before=$(fixture_content)
      seconds=${test_seconds[$format]}
      "$mapc" test fx --quiet >/dev/null 2>&1 &
    fi
    pid=$!
    sleep "$(python3 -c "import random; print(round(random.uniform(0.0, $seconds * 1.05), 3))")"
    signal=${signals[$((RANDOM % 4))]}
    if kill -s "$signal" "$pid" 2>/dev/null; then kills[$format]=$((kills[$format] + 1)); else finished[$format]=$((finished[$format] + 1)); fi
    wait "$pid" 2>/dev/null
    if [ $kind = convert ]; then
      if [ -e converted ]; then now=$(content "$format" converted); else now=missing; fi
      if [ "$now" = missing ]; then
        original[$format]=$((original[$format] + 1))
      elif [ "$now" = "$(cat "$format-expected-convert")" ]; then
        complete[$format]=$((complete[$format] + 1))
      else
        damaged[$format]=$((damaged[$format] + 1))
        echo "kill-torture: run $k ($format convert, SIG$signal): the output is neither absent nor complete ($now)" >&2
      fi
      "$mapc" store convert store --model "$bundle" --to "$format" --output converted --quiet "${chunks[@]}" 2>/dev/null
      if [ $? -ne 0 ] || [ "$(content "$format" converted)" != "$(cat "$format-expected-convert")" ]; then
        rerun_failed[$format]=$((rerun_failed[$format] + 1))
        echo "kill-torture: run $k ($format convert): the rerun failed or gave another result" >&2
      fi
    else
      # A child of a killed `mapc test` ends itself within a moment (it watches its parent).
      for _ in $(seq 50); do pgrep -f "$work/tmp/mapc-test-pid" >/dev/null || break; sleep 0.1; done
      if [ "$(fixture_content)" = "$fixture_before" ]; then original[$format]=$((original[$format] + 1)); else
        damaged[$format]=$((damaged[$format] + 1))
        echo "kill-torture: run $k ($format test, SIG$signal): the fixture changed" >&2
      fi
      if pgrep -f "$work/tmp/mapc-test-pid" >/dev/null; then
        leftovers[$format]=$((leftovers[$format] + 1))
        echo "kill-torture: run $k ($format test, SIG$signal): a child still runs" >&2
        pkill -f "$work/tmp/mapc-test-pid"
      fi
      # SIGKILL leaves the work folder for the next run to remove.
      "$mapc" test fx --quiet >/dev/null 2>&1 || {
        rerun_failed[$format]=$((rerun_failed[$format] + 1))
        echo "kill-torture: run $k ($format test): the rerun failed" >&2
      }
    fi
    left=$(find . -maxdepth 1 -name '.*.mapc-*' | wc -l)
    left=$((left + $(find tmp -mindepth 1 -maxdepth 1 | wc -l)))
    if [ "$left" -ne 0 ]; then
      leftovers[$format]=$((leftovers[$format] + 1))
      echo "kill-torture: run $k ($format $kind): left $(find . tmp -maxdepth 1 -name '.*mapc*' -o -path 'tmp/*' | tr '\n' ' ')" >&2
      rm -rf tmp/* .converted.* .store.*
    fi
    continue
  fi
  place "$format" "$format-v$([ $kind = run ] && echo 3 || echo 1)" store
  original_content=$(cat "$format-original-$kind")
  expected_content=$(cat "$format-expected-$kind")
  if [ $kind = run ]; then
    seconds=${run_seconds[$format]}
    "$mapc" run "$mapping" --store store --store-format "$format" --in-place --quiet 2>/dev/null &
  else
    seconds=${migrate_seconds[$format]}
    "$mapc" migrate --model "$bundle" --store store --allow-data-loss --checkpoints --quiet 2>/dev/null &
  fi
  pid=$!
  sleep "$(python3 -c "import random; print(round(random.uniform(0.0, $seconds * 1.05), 3))")"
  signal=${signals[$((RANDOM % 4))]}
  if kill -s "$signal" "$pid" 2>/dev/null; then kills[$format]=$((kills[$format] + 1)); else finished[$format]=$((finished[$format] + 1)); fi
  wait "$pid" 2>/dev/null
  now=$(content "$format" store)
  if [ "$now" = "$original_content" ]; then
    original[$format]=$((original[$format] + 1))
  elif [ "$now" = "$expected_content" ]; then
    complete[$format]=$((complete[$format] + 1))
  else
    damaged[$format]=$((damaged[$format] + 1))
    echo "kill-torture: run $k ($format $kind, SIG$signal): the store is neither the original nor the result ($now)" >&2
    for f in store store-wal; do [ -e $f ] && cp $f "$OLDPWD/kill-torture-damaged-$k-$f"; done
  fi
  # Rerun (without --checkpoints: a killed run's work folder is resumed all the same): migrate
  # resumes or finds nothing to do; run only makes sense on the original.
  if [ "$kind" = migrate ] || [ "$now" = "$original_content" ]; then
    if [ "$kind" = run ]; then
      "$mapc" run "$mapping" --store store --store-format "$format" --in-place --quiet 2>/dev/null
    else
      "$mapc" migrate --model "$bundle" --store store --allow-data-loss --quiet 2>/dev/null
    fi
    if [ $? -ne 0 ] || [ "$(content "$format" store)" != "$expected_content" ]; then
      rerun_failed[$format]=$((rerun_failed[$format] + 1))
      echo "kill-torture: run $k ($format $kind): the rerun failed or gave another result" >&2
    fi
  fi
  left=$(find . -maxdepth 1 \( -name '.*.mapc-*' -o -name '.store.mapc-migrate' -o -name 'store-journal' \) | wc -l)
  left=$((left + $(find tmp -mindepth 1 -maxdepth 1 | wc -l)))
  if [ "$left" -ne 0 ]; then
    leftovers[$format]=$((leftovers[$format] + 1))
    echo "kill-torture: run $k ($format $kind): left $(find . tmp -maxdepth 1 -name '.*mapc*' -o -path 'tmp/*' | tr '\n' ' ')" >&2
    rm -rf tmp/* .store.*
  fi
done
status=0
for format in "${formats[@]}"; do
  echo "kill-torture: $format: ${runs_of[$format]} runs, ${kills[$format]} kills (${finished[$format]} finished before the signal); after the kill: ${original[$format]} original, ${complete[$format]} complete, ${damaged[$format]} damaged or lost; ${rerun_failed[$format]} reruns failed; ${leftovers[$format]} runs left temporary files"
  [ "${damaged[$format]}" -eq 0 ] && [ "${rerun_failed[$format]}" -eq 0 ] && [ "${leftovers[$format]}" -eq 0 ] || status=1
done
exit $status
