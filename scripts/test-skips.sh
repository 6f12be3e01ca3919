#!/usr/bin/env bash
# test-skips.sh LOG [--fail]: lists the tests and suites that `swift test` skipped, with the
# reason each gives (LOG holds the output of `swift test`). A test skips only when something it
# needs is missing: ../shared, or a tool such as xmllint, dot or Chromium, named with its Debian
# package. With --fail it exits 1 when any skipped: .ci/run, which has ../shared and installs
# every tool, uses it, so there a skip is a failure; .ci/run-macos only lists them.
set -euo pipefail
log=${1:?usage: test-skips.sh LOG [--fail]}
fail=${2:-}
# Swift Testing reports `Test name() skipped: "reason"` and `Suite Name skipped: "reason"`.
skipped=$(grep -E '(Test|Suite) .+ skipped(: |\.$|$)' "$log" || true)
if [ -z "$skipped" ]; then
  echo "test-skips: no test skipped"
  exit 0
fi
count=$(printf '%s\n' "$skipped" | wc -l | tr -d ' ')
echo "test-skips: $count tests or suites skipped:"
printf '%s\n' "$skipped" | sed 's/^/  /'
if [ "$fail" = "--fail" ]; then
  echo "test-skips: none may skip here (every tool is installed and ../shared is beside the clone)" >&2
  exit 1
fi
