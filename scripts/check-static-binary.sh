#!/usr/bin/env bash
# Checks that a Linux `mapc` runs without the Swift toolchain (scripts/build-release.sh runs it;
# so does `.ci/run release`, on the release build):
# 1. `ldd` names no Swift library (libswift*, libFoundation*, lib_Foundation*, libdispatch,
#    libBlocksRuntime) and nothing inside the toolchain, and finds every library it needs;
# 2. the binary, copied out of the build folder, compiles and runs a worked example with an
#    empty environment (LD_LIBRARY_PATH empty, the toolchain not on PATH) and, where user
#    namespaces allow it, with the toolchain's folder hidden under an empty tmpfs.
#
#   scripts/check-static-binary.sh PATH/TO/mapc
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: scripts/check-static-binary.sh PATH/TO/mapc}
fail() {
  echo "check-static-binary: $*" >&2
  exit 1
}
[ -x "$bin" ] || fail "$bin is not an executable file"
swift_path="$(command -v swift || true)"
toolchain=""
if [ -n "$swift_path" ]; then toolchain="$(dirname "$(dirname "$(readlink -f "$swift_path")")")"; fi

libraries="$(ldd "$bin" 2>&1)" || fail "ldd failed on $bin: $libraries"
if grep -Eq 'libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime' <<<"$libraries"; then
  fail "$bin loads Swift libraries at run time:"$'\n'"$(grep -E 'libswift|Foundation|dispatch|Blocks' <<<"$libraries")"
fi
if grep -q 'not found' <<<"$libraries"; then fail "libraries not found:"$'\n'"$libraries"; fi
if [ -n "$toolchain" ] && [ "$toolchain" != /usr ] && grep -qF "$toolchain/" <<<"$libraries"; then
  fail "$bin loads libraries from the toolchain ($toolchain):"$'\n'"$libraries"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$bin" "$work/mapc"
cp -R Mappings/notes "$work/notes"
# The example: compile the Xcode mapping model, run it on the JSON store, compare with the
# expected store (both as JSON, read by python3 when present, else byte for byte).
cat >"$work/example.sh" <<'SCRIPT'
set -eu
cd "$1"
./mapc --version >/dev/null
./mapc compile notes/NotesV1ToV2.xcmappingmodel -o notes.cdm --quiet
./mapc run notes.cdm --store notes/store-v1.json --output out.json --quiet
SCRIPT
clean_path=/usr/bin:/bin
if [ -n "$toolchain" ] && [ "$toolchain" = /usr ]; then
  echo "check-static-binary: the toolchain is installed in /usr: PATH cannot hide it" >&2
fi
env -i HOME="$work" PATH="$clean_path" LD_LIBRARY_PATH= sh "$work/example.sh" "$work" \
  || fail "mapc did not run with an empty environment"
compare() {
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' "$1" "$2"
  else
    cmp -s "$1" "$2"
  fi
}
compare "$work/out.json" "$work/notes/expected-v2.json" || fail "the run's output differs from notes/expected-v2.json"
hidden="no"
if [ -n "$toolchain" ] && [ "$toolchain" != /usr ] && command -v unshare >/dev/null 2>&1 \
  && unshare -rm true 2>/dev/null; then
  rm -f "$work/out.json" "$work/notes.cdm"
  unshare -rm sh -c 'mount -t tmpfs none "$1" && shift && exec env -i HOME="$1" PATH=/usr/bin:/bin LD_LIBRARY_PATH= sh "$1/example.sh" "$1"' \
    sh "$toolchain" "$work" || fail "mapc did not run with the toolchain ($toolchain) hidden"
  compare "$work/out.json" "$work/notes/expected-v2.json" || fail "the run's output differs with the toolchain hidden"
  hidden="yes"
fi
echo "check-static-binary: $bin needs no Swift library; runs with an empty environment; with the toolchain's folder hidden: $hidden"
