# Sourced by the benches that run a small collaboration of sahaj-node processes on loopback
# (bench/compute-limit.sh, bench/delayed-updates.sh): the programs they need, their output folder, the
# processes to stop on exit, the short group timings, and the coordinator's start.
# Before sourcing: `here` (the repository), and optionally `node` and `out`; after parsing the options,
# call loopback_prepare NAME.
node=${node:-$here/build/app/node/sahaj-node}
tokenizer=$here/build/tests/data/sample-tokenizer/tokenizer.json
timing=(--gather-ms 3000 --min-gather-ms 700 --lead-ms 1000 --threads 1)
pids=()

# Checks the programs, makes $out (a new temporary folder when empty), and stops every started process on
# exit.
loopback_prepare() {
  [ -x "$node" ] || { echo "$1: no sahaj-node at $node (run scripts/setup.sh)" >&2; exit 1; }
  [ -f "$tokenizer" ] || { echo "$1: no tokenizer at $tokenizer (run scripts/setup.sh)" >&2; exit 1; }
  [ -n "${out:-}" ] || out=$(mktemp -d "/tmp/sahaj-$1.XXXXXX")
  rm -rf "$out" && mkdir -p "$out"
  trap loopback_cleanup EXIT
}

loopback_cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}

# Makes the run DIR/run.json (and DIR/run.join): the tiny model on the test corpus, 64-token sequences, run
# id $2, target batch $3; the remaining arguments go to run-init.
loopback_init() {
  local dir=$1 id=$2 target=$3
  shift 3
  mkdir -p "$dir"
  "$node" run-init --out "$dir/run.json" --run-id "$id" --config tiny \
    --corpus "$here/tests/train/data/bengali-sample.txt" --tokenizer "$tokenizer" --target-batch "$target" \
    --seq 64 --lr 0.01 --warmup 2 --total-steps 100 --average-every 5 --coordinator 127.0.0.1:4600 "$@" \
    >"$dir/run-init.log" 2>&1 || { cat "$dir/run-init.log"; exit 1; }
}

# Starts the coordinator of the run DIR/run.json with its state and logs in DIR/coordinator, appends its pid
# to `pids` and sets `port` to its DHT port; exits when it does not start.
loopback_coordinator() {
  mkdir -p "$1/coordinator"
  "$node" coordinator --manifest "$1/run.json" --listen 127.0.0.1:0 --state-dir "$1/coordinator" \
    --out "$1/coordinator" --steps 1000 "${timing[@]}" >"$1/coordinator/log.out" 2>"$1/coordinator/log.err" &
  pids+=($!)
  port=$("$here/scripts/coordinator-port.sh" "$1/coordinator/log.out")
  [ -n "$port" ] || { echo "the coordinator in $1 did not start" >&2; exit 1; }
}

# Starts volunteer $2 of the run in DIR ($1) for $3 epochs, its keys and logs in DIR/$2, its data order
# seeded by how many processes run; the remaining arguments go to sahaj-node volunteer. Appends its pid.
loopback_volunteer() {
  local dir=$1 name=$2 steps=$3
  shift 3
  mkdir -p "$dir/$name"
  "$node" volunteer --manifest "$dir/run.join" --coordinator "127.0.0.1:$port" --identity "$dir/$name" \
    --out "$dir/$name" --steps "$steps" --seed "${#pids[@]}" "${timing[@]}" "$@" \
    >"$dir/$name/log.out" 2>"$dir/$name/log.err" &
  pids+=($!)
}
