#!/usr/bin/env bash
# Builds the release `mapc` a team can copy to any machine of the same OS and architecture, with
# no Swift toolchain there: on Linux the Swift runtime and Foundation are linked in
# (`--static-swift-stdlib`); what it still loads are the system's C libraries (libc, libxml2,
# libsqlite3, zlib: `apt-get install libxml2 libsqlite3-0 zlib1g`). Then checks it with
# scripts/check-static-binary.sh. Prints the binary's path last.
#
#   scripts/build-release.sh [swift build options...]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(uname -s)" = Linux ]; then
  swift build -c release --product mapc --static-swift-stdlib "$@" >&2
  bin="$(swift build -c release --static-swift-stdlib --show-bin-path "$@")/mapc"
  scripts/check-static-binary.sh "$bin" >&2
else
  # Apple platforms ship the Swift runtime with the OS: there is nothing to link in.
  swift build -c release --product mapc "$@" >&2
  bin="$(swift build -c release --show-bin-path "$@")/mapc"
fi
echo "$bin"
