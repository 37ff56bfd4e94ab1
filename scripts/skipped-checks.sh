#!/usr/bin/env bash
# Lists the checks the last ctest run skipped (Qt Test's "SKIP" lines, which ctest counts as passed), so
# that "100% tests passed" never hides a test that did not run. With --allowed FILE, exits 1 when a check
# skipped that FILE does not allow (one extended regular expression per line, matched against
# "Class::function(row)"; '#' starts a comment).
# Usage: scripts/skipped-checks.sh BUILD_DIR [--allowed FILE]
set -euo pipefail
build=${1:?usage: scripts/skipped-checks.sh BUILD_DIR [--allowed FILE]}
allowed=
if [ "${2:-}" = --allowed ]; then
  allowed=${3:?--allowed needs a file}
fi
log="$build/Testing/Temporary/LastTest.log"
if [ ! -f "$log" ]; then
  echo "skipped-checks: no ctest log at $log" >&2
  exit 1
fi
skipped=$(sed -n 's/^SKIP   : \([^ ]*\) \(.*\)$/\1 \2/p' "$log" | sort -u)
if [ -z "$skipped" ]; then
  echo "skipped checks: none"
  exit 0
fi
echo "skipped checks ($(printf '%s\n' "$skipped" | wc -l)):"
printf '%s\n' "$skipped" | cut -c1-200 | sed 's/^/  /'
[ -n "$allowed" ] || exit 0
patterns=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$allowed")
unexpected=$(printf '%s\n' "$skipped" | cut -d' ' -f1 | { grep -Ev -x -e "$(printf '%s' "$patterns" | paste -sd'|')" || true; })
if [ -n "$unexpected" ]; then
  echo "skipped-checks: these checks skipped, and $allowed does not allow it:" >&2
  printf '%s\n' "$unexpected" | sed 's/^/  /' >&2
  exit 1
fi
