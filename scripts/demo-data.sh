#!/usr/bin/env bash
# The demo's training text and tokenizer, built once in the build folder: the Bengali demo corpus
# (scripts/demo-corpus.sh) and a tokenizer trained on it. scripts/run.sh, scripts/screenshots.sh and the
# package use them. Expects the build (scripts/setup.sh) to be done.
# Usage: scripts/demo-data.sh   (prints nothing when both exist)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
node="$here/build/app/node/sahaj-node"
corpus="$here/build/data/demo-corpus"
"$here/scripts/demo-corpus.sh" --out "$corpus"
tokenizer="$here/build/runs/tokenizer"
if [ ! -f "$tokenizer/tokenizer.json" ]; then
  "$node" tokenizer-train --corpus "$corpus/train.txt" --documents paragraphs --vocab 8000 --out "$tokenizer"
fi
