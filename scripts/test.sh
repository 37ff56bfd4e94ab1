#!/usr/bin/env bash
# Sets everything up (Debian packages, build) and runs every test: unit, integration and gui labels.
# Usage: scripts/test.sh [extra ctest arguments, e.g. -L unit]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$here/scripts/setup.sh"
cd "$here/build"
# Tests that start several processes are already parallel inside; two at a time keeps CI's 2 cores busy.
ctest --output-on-failure --no-tests=error -j "$(nproc)" "$@"
