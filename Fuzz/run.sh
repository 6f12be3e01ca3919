#!/usr/bin/env bash
# Fuzz targets for mapc's readers (libFuzzer + address sanitizer, through the toolchain's
# -sanitize=fuzzer). Usage:
#   Fuzz/run.sh --list                 the targets
#   Fuzz/run.sh TARGET SECONDS         build, seed and fuzz one target for SECONDS
#   Fuzz/run.sh all SECONDS            every target, SECONDS each
# Exits non-zero on a crash, leak or timeout (libFuzzer's own exit status); the reproducer is
# saved in Fuzz/artifacts/TARGET/ and the command to replay it is printed. A reproducer moved
# to Fuzz/regressions/TARGET/ is replayed before every later run. Seed corpora are
# built at run time in .build-fuzz/corpus/TARGET from ../shared (corpus, stores, fixtures)
# and from the repository's own examples; nothing from ../shared is copied into the repository.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
shared=${MAPC_SHARED:-$root/../shared}
scratch=$root/.build-fuzz
targets=(model-xml mapping-xml expression plan json-store xcmappingmodel bplist keyed-archive)

if [ "${1:-}" = "--list" ]; then printf '%s\n' "${targets[@]}"; exit 0; fi
target=${1:?usage: Fuzz/run.sh TARGET SECONDS | --list}
seconds=${2:?usage: Fuzz/run.sh TARGET SECONDS}
if [ "$target" = all ]; then
  status=0
  for t in "${targets[@]}"; do "$0" "$t" "$seconds" || status=1; done
  exit $status
fi
printf '%s\n' "${targets[@]}" | grep -qx "$target" || { echo "Fuzz/run.sh: unknown target $target (Fuzz/run.sh --list)" >&2; exit 64; }

# Build (all targets at once; the libraries are shared).
mkdir -p "$scratch"
if [ ! -x "$scratch/release/$target" ] || [ -z "${FUZZ_NO_BUILD:-}" ]; then
  (cd "$here" && swift build --scratch-path "$scratch" -c release \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -g >"$scratch/build.log" 2>&1) || {
    tail -30 "$scratch/build.log" >&2; echo "Fuzz/run.sh: build failed (log: $scratch/build.log)" >&2; exit 2; }
fi

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
    for m in "$root"/Mappings/tasks/mappings/*.xml "$shared"/fixtures/diary/*.xml; do
      [ -f "$m" ] && "$root/.build-harden/debug/mapc" compile "$m" -o "$corpus/$(basename "$m").cdm" --quiet 2>/dev/null || true
    done ;;
  json-store) seed "$root/Mappings" "$shared/stores" "$shared/fixtures" -name '*.json'
    printf '{"objects":{"A":[{"id":"a","b":"AAEC","bo":true,"d":"2001-01-01T00:00:00Z","de":"1.5","do":2.5,"i":3,"l":-9,"s":"x","t":{"k":[1]},"u":"6BA7B810-9DAD-11D1-80B4-00C04FD430C8","many":["b"]}],"B":[{"id":"b","one":"a"}]}}' >"$corpus/typed" ;;
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
esac
echo "Fuzz/run.sh: $target: $(ls "$corpus" | wc -l) seeds; fuzzing for $seconds s"

artifacts=$here/artifacts/$target
mkdir -p "$artifacts"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
# Inputs that once crashed or leaked (Fuzz/regressions/TARGET) are replayed first, each many
# times (libFuzzer checks leaks between runs), and seed the corpus.
if [ -d "$here/regressions/$target" ] && [ -n "$(ls "$here/regressions/$target")" ]; then
  for f in "$here/regressions/$target"/*; do
    if ! "$scratch/release/$target" -runs=200 "$f" >"$scratch/$target.replay.log" 2>&1; then
      grep -E "ERROR|SUMMARY" "$scratch/$target.replay.log" | head -3 >&2
      echo "Fuzz/run.sh: $target FAILED on the regression input $f (log: $scratch/$target.replay.log)" >&2
      exit 1
    fi
    cp "$f" "$corpus/"
  done
fi
set +e
"$scratch/release/$target" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
  -max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts/" 2>"$scratch/$target.log"
status=$?
set -e
grep -E "^#[0-9]+.*(DONE|pulse|NEW)|stat::number_of_executed_units|stat::peak_rss|cov:" "$scratch/$target.log" | tail -3
if [ $status -ne 0 ]; then
  grep -E "ERROR|SUMMARY|Test unit written" "$scratch/$target.log" | head -5 >&2
  echo "Fuzz/run.sh: $target FAILED (exit $status); reproduce with: $scratch/release/$target $artifacts/<file>" >&2
  exit 1
fi
echo "Fuzz/run.sh: $target: no crash, leak or timeout"
