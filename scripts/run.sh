#!/usr/bin/env bash
# The main job on its built-in default: set everything up, build the Bengali demo corpus, train a tokenizer
# on it, and run a local collaboration on loopback. Where there is a display ($DISPLAY or
# $WAYLAND_DISPLAY) the desktop app opens and joins one (`sahaj-volunteer --demo`: a coordinator and two
# volunteers as sahaj-node processes, every panel alive) until you quit it. Without a display (or with
# --headless): a coordinator, three volunteers and one client-mode volunteer, each its own sahaj-node
# process, train the tiny model together for --steps global steps (default 60, about four minutes on two
# cores, the loss falling by a quarter) with live progress and a fill-mask example before and after; the
# run's summary.json lands in build/runs/demo-<time>/.
# With --local it trains the `small` model on this machine alone instead (a second run continues from the
# last checkpoint; sahajBERT's learning rate is tuned for a 4096-sample batch, so a short local run on a CPU
# uses a larger peak rate with a short warmup, docs/training.md).
# Usage: scripts/run.sh [--headless] [--steps N] [--local [--batch B] [--seq L]]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
steps=
local=0
headless=0
batch=8
seq=128
while (($#)); do
  case "$1" in
    --steps) steps=$2; shift ;;
    --batch) batch=$2; shift ;;
    --seq) seq=$2; shift ;;
    --local) local=1 ;;
    --headless) headless=1 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done

"$here/scripts/setup.sh"
"$here/scripts/demo-data.sh"
node="$here/build/app/node/sahaj-node"
corpus="$here/build/data/demo-corpus"
tokenizer="$here/build/runs/tokenizer"

# Where there is a display, the desktop app joins the same kind of local collaboration and shows it.
if [ "$local" = 0 ] && [ "$headless" = 0 ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  exec "$here/build/app/volunteer/sahaj-volunteer" --demo
fi

if [ "$local" = 0 ]; then
  exec "$node" demo ${steps:+--steps "$steps"} --tokenizer "$tokenizer/tokenizer.json" --corpus "$corpus/train.txt" \
    --out "$here/build/runs/demo-$(date +%Y%m%d-%H%M%S)"
fi

out="$here/build/runs/small-local"
resume=()
[ -f "$out/checkpoint/optimizer.json" ] && resume=(--resume)
exec "$node" train-local --config small --corpus "$corpus/train.txt" --documents paragraphs --tokenizer "$tokenizer/tokenizer.json" \
  --steps "${steps:-400}" --batch "$batch" --seq "$seq" --lr 0.015 --warmup 20 --log-every 10 --out "$out" "${resume[@]}"
