#!/usr/bin/env bash
# The compute limit gives the share it says: a coordinator and two volunteers on loopback, one computing
# without limit, one held to P % of the time (--max-compute-percent, the app's "compute limit"), one CPU
# thread each. Prints each volunteer's samples per second of wall time over the epochs it stepped in,
# the limited one's ratio to the unlimited one (the reference, measured in the same run; the goal is about
# P/100), and in how many epochs each averaged its own batch (a limited peer that rests through its
# group's rounds averages in none, and its batch is lost to the state it then loads).
# Usage: bench/compute-limit.sh [--percent P] [--steps K] [--target-batch N] [--out DIR] [--node PATH]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
node=$here/build/app/node/sahaj-node
tokenizer=$here/build/tests/data/sample-tokenizer/tokenizer.json
percent=20 steps=10 target=512 out=''
while (($#)); do
  case "$1" in
    --percent) percent=$2; shift ;;
    --steps) steps=$2; shift ;;
    --target-batch) target=$2; shift ;;
    --out) out=$2; shift ;;
    --node) node=$2; shift ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "compute-limit.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$node" ] || { echo "compute-limit.sh: no sahaj-node at $node (run scripts/setup.sh)" >&2; exit 1; }
[ -f "$tokenizer" ] || { echo "compute-limit.sh: no tokenizer at $tokenizer (run scripts/setup.sh)" >&2; exit 1; }
[ -n "$out" ] || out=$(mktemp -d /tmp/sahaj-compute-limit.XXXXXX)
rm -rf "$out" && mkdir -p "$out"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

timing=(--gather-ms 3000 --min-gather-ms 700 --lead-ms 1000 --threads 1)
"$node" run-init --out "$out/run.json" --run-id compute-limit --config tiny \
  --corpus "$here/tests/train/data/bengali-sample.txt" --tokenizer "$tokenizer" --target-batch "$target" \
  --seq 64 --lr 0.01 --warmup 2 --total-steps 100 --average-every 5 --coordinator 127.0.0.1:4600 \
  >"$out/run-init.log" 2>&1 || { cat "$out/run-init.log"; exit 1; }
mkdir -p "$out/coordinator"
"$node" coordinator --manifest "$out/run.json" --listen 127.0.0.1:0 --state-dir "$out/coordinator" \
  --out "$out/coordinator" --steps 1000 "${timing[@]}" >"$out/coordinator/log.out" 2>"$out/coordinator/log.err" &
pids+=($!)
port=$("$here/scripts/coordinator-port.sh" "$out/coordinator/log.out")
[ -n "$port" ] || { echo "compute-limit.sh: the coordinator did not start" >&2; exit 1; }
for name in full limited; do
  extra=()
  [ "$name" = limited ] && extra=(--max-compute-percent "$percent")
  mkdir -p "$out/$name"
  "$node" volunteer --manifest "$out/run.join" --coordinator "127.0.0.1:$port" --identity "$out/$name" \
    --out "$out/$name" --steps "$steps" --seed "${#pids[@]}" "${timing[@]}" "${extra[@]}" \
    >"$out/$name/log.out" 2>"$out/$name/log.err" &
  pids+=($!)
done
wait "${pids[1]}" "${pids[2]}"

# Samples per second of wall time over the epochs a volunteer stepped in (not those it caught up by loading
# a state) after its first (which holds its start), and how many of them averaged its own batch.
figures() { # name -> "samples_per_second averaged_epochs epochs"
  awk '{
    samples = wall = 0; loaded = 0
    if (match($0, /"local_samples":[0-9]+/)) samples = substr($0, RSTART + 16, RLENGTH - 16)
    if (match($0, /"wall_seconds":[0-9.e+-]+/)) wall = substr($0, RSTART + 15, RLENGTH - 15)
    if ($0 ~ /"state_loaded":true/) loaded = 1
    if (++epochs == 1) next
    if (!loaded) { total += samples; seconds += wall; if (samples > 0) averaged++ }
  } END { printf "%.2f %d %d\n", (seconds > 0 ? total / seconds : 0), averaged, epochs - 1 }' "$out/$1/epochs.jsonl"
}
read -r full_rate full_averaged full_epochs <<<"$(figures full)"
read -r limited_rate limited_averaged limited_epochs <<<"$(figures limited)"
echo "unlimited volunteer: $full_rate samples/s, averaged its batch in $full_averaged of $full_epochs epochs"
echo "volunteer held to $percent %: $limited_rate samples/s, averaged its batch in $limited_averaged of $limited_epochs epochs"
awk -v l="$limited_rate" -v f="$full_rate" -v p="$percent" 'BEGIN {
  printf "ratio to the unlimited volunteer: %.3f (the limit says %.2f)\n", (f > 0 ? l / f : 0), p / 100 }'
