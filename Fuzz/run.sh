#!/usr/bin/env bash
# Fuzz targets for mapc's readers (libFuzzer + address sanitizer, through the toolchain's
# -sanitize=fuzzer). Usage:
#   Fuzz/run.sh --list                 the targets
#   Fuzz/run.sh --build                build every target, nothing else
#   Fuzz/run.sh TARGET SECONDS         build, seed and fuzz one target for SECONDS
#   Fuzz/run.sh all SECONDS            every target, SECONDS each (built once; FUZZ_JOBS targets
#                                      at a time, 1 unless set, each one's output shown whole)
# Exits non-zero on a crash, leak or timeout (libFuzzer's own exit status); the reproducer is
# saved in Fuzz/artifacts/TARGET/ and the command to replay it is printed. A reproducer moved
# to Fuzz/regressions/TARGET/ is replayed before every later run. Seed corpora are
# built at run time in .build-fuzz/corpus/TARGET from ../shared (corpus, stores, fixtures)
# and from the repository's own examples; nothing from ../shared is copied into the repository.
# The build folder is .build-fuzz (FUZZ_SCRATCH to choose another), used by nothing else; the
# configuration is release (FUZZ_CONFIG=debug: about half the build time, 2 to 8 times fewer
# executions a second, the same sanitizers; what CI's 5-second smoke run uses); the
# plan target compiles its own seed plans (FUZZ_PLAN_SEEDS, see its source). Each target
# runs with TMPDIR set to a folder of its own, which must be empty of mapc's files afterwards.
# See Fuzz/README.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
shared=${MAPC_SHARED:-$root/../shared}
scratch=${FUZZ_SCRATCH:-$root/.build-fuzz}
config=${FUZZ_CONFIG:-release}
case $config in debug|release) ;; *) echo "Fuzz/run.sh: FUZZ_CONFIG is debug or release, not $config" >&2; exit 64 ;; esac
targets=(model-xml mapping-xml expression plan json-store xcmappingmodel bplist keyed-archive sqlite-store
  swift-schema fixture-file lock-file model-cache text-plist)

build() { # Build (all targets at once; the libraries are shared).
  mkdir -p "$scratch"
  (cd "$here" && swift build --scratch-path "$scratch" -c "$config" --disable-index-store \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -g >"$scratch/build.log" 2>&1) || {
    tail -30 "$scratch/build.log" >&2; echo "Fuzz/run.sh: build failed (log: $scratch/build.log)" >&2; exit 2; }
}
if [ "${1:-}" = "--list" ]; then printf '%s\n' "${targets[@]}"; exit 0; fi
if [ "${1:-}" = "--build" ]; then build; exit 0; fi
target=${1:?usage: Fuzz/run.sh TARGET SECONDS | all SECONDS | --build | --list}
seconds=${2:?usage: Fuzz/run.sh TARGET SECONDS}
if [ "$target" = all ]; then
  # Built once here; then the targets run one at a time, or FUZZ_JOBS lanes run them in turn (a
  # target's output then goes to a file, printed whole once every lane is done, in the targets'
  # order).
  [ -n "${FUZZ_NO_BUILD:-}" ] && [ -x "$scratch/$config/${targets[0]}" ] || build
  jobs=${FUZZ_JOBS:-1}
  case $jobs in '' | *[!0-9]*) echo "Fuzz/run.sh: FUZZ_JOBS is a number, not $jobs" >&2; exit 64 ;; esac
  if [ "$jobs" -le 1 ]; then # one at a time: each target's output as it comes
    status=0
    for t in "${targets[@]}"; do FUZZ_NO_BUILD=1 "$0" "$t" "$seconds" || status=1; done
    exit $status
  fi
  rm -rf "$scratch/out"; mkdir -p "$scratch/out"
  for ((lane = 0; lane < jobs; lane++)); do
    (for ((i = lane; i < ${#targets[@]}; i += jobs)); do
      t=${targets[$i]}
      rc=0; FUZZ_NO_BUILD=1 "$0" "$t" "$seconds" >"$scratch/out/$t" 2>&1 || rc=$?
      echo $rc >"$scratch/out/$t.status"
    done) &
  done
  wait
  status=0
  for t in "${targets[@]}"; do
    cat "$scratch/out/$t"
    [ "$(cat "$scratch/out/$t.status" 2>/dev/null)" = 0 ] || status=1
  done
  exit $status
fi
# (Not `printf | grep -q`: grep stops at the first match, printf may then die of SIGPIPE, and
# with pipefail a known target was refused as unknown: a CI failure on model-xml, the first.)
known=0
for t in "${targets[@]}"; do [ "$t" = "$target" ] && known=1; done
[ "$known" = 1 ] || { echo "Fuzz/run.sh: unknown target $target (Fuzz/run.sh --list)" >&2; exit 64; }
bin=$scratch/$config/$target
if [ ! -x "$bin" ] || [ -z "${FUZZ_NO_BUILD:-}" ]; then build; fi

# Seeds: files of the kinds the target reads, copied into a corpus folder outside the repository.
corpus=$scratch/corpus/$target
mkdir -p "$corpus"
seed() { # seed FIND-ARGS...: copies matching files (at most 2 MB each) into the corpus
  find "$@" -type f -size -2M 2>/dev/null | while read -r f; do
    cp "$f" "$corpus/$(echo "$f" | md5sum | cut -c1-16)" 2>/dev/null || true; done
}
case $target in
  model-xml) seed "$root/Mappings" "$root/Examples" "$shared" -name contents ;;
  mapping-xml) seed "$root/Mappings" "$root/Examples" "$shared/fixtures" -name '*.xml' ;;
  xcmappingmodel) seed "$root/Mappings" "$shared" -name xcmapping.xml ;;
  plan)
    # The target compiles its own seeds (mapping files into plans) before fuzzing: no mapc needed.
    list=$(find "$root/Mappings" "$shared/fixtures" -name "*.xml" -size -256k 2>/dev/null | sort | head -200)
    FUZZ_PLAN_SEEDS=$list FUZZ_PLAN_CORPUS=$corpus "$bin" >/dev/null 2>&1 \
      || echo "Fuzz/run.sh: plan: seed plans could not be compiled; seeding from regressions only" >&2 ;;
  json-store) seed "$root/Mappings" "$shared/stores" "$shared/fixtures" -name '*.json' ;;
  expression)
    grep -rhoE '<(attribute|relationship|source|filter|forEach)[^>]*>[^<]{1,400}<' "$root/Mappings" "$shared/fixtures" 2>/dev/null \
      | sed -E 's/^<[^>]*>//; s/<$//' | sort -u | head -2000 | while IFS= read -r line; do
        printf '%s' "$line" >"$corpus/$(printf '%s' "$line" | md5sum | cut -c1-16)"; done ;;
  bplist|keyed-archive)
    # The archived expressions inside .xcmappingmodel files (base64 in xcmapping.xml).
    find "$shared" "$root/Mappings" -name xcmapping.xml -size -2M 2>/dev/null | head -40 | while read -r f; do
      python3 - "$f" "$corpus" <<'PY'
import base64, hashlib, re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
for b in re.findall(r'type="binary"[^>]*>([A-Za-z0-9+/=\s]{40,})<', text)[:200]:
    try:
        data = base64.b64decode(b)
    except Exception:
        continue
    open(f"{sys.argv[2]}/{hashlib.md5(data).hexdigest()[:16]}", "wb").write(data)
PY
    done ;;
  sqlite-store)
    # Real Core Data stores up to 1 MB, and each WAL store with its -wal folded in (by python's
    # sqlite3, on a copy), so the frames only the -wal holds are seeds too. The model bundles
    # beside them give the target the layouts to read them with.
    seed "$shared/stores" -name '*.sqlite' -size -1025k
    find "$shared/stores" -name '*.sqlite-wal' -size +0 2>/dev/null | while read -r wal; do
      db=${wal%-wal}; copy=$scratch/wal-copy.sqlite
      rm -f "$copy" "$copy-wal" "$copy-shm"; cp "$db" "$copy"; cp "$wal" "$copy-wal"
      python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("PRAGMA wal_checkpoint(TRUNCATE)"); c.execute("PRAGMA journal_mode=DELETE"); c.close()' "$copy" 2>/dev/null \
        && cp "$copy" "$corpus/$(echo "$wal" | md5sum | cut -c1-16)-folded"
      rm -f "$copy" "$copy-wal" "$copy-shm"
    done
    FUZZ_SQLITE_MODELS=$(find "$shared/stores" -name '*.xcdatamodeld' -type d 2>/dev/null | sort)
    export FUZZ_SQLITE_MODELS ;;
  swift-schema) seed "$root/Examples" -name '*.swift' ;;
  fixture-file) seed "$root/Mappings" "$shared/fixtures" -name fixture.json ;;
  model-cache)
    # The Z_MODELCACHE rows of the shared stores (python3's sqlite3, on copies with their -wal).
    find "$shared/stores" "$shared/swiftdata" \( -name '*.sqlite' -o -name '*.store' -o -name '*.wiredatabase' \) 2>/dev/null | while read -r db; do
      python3 - "$db" "$corpus" "$scratch" <<'PY' 2>/dev/null || true
import hashlib, os, shutil, sqlite3, sys
db, corpus, scratch = sys.argv[1:4]
copy = os.path.join(scratch, "cache-copy")
for suffix in ("", "-wal"):
    if os.path.exists(db + suffix):
        shutil.copyfile(db + suffix, copy + suffix)
    elif os.path.exists(copy + suffix):
        os.remove(copy + suffix)
for (blob,) in sqlite3.connect(copy).execute("SELECT Z_CONTENT FROM Z_MODELCACHE"):
    open(os.path.join(corpus, hashlib.md5(blob).hexdigest()[:16]), "wb").write(blob)
PY
    done ;;
esac
# Seeds written here for the targets whose inputs no shared file has (a JSON store of every
# attribute type, SwiftData classes, an Xcode project file, a lock): Fuzz/seeds/TARGET, which
# FuzzReplayTests replays too.
if [ -d "$here/seeds/$target" ]; then cp "$here/seeds/$target"/* "$corpus/"; fi
echo "Fuzz/run.sh: $target: $(ls "$corpus" | wc -l) seeds; fuzzing for $seconds s"
# Longest input: SQLite stores are whole databases (pages of 4 KiB); every other reader's
# interesting inputs are small.
max_len=65536
[ "$target" = sqlite-store ] && max_len=1048576
# A temporary folder of the target's own: whatever a reader leaves there is a finding.
export TMPDIR=$scratch/tmp/$target
rm -rf "$TMPDIR"; mkdir -p "$TMPDIR"
leftovers() { # leftovers: files a reader left in TMPDIR (the target's own scratch files aside)
  find "$TMPDIR" -mindepth 1 -maxdepth 1 ! -name 'fuzz-*.sqlite' | head -5
}

artifacts=$here/artifacts/$target
mkdir -p "$artifacts"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
# Inputs that once crashed or leaked (Fuzz/regressions/TARGET) are replayed first, each many
# times (libFuzzer checks leaks between runs), and seed the corpus.
if [ -d "$here/regressions/$target" ] && [ -n "$(ls "$here/regressions/$target")" ]; then
  for f in "$here/regressions/$target"/*; do
    if ! "$bin" -runs=200 "$f" >"$scratch/$target.replay.log" 2>&1 || [ -n "$(leftovers)" ]; then
      grep -E "ERROR|SUMMARY" "$scratch/$target.replay.log" | head -3 >&2 || true
      echo "Fuzz/run.sh: $target FAILED on the regression input $f (log: $scratch/$target.replay.log)" >&2
      exit 1
    fi
    cp "$f" "$corpus/"
  done
fi
set +e
"$bin" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
  -max_len=$max_len -print_final_stats=1 -artifact_prefix="$artifacts/" 2>"$scratch/$target.log"
status=$?
set -e
# (None of these lines when an input crashes before libFuzzer's first report: the failure below
# is still shown.)
grep -E "^#[0-9]+.*(DONE|pulse|NEW)|stat::number_of_executed_units|stat::peak_rss|cov:" "$scratch/$target.log" | tail -3 || true
if [ $status -ne 0 ]; then
  grep -E "ERROR|SUMMARY|Test unit written" "$scratch/$target.log" | head -5 >&2 || true
  echo "Fuzz/run.sh: $target FAILED (exit $status); reproduce with: $bin $artifacts/<file>" >&2
  exit 1
fi
if [ -n "$(leftovers)" ]; then
  echo "Fuzz/run.sh: $target FAILED: files left in $TMPDIR: $(leftovers | tr '\n' ' ')" >&2
  exit 1
fi
echo "Fuzz/run.sh: $target: no crash, leak, timeout or leftover file"
