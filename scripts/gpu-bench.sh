#!/usr/bin/env bash
# On a machine with a GPU and PyTorch but none of Sahaj's other dependencies: builds the torch-only targets
# (docs/architecture.md, -DSAHAJ_TORCH_ONLY=ON) against PyTorch's own CUDA libtorch and measures
# sahajBERT's training step and the desktop app's hardware check on the GPU (sahaj-bench-train).
# nlohmann-json's headers and CMake package must be findable: installed, or in a prefix named by
# SAHAJ_EXTRA_PREFIX (a folder with include/nlohmann and share/cmake/nlohmann_json, e.g. copied from a
# Debian machine's /usr).
# Usage: scripts/gpu-bench.sh [BUILD_DIR] [DEVICE]   (defaults: build-gpu, cuda:0)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$here/build-gpu}
device=${2:-cuda:0}
torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
python3 -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda, torch.cuda.is_available())'
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$here" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DSAHAJ_TORCH_ONLY=ON \
  -DCMAKE_PREFIX_PATH="$torch_prefix${SAHAJ_EXTRA_PREFIX:+;$SAHAJ_EXTRA_PREFIX}"
cmake --build "$build" --target sahaj-bench-train -j "$(nproc)"
"$build/bench/sahaj-bench-train" --device "$device" --configs sahajbert --steps 5
"$build/bench/sahaj-bench-train" --device "$device" --configs sahajbert --batch sahajbert=32 --steps 5
