#!/usr/bin/env bash
# Builds MapcKit's documentation (Sources/MapcKit/MapcKit.docc and every public symbol's `///`
# comment) with the Swift-DocC plugin, a warning (an undocumented symbol, a broken link) failing
# the build. The archive is written to .build/plugins/Swift-DOCC/outputs/MapcKit.doccarchive.
#
#   scripts/build-docs.sh [extra generate-documentation options...]
set -euo pipefail
cd "$(dirname "$0")/.."
# --disable-sandbox: the plugin runs docc, which writes outside the plugin's sandbox on Linux.
swift package --disable-sandbox generate-documentation --target MapcKit --warnings-as-errors "$@"
