#!/usr/bin/env bash
# Collaboration efficiency (issue: compute time / wall time per peer over K epochs): runs the local demo
# collaboration (a coordinator, 3 volunteers, 1 client-mode volunteer on loopback) with a batch large
# enough that computing an epoch takes far longer than averaging it, and prints the efficiency of the
# volunteers from their second epoch on, its ratio to the bound 1.0, and the computing and averaging time
# per epoch. Needs a build (scripts/setup.sh) and the demo corpus (scripts/demo-corpus.sh).
# Usage: bench/collaboration-efficiency.sh [--steps K] [--target-batch N] [--out DIR]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
steps=10
target=8192
out=$(mktemp -d /tmp/sahaj-efficiency.XXXXXX)
while (($#)); do
  case "$1" in
    --steps) steps=$2; shift ;;
    --target-batch) target=$2; shift ;;
    --out) out=$2; shift ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "collaboration-efficiency.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
rmdir "$out" 2>/dev/null || true
cd "$here"
exec "$here/build/app/node/sahaj-node" demo --peers 3 --clients 1 --steps "$steps" --target-batch "$target" --out "$out"
