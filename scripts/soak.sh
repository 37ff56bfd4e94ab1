#!/usr/bin/env bash
# The soak (issue: the emulated Internet): the paper's 40 volunteers on hosts of their own, a third behind
# NAT, coming and going by a seeded trace, for hours; figures and a report at the end. See
# scripts/soak/soak.py for what it does and its options; docs/soak.md for what it found.
#
#   scripts/soak.sh [--volunteers 40] [--minutes 120] [--seed 1] [--duty 4] [--out DIR] [--clean] [--check]
#                  [--delayed-updates]
#                  [--experiment-env NAME=VALUE]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Debian's own Python: the one setup installs python3-matplotlib for (a python3 earlier on PATH may lack it).
exec /usr/bin/python3 "$here/scripts/soak/soak.py" "$@"
