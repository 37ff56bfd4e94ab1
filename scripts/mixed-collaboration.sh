#!/usr/bin/env bash
# A short collaboration on loopback whose two volunteers train on the devices given (one on a GPU core,
# one on the CPU, for scripts/gpu-check.sh), with the tiny model: a coordinator and the two volunteers,
# STEPS epochs, then every volunteer's final parameters compared (summary.json's final_params_sha256).
#
#   scripts/mixed-collaboration.sh --node NODE --out DIR [--devices cuda:0,cpu] [--steps 4]
#
# NODE is a sahaj-node (a build's, or the engine bundle's launcher); its cores are found as usual
# (SAHAJ_CORES_DIR). Exits 0 when both volunteers reached STEPS with equal parameters.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
node='' out='' devices=cuda:0,cpu steps=4
while [ $# -gt 0 ]; do
  case "$1" in
  --node) node=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --devices) devices=$2; shift 2 ;;
  --steps) steps=$2; shift 2 ;;
  *) sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
[ -n "$node" ] && [ -n "$out" ] || { sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
tokenizer=${SAHAJ_SHARED_DIR:-$here/../shared}/data/sahajbert-tokenizer/tokenizer.json
corpus=$here/tests/train/data/bengali-sample.txt
timing=(--gather-ms 5000 --min-gather-ms 700 --lead-ms 1000 --threads 1)
rm -rf "$out" && mkdir -p "$out"
"$node" run-init --out "$out/run.json" --run-id mixed-devices --config tiny --corpus "$corpus" \
  --tokenizer "$tokenizer" --target-batch 384 --seq 64 --lr 0.01 --warmup 2 --total-steps 100 \
  --average-every 2 --coordinator 127.0.0.1:4600 >"$out/run-init.log" 2>&1 ||
  { cat "$out/run-init.log"; exit 1; }
mkdir -p "$out/coordinator"
"$node" coordinator --manifest "$out/run.json" --listen 127.0.0.1:0 --state-dir "$out/coordinator" \
  --out "$out/coordinator" --steps 1000 "${timing[@]}" >"$out/coordinator/log.out" 2>"$out/coordinator/log.err" &
coordinator=$!
trap 'kill $coordinator 2>/dev/null' EXIT
port=$("$here/scripts/coordinator-port.sh" "$out/coordinator/log.out")
[ -n "$port" ] || { echo "mixed-collaboration: the coordinator did not start"; cat "$out/coordinator/log.err"; exit 1; }
pids=() names=()
IFS=, read -r -a list <<<"$devices"
for i in "${!list[@]}"; do
  name=v$i
  mkdir -p "$out/$name"
  timeout 900 "$node" volunteer --manifest "$out/run.join" --coordinator "127.0.0.1:$port" --identity "$out/$name" \
    --out "$out/$name" --steps "$steps" --seed $((100 + i)) --device "${list[$i]}" "${timing[@]}" \
    >"$out/$name/log.out" 2>"$out/$name/log.err" &
  pids+=($!) names+=("$name")
done
status=0
for pid in "${pids[@]}"; do
  wait "$pid" || status=1
done
hashes=()
for i in "${!names[@]}"; do
  summary=$out/${names[$i]}/summary.json
  hash=$(grep -o '"final_params_sha256": *"[0-9a-f]*"' "$summary" 2>/dev/null | grep -o '[0-9a-f]\{64\}')
  epoch=$(grep -o '"epoch": *[0-9]*' "$summary" 2>/dev/null | head -1 | grep -o '[0-9]*$')
  compute=$(grep -m1 -o 'computing with [^"]*' "$out/${names[$i]}/log.err" | head -1)
  echo "mixed-collaboration: ${names[$i]} on ${list[$i]}: epoch ${epoch:-none}, parameters ${hash:-none}; $compute"
  [ "${epoch:-0}" -ge "$steps" ] || status=1
  hashes+=("${hash:-none}")
done
for hash in "${hashes[@]}"; do
  [ "$hash" = "${hashes[0]}" ] && [ "$hash" != none ] || status=1
done
echo "mixed-collaboration: exit $status ($( [ $status -eq 0 ] && echo 'equal parameters' || echo 'see the logs in '"$out"))"
exit $status
