#!/usr/bin/env bash
# A collaboration across the emulated Internet (scripts/netns/internet.sh; root): the coordinator and one
# volunteer on public hosts, two volunteers at home behind NAT, which nobody can dial, so they join as
# clients. Trains the tiny model for STEPS epochs, then prints each volunteer's groups per epoch and checks
# that every volunteer reached STEPS with the same parameters (summary.json's final_params_sha256).
#
#   scripts/netns/nat-collaboration.sh [--node NODE] [--tokenizer FILE] [--out DIR] [--steps 4]
#
# Defaults: the build's sahaj-node, the tokenizer setup trains for the tests, a temporary folder. Exits 0
# when every volunteer reached STEPS with equal parameters.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
node=$here/build/app/node/sahaj-node
tokenizer=$here/build/tests/data/sample-tokenizer/tokenizer.json
out='' steps=4 prefix=natc
while [ $# -gt 0 ]; do
  case "$1" in
  --node) node=$2; shift 2 ;;
  --tokenizer) tokenizer=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --steps) steps=$2; shift 2 ;;
  *) sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
[ -x "$node" ] || { echo "nat-collaboration: no sahaj-node at $node (build first, or --node)" >&2; exit 1; }
[ -f "$tokenizer" ] || { echo "nat-collaboration: no tokenizer at $tokenizer (--tokenizer)" >&2; exit 1; }
[ -n "$out" ] || out=$(mktemp -d)
rm -rf "$out" && mkdir -p "$out"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  wait 2>/dev/null
  "$here/scripts/netns/internet.sh" down "$prefix"
}
trap cleanup EXIT

# Hosts: 1 coordinator, 2 public volunteer, 3 and 4 volunteers at home (100/20 and 50/10 Mbit/s).
"$here/scripts/netns/internet.sh" up "$prefix" public:1000/1000 public:100/100 home:100/20 home:50/10 \
  >"$out/hosts" || exit 1
coordinator_ip=$(awk 'NR == 1 {print $2}' "$out/hosts")

timing=(--gather-ms 5000 --min-gather-ms 700 --lead-ms 1000 --threads 1)
"$node" run-init --out "$out/run.json" --run-id nat-collaboration --config tiny \
  --corpus "$here/tests/train/data/bengali-sample.txt" --tokenizer "$tokenizer" --target-batch 384 --seq 64 \
  --lr 0.01 --warmup 2 --total-steps 100 --average-every 2 --coordinator "$coordinator_ip:4600" \
  >"$out/run-init.log" 2>&1 || { cat "$out/run-init.log"; exit 1; }

mkdir -p "$out/coordinator"
ip netns exec "$prefix-p1" "$node" coordinator --manifest "$out/run.json" --listen "$coordinator_ip:4600" \
  --state-dir "$out/coordinator" --out "$out/coordinator" --steps 1000 "${timing[@]}" \
  >"$out/coordinator/log.out" 2>"$out/coordinator/log.err" &
pids+=($!)
port=$("$here/scripts/coordinator-port.sh" "$out/coordinator/log.out")
[ -n "$port" ] || { echo "nat-collaboration: the coordinator did not start"; cat "$out/coordinator/log.err"; exit 1; }

volunteer() { # name namespace extra...
  local name=$1 ns=$2
  shift 2
  mkdir -p "$out/$name"
  timeout 600 ip netns exec "$ns" "$node" volunteer --manifest "$out/run.join" \
    --coordinator "$coordinator_ip:$port" --identity "$out/$name" --out "$out/$name" --steps "$steps" \
    --seed $((100 + ${#pids[@]})) "${timing[@]}" "$@" >"$out/$name/log.out" 2>"$out/$name/log.err" &
  pids+=($!)
}
# No --listen: each binds where its host routes toward the coordinator. The homes are told they are behind
# NAT (--client-mode); finding it out by themselves is still to come.
volunteer public "$prefix-p2"
volunteer home3 "$prefix-h3" --client-mode
volunteer home4 "$prefix-h4" --client-mode
volunteers=(public home3 home4)
for i in 1 2 3; do wait "${pids[$i]}"; done

status=0
reference=
for name in "${volunteers[@]}"; do
  groups=$(grep -o '"members":\[[^]]*\]' "$out/$name/epochs.jsonl" 2>/dev/null |
    awk -F'"id"' '{printf "%d ", NF - 1}')
  summary=$(cat "$out/$name/summary.json" 2>/dev/null)
  epoch=$(grep -o '"epoch": *[0-9]*' <<<"$summary" | head -1 | grep -o '[0-9]*$')
  sha=$(grep -o '"final_params_sha256": *"[0-9a-f]*"' <<<"$summary" | grep -o '[0-9a-f]\{64\}')
  echo "$name: epoch ${epoch:-none}, group sizes per epoch: ${groups:-none}, parameters ${sha:0:16}"
  if [ "${epoch:-0}" -lt "$steps" ] || [ -z "$sha" ]; then
    echo "nat-collaboration: $name did not reach epoch $steps (its log: $out/$name/log.err)"
    status=1
  elif [ -z "$reference" ]; then
    reference=$sha
  elif [ "$sha" != "$reference" ]; then
    echo "nat-collaboration: $name's parameters differ from the others'"
    status=1
  fi
done
[ $status -eq 0 ] && echo "nat-collaboration: every volunteer reached epoch $steps with the same parameters"
exit $status
