#!/usr/bin/env bash
# Kill torture (issue 17): kills `mapc run --in-place` and `mapc migrate` at random moments
# (SIGKILL, SIGTERM or SIGINT) on stores that take seconds to migrate, and checks after each
# kill that the store is byte for byte the original or the complete result, that a rerun
# succeeds with the complete result, and that no temporary file or work folder is left.
#
#   scripts/kill-torture.sh RUNS            (MAPC=path/to/mapc, default .build/debug/mapc;
#                                            TASKS=number of tasks in the store, default 150000)
# Prints the counts; exits 1 if any store was damaged or lost, or a rerun failed.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:?usage: scripts/kill-torture.sh RUNS}
mapc=${MAPC:-.build/debug/mapc}
tasks=${TASKS:-150000}
[ -x "$mapc" ] || { echo "kill-torture: no mapc at $mapc (build first or set MAPC)" >&2; exit 2; }
mapc=$(cd "$(dirname "$mapc")" && pwd)/$(basename "$mapc")
bundle=$PWD/Mappings/tasks/Tasks.xcdatamodeld
mapping=$PWD/Mappings/tasks/mappings/TasksV3ToV4.xml
work=$(mktemp -d "${TMPDIR:-/tmp}/mapc-kill-torture.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

# A Tasks 1 store with $tasks tasks in 50 lists.
python3 - "$tasks" > v1.json <<'PY'
import json, sys
n = int(sys.argv[1])
lists = [{"id": f"l{i}", "name": f"List {i}"} for i in range(50)]
tasks = [{"id": f"t{i}", "done": i % 3 == 0, "list": f"l{i % 50}", "note": f"note {i}" if i % 2 else None,
          "priority": i % 5, "title": f"Task number {i}"} for i in range(n)]
print(json.dumps({"objects": {"Task": tasks, "TaskList": lists}}))
PY
# Give it Tasks 1's metadata (hashes), from the example store.
python3 - "$OLDPWD/Mappings/tasks/store-v1.json" v1.json <<'PY'
import json, sys
meta = json.load(open(sys.argv[1]))["metadata"]
store = json.load(open(sys.argv[2]))
store = {"metadata": meta, "objects": store["objects"]}
json.dump(store, open(sys.argv[2], "w"), indent=1)
PY
cp v1.json tmp.json
"$mapc" migrate --model "$bundle" --store tmp.json --to "Tasks 3" --quiet || { echo "kill-torture: cannot make the Tasks 3 store" >&2; exit 2; }
mv tmp.json v3.json
# The complete results, from runs nobody kills (timed, to pick kill moments).
cp v3.json expected-run.json
start=$(date +%s.%N)
"$mapc" run "$mapping" --store expected-run.json --in-place --quiet || exit 2
run_seconds=$(echo "$(date +%s.%N) - $start" | bc)
cp v1.json expected-migrate.json
start=$(date +%s.%N)
"$mapc" migrate --model "$bundle" --store expected-migrate.json --quiet || exit 2
migrate_seconds=$(echo "$(date +%s.%N) - $start" | bc)
echo "kill-torture: $tasks tasks ($(stat -c %s v1.json) bytes); run --in-place takes ${run_seconds}s, migrate ${migrate_seconds}s"

kills=0 original=0 complete=0 damaged=0 rerun_failed=0 leftovers=0 finished=0
signals=(KILL KILL TERM INT)
for ((k = 1; k <= runs; k++)); do
  rm -rf store.json .store.json.* old.json
  if ((k % 2)); then
    kind=run; cp v3.json store.json; base=v3.json; expected=expected-run.json; seconds=$run_seconds
    "$mapc" run "$mapping" --store store.json --in-place --quiet 2>/dev/null &
  else
    kind=migrate; cp v1.json store.json; base=v1.json; expected=expected-migrate.json; seconds=$migrate_seconds
    "$mapc" migrate --model "$bundle" --store store.json --quiet 2>/dev/null &
  fi
  pid=$!
  sleep "$(python3 -c "import random; print(round(random.uniform(0.0, $seconds * 1.05), 3))")"
  signal=${signals[$((RANDOM % 4))]}
  if kill -s "$signal" "$pid" 2>/dev/null; then kills=$((kills + 1)); else finished=$((finished + 1)); fi
  wait "$pid" 2>/dev/null
  if cmp -s store.json "$base"; then
    original=$((original + 1))
  elif cmp -s store.json "$expected"; then
    complete=$((complete + 1))
  else
    damaged=$((damaged + 1))
    echo "kill-torture: run $k ($kind, SIG$signal): store.json is neither the original nor the result" >&2
    cp store.json "$OLDPWD/kill-torture-damaged-$k.json" 2>/dev/null
  fi
  # Rerun: migrate resumes or finds nothing to do; run only makes sense on the original.
  if [ "$kind" = migrate ] || cmp -s store.json "$base"; then
    if [ "$kind" = run ]; then
      "$mapc" run "$mapping" --store store.json --in-place --quiet 2>/dev/null
    else
      "$mapc" migrate --model "$bundle" --store store.json --quiet 2>/dev/null
    fi
    if [ $? -ne 0 ] || ! cmp -s store.json "$expected"; then
      rerun_failed=$((rerun_failed + 1))
      echo "kill-torture: run $k ($kind): the rerun failed or gave other bytes" >&2
    fi
  fi
  left=$(find . -maxdepth 1 \( -name '.*.mapc-*.tmp' -o -name '.store.json.mapc-migrate' \) | wc -l)
  if [ "$left" -ne 0 ]; then
    leftovers=$((leftovers + 1))
    echo "kill-torture: run $k ($kind): left $(find . -maxdepth 1 -name '.*mapc*' | tr '\n' ' ')" >&2
  fi
done
echo "kill-torture: $runs runs, $kills kills ($finished finished before the signal); after the kill: $original original, $complete complete, $damaged damaged or lost; $rerun_failed reruns failed; $leftovers runs left temporary files"
[ "$damaged" -eq 0 ] && [ "$rerun_failed" -eq 0 ] && [ "$leftovers" -eq 0 ]
