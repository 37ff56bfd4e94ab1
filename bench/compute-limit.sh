#!/usr/bin/env bash
# The compute limit gives the share it says: a coordinator and two volunteers on loopback, one computing
# without limit, one held to P % of the time (--max-compute-percent, the app's "compute limit"), one CPU
# thread each. Prints each volunteer's samples per second of wall time over the epochs it stepped in,
# the limited one's ratio to the unlimited one (the reference, measured in the same run; the goal is about
# P/100), and in how many epochs each averaged its own batch (a limited peer that rests through its
# group's rounds averages in none, and its batch is lost to the state it then loads).
# --load N keeps N other busy processes running meanwhile (a volunteer's machine doing other work).
# Usage: bench/compute-limit.sh [--percent P] [--steps K] [--target-batch N] [--load N] [--out DIR] [--node PATH]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$here/bench/lib/loopback-run.sh"
percent=20 steps=10 target=512 load=0 out=''
while (($#)); do
  case "$1" in
    --percent) percent=$2; shift ;;
    --steps) steps=$2; shift ;;
    --target-batch) target=$2; shift ;;
    --load) load=$2; shift ;;
    --out) out=$2; shift ;;
    --node) node=$2; shift ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "compute-limit.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
loopback_prepare compute-limit
for ((i = 0; i < load; i++)); do
  bash -c 'while :; do :; done' &
  pids+=($!)
done
loopback_init "$out" compute-limit "$target"
loopback_coordinator "$out"
volunteers=()
for name in full limited; do
  extra=()
  [ "$name" = limited ] && extra=(--max-compute-percent "$percent")
  loopback_volunteer "$out" "$name" "$steps" "${extra[@]}"
  volunteers+=("${pids[-1]}")
done
wait "${volunteers[@]}"

# Samples per second of wall time over the epochs a volunteer stepped in (not those it caught up by loading
# a state) after its first (which holds its start), how many of them averaged its own batch, and the share
# of that wall time it computed (the limit's own measure: the unlimited volunteer also waits for rounds).
figures() { # name -> "samples_per_second averaged_epochs epochs compute_share"
  awk '{
    samples = wall = compute = 0; loaded = 0
    if (match($0, /"local_samples":[0-9]+/)) samples = substr($0, RSTART + 16, RLENGTH - 16)
    if (match($0, /"wall_seconds":[0-9.e+-]+/)) wall = substr($0, RSTART + 15, RLENGTH - 15)
    if (match($0, /"compute_seconds":[0-9.e+-]+/)) compute = substr($0, RSTART + 18, RLENGTH - 18)
    if ($0 ~ /"state_loaded":true/) loaded = 1
    if (++epochs == 1) next
    if (!loaded) { total += samples; seconds += wall; computing += compute; if (samples > 0) averaged++ }
  } END { printf "%.2f %d %d %.3f\n", (seconds > 0 ? total / seconds : 0), averaged, epochs - 1,
                 (seconds > 0 ? computing / seconds : 0) }' "$out/$1/epochs.jsonl"
}
read -r full_rate full_averaged full_epochs full_share <<<"$(figures full)"
read -r limited_rate limited_averaged limited_epochs limited_share <<<"$(figures limited)"
echo "unlimited volunteer: $full_rate samples/s, averaged its batch in $full_averaged of $full_epochs epochs, computing $full_share of the time"
echo "volunteer held to $percent %: $limited_rate samples/s, averaged its batch in $limited_averaged of $limited_epochs epochs, computing $limited_share of the time"
awk -v l="$limited_rate" -v f="$full_rate" -v p="$percent" 'BEGIN {
  printf "ratio to the unlimited volunteer: %.3f (the limit says %.2f)\n", (f > 0 ? l / f : 0), p / 100 }'
