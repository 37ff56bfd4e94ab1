#!/usr/bin/env bash
# Delayed parameter updates against synchronous ones (issue: averaging that overlaps computing): the same
# collaboration twice on loopback (a coordinator and three volunteers, one thread each, every volunteer's
# upload held to M Mbit/s so that a round takes about as long as computing a batch), once made with
# `run-init --delayed-updates`. Prints each run's utilisation (compute time over wall time, the volunteers'
# epochs after their first, stepped not loaded), the delayed run's ratio to the synchronous one (the
# reference, measured in the same invocation) and to the bound 1.0, the time a round takes, and the mean
# loss the groups averaged over the last two epochs in each run, with its ratio. --duty P limits the
# volunteers to P % of the time computing (--max-compute-percent): the bound is then P / 100, and the
# utilisation is also printed as a share of it (a limit the volunteer set must hold in both modes).
# Usage: bench/delayed-updates.sh [--mbps M] [--steps K] [--target-batch N] [--duty P] [--out DIR] [--node PATH]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$here/bench/lib/loopback-run.sh"
mbps=4 steps=12 target=512 duty=100 out=''
while (($#)); do
  case "$1" in
    --mbps) mbps=$2; shift ;;
    --steps) steps=$2; shift ;;
    --target-batch) target=$2; shift ;;
    --duty) duty=$2; shift ;;
    --out) out=$2; shift ;;
    --node) node=$2; shift ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "delayed-updates.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
loopback_prepare delayed-updates

# One collaboration in $out/$1; run-init gets the rest of the arguments.
collaborate() {
  local dir=$out/$1
  shift
  loopback_init "$dir" "delayed-$(basename "$dir")" "$target" "$@"
  loopback_coordinator "$dir"
  for name in v1 v2 v3; do
    loopback_volunteer "$dir" "$name" "$steps" --max-upload-mbps "$mbps" --max-compute-percent "$duty"
  done
  wait "${pids[1]}" "${pids[2]}" "${pids[3]}"
  kill "${pids[0]}" 2>/dev/null || true
  wait "${pids[0]}" 2>/dev/null || true
  pids=()
}
collaborate synchronous
collaborate delayed --delayed-updates

/usr/bin/python3 - "$out" "$duty" <<'EOF'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
bound = float(sys.argv[2]) / 100
def figures(run):
    compute = wall = rounds = 0.0
    counted = 0
    last_epoch = 0
    losses = {}
    samples = 0
    for volunteer in ("v1", "v2", "v3"):
        epochs = [json.loads(line) for line in (out / run / volunteer / "epochs.jsonl").open()]
        for epoch in epochs[1:]:
            if epoch.get("state_loaded"):
                continue
            compute += epoch["compute_seconds"]
            samples += epoch["local_samples"]
            wall += epoch["wall_seconds"]
            rounds += epoch.get("round_seconds", 0.0)
            counted += 1
        for epoch in epochs:
            if epoch.get("loss", 0) > 0:
                losses.setdefault(epoch["epoch"], []).append(epoch["loss"])
                last_epoch = max(last_epoch, epoch["epoch"])
    tail = [l for e in (last_epoch - 1, last_epoch) for l in losses.get(e, [])]
    return (compute / wall if wall else 0.0, rounds / counted if counted else 0.0,
            sum(tail) / len(tail) if tail else 0.0, last_epoch, samples * 3 / counted if counted else 0.0)
sync_util, sync_round, sync_loss, sync_last, sync_batch = figures("synchronous")
delayed_util, delayed_round, delayed_loss, delayed_last, delayed_batch = figures("delayed")
# What computing meanwhile buys shows as larger batches: the batch fills during the rounds.
print(f"synchronous updates: utilisation {sync_util:.3f}, {sync_round:.2f} s a round, "
      f"{sync_batch:.0f} samples a step, loss {sync_loss:.4f} over epochs {sync_last - 1}-{sync_last}")
print(f"delayed updates:     utilisation {delayed_util:.3f}, {delayed_round:.2f} s a round, "
      f"{delayed_batch:.0f} samples a step, loss {delayed_loss:.4f} over epochs {delayed_last - 1}-{delayed_last}")
print(f"utilisation ratio to the synchronous run: {delayed_util / sync_util if sync_util else 0:.3f}; "
      f"to the bound {bound:g} (the duty cycle): synchronous {sync_util / bound:.3f}, delayed {delayed_util / bound:.3f}")
print(f"loss ratio to the synchronous run at the same epochs: {delayed_loss / sync_loss if sync_loss else 0:.3f}")
EOF
