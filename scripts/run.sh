#!/usr/bin/env bash
# The main job on its built-in default: set everything up, build the Bengali demo corpus, train a tokenizer
# on it, and train the `small` model on this machine, printing progress. A second run continues from the
# last checkpoint. sahajBERT's learning rate is tuned for a 4096-sample batch; a short local run on a CPU
# uses a larger peak rate with a short warmup (docs/training.md).
# Usage: scripts/run.sh [--steps N] [--batch B] [--seq L]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
steps=400
batch=8
seq=128
while (($#)); do
  case "$1" in
    --steps) steps=$2; shift ;;
    --batch) batch=$2; shift ;;
    --seq) seq=$2; shift ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done

"$here/scripts/setup.sh"
node="$here/build/app/node/sahaj-node"
corpus="$here/build/data/demo-corpus"
"$here/scripts/demo-corpus.sh" --out "$corpus"

tokenizer="$here/build/runs/tokenizer"
if [ ! -f "$tokenizer/tokenizer.json" ]; then
  "$node" tokenizer-train --corpus "$corpus/train.txt" --documents paragraphs --vocab 8000 --out "$tokenizer"
fi

out="$here/build/runs/small-local"
resume=()
[ -f "$out/checkpoint/optimizer.json" ] && resume=(--resume)
exec "$node" train-local --config small --corpus "$corpus/train.txt" --documents paragraphs --tokenizer "$tokenizer/tokenizer.json" \
  --steps "$steps" --batch "$batch" --seq "$seq" --lr 0.015 --warmup 20 --log-every 10 --out "$out" "${resume[@]}"
