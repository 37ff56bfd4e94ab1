#!/usr/bin/env bash
# The GPU checks of docs/compute-cores.md, as one prepared run for a machine with an NVIDIA GPU, PyTorch
# with CUDA and transformers, and none of Sahaj's other dependencies. Prepare on Debian 12 first:
#
#   scripts/build-cuda-core.sh prepare build-cuda-deps     # protobuf's lite runtime, nlohmann-json
#   scripts/engine-bundle.sh --out build-cuda-deps/engine  # sahaj-node with its libraries and glibc
#
# then carry the work tree and build-cuda-deps/ to the GPU machine and run there:
#
#   scripts/gpu-check.sh [--deps build-cuda-deps] [--out build-cuda-core/out] [--device cuda:0]
#
# It (a) builds sahaj-core against that PyTorch's libtorch and bundles it (scripts/build-cuda-core.sh),
# (b) runs the bundle's self-test on the GPU with sahajBERT, (c) measures sahajBERT's training samples/s
# and model FLOP utilisation against a bf16 GEMM timed in the same run (sahaj-bench-train) at micro-batch
# 32, 64 and 128, sequence 128, (e) runs a collaboration of a CUDA volunteer and a CPU one with the engine
# bundle (scripts/engine-bundle.sh --out DEPS/engine, made here). Every figure goes to OUT/gpu-check.log;
# the script goes on past a failed step and ends with the status of the first one that failed.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps=$here/build-cuda-deps
out=$here/build-cuda-core/out
device=cuda:0
while [ $# -gt 0 ]; do
  case "$1" in
  --deps) deps=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --device) device=$2; shift 2 ;;
  *) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
log=$out/gpu-check.log
: >"$log"
status=0
step() { # step NAME COMMAND...: runs it with its output in the log, and remembers the first failure
  local name=$1
  shift
  echo "== $name" | tee -a "$log"
  local started=$SECONDS
  "$@" 2>&1 | tee -a "$log"
  local rc=${PIPESTATUS[0]}
  echo "== $name: exit $rc after $((SECONDS - started)) s" | tee -a "$log"
  [ "$rc" -ne 0 ] && [ "$status" -eq 0 ] && status=$rc
  return 0
}

step machine sh -c 'nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv; nproc;
  python3 -c "import torch, transformers; print(\"torch\", torch.__version__, \"CUDA\", torch.version.cuda,
  torch.cuda.is_available(), \"transformers\", transformers.__version__)"'
# (a) the core and its bundle; the benchmark in the same build.
step build "$here/scripts/build-cuda-core.sh" build --deps "$deps" --out "$out" --build "$out/../build" --with-bench
core=$out/cuda/sahaj-core
# (b) the bundle's self-test with the run's model on the GPU, no build tree on its library path.
step self-test env -u LD_LIBRARY_PATH "$core" --self-test --device "$device" --config sahajbert \
  --micro-batch 32 --seconds 20
step detect-gpus "$core" --detect-gpus
# (c) samples/s and MFU against a bf16 GEMM of the same run, per micro-batch.
bench=$out/../build/bench/sahaj-bench-train
for batch in 32 64 128; do
  step "train micro-batch $batch" "$bench" --device "$device" --configs sahajbert --batch "sahajbert=$batch" \
    --steps 10
done
# (e) a short collaboration in which one volunteer trains on the CUDA core and one on the CPU, run by the
# engine built on Debian 12 (scripts/engine-bundle.sh --out DEPS/engine, made before the machine was
# lent; its own glibc). The CPU volunteer's core is the CUDA bundle's sahaj-core again, under a cpu
# manifest (a CUDA libtorch computes on the CPU too).
engine=$deps/engine/sahaj-engine
mixed() {
  [ -x "$engine/bin/sahaj-node" ] || { echo "no engine bundle at $engine (scripts/engine-bundle.sh)"; return 1; }
  rm -rf "$engine/cores/cuda" "$engine/cores/cpu-from-cuda"
  cp -al "$out/cuda" "$engine/cores/cuda" && cp -al "$out/cuda" "$engine/cores/cpu-from-cuda" &&
    rm -f "$engine/cores/cpu-from-cuda/core.json" &&
    echo '{"name": "cpu-from-cuda", "device": "cpu", "executable": "sahaj-core"}' \
      >"$engine/cores/cpu-from-cuda/core.json" &&
    du -sh "$engine" "$deps/engine/sahaj-engine.tar.xz" &&
    "$here/scripts/mixed-collaboration.sh" --node "$engine/bin/sahaj-node" --out "$out/mixed" \
      --devices "$device,cpu" --steps 4
}
step "mixed collaboration" mixed
du -sh "$out/cuda" "$out"/*.tar.gz 2>/dev/null | tee -a "$log"
echo "gpu-check: exit $status; the log is $log"
exit "$status"
