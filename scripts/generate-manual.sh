#!/bin/sh
# Writes docs/mapc.1, the manual page, from the commands' own help (swift-argument-parser's
# generate-manual tool). Run it after changing a command or an option; ManualPageTests checks
# that every subcommand and option is in the page.
set -eu
cd "$(dirname "$0")/.."
swift build --product mapc >/dev/null
swift build --product generate-manual >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bin=$(swift build --show-bin-path)
"$bin/generate-manual" "$bin/mapc" --output-directory "$out" \
  --date "${MAN_DATE:-$(git log -1 --format=%cs)}" --authors "the mapc authors"
cp "$out/mapc.1" docs/mapc.1
echo "wrote docs/mapc.1"
