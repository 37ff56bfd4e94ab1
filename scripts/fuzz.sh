#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, docs/fuzzing.md) with clang in their own build folder, then runs
# each one: first every input kept in fuzz/regressions/<target>/, then N seconds of fuzzing from a copy of
# fuzz/corpus/<target>/. Prints each target's executions; exits 1 if any target crashed (a sanitizer
# report, an abort, a timeout, running out of memory), with the input that did it kept in
# <build-dir>/artifacts/<target>/ and the report in <build-dir>/logs/<target>.log.
# Without TARGETs it first builds and runs the all-reduce's own tests in the same clang build, under the
# same sanitizers (tests/collab/AllReduceTests.cmake): GCC and clang evaluate a call's arguments in
# different orders, and only a second compiler shows code that depends on one of them.
#
# --build-only builds what a run needs and stops: scripts/test.sh builds it beside the tests, at the lowest
# CPU priority, so that the clang build takes only the time the tests leave idle.
#
# Usage: scripts/fuzz.sh [--seconds N] [--jobs J] [--build-dir DIR] [--build-only] [TARGET...]
#        (default: 30 s, as many targets at once as cores, build/fuzz, all)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=30
jobs=$(nproc)
build_dir="$here/build/fuzz"
targets=()
build_only=false
while (($#)); do
  case "$1" in
    --seconds|--jobs|--build-dir)
      if (($# < 2)); then echo "fuzz.sh: $1 needs a value" >&2; exit 2; fi ;;&
    --seconds) seconds=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --build-dir) build_dir=$2; shift ;;
    --build-only) build_only=true ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option '$1'" >&2; exit 2 ;;
    *) targets+=("$1") ;;
  esac
  shift
done
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: --seconds needs a whole number of seconds above 0, got '$seconds'" >&2
  exit 2
fi
if ! [[ "$jobs" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: --jobs needs a whole number above 0, got '$jobs'" >&2
  exit 2
fi
mkdir -p "$build_dir"
build_dir=$(cd "$build_dir" && pwd)

# A target is a fuzz/<name>_fuzzer.cpp (fuzz/CMakeLists.txt builds each one).
named=${#targets[@]}
if ((named == 0)); then
  for source in "$here"/fuzz/*_fuzzer.cpp; do
    name=$(basename "$source" _fuzzer.cpp)
    targets+=("$name")
  done
fi
for name in "${targets[@]}"; do
  if [ ! -f "$here/fuzz/${name}_fuzzer.cpp" ]; then
    echo "fuzz.sh: no fuzz target '$name' (fuzz/${name}_fuzzer.cpp)" >&2
    exit 2
  fi
done

# -O1 with line tables, as OSS-Fuzz builds: fast enough to fuzz, quick to compile, readable stack traces.
# Asserts stay on.
cmake -S "$here" -B "$build_dir" -G Ninja -DSAHAJ_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" >/dev/null
cmake --build "$build_dir" --target fuzzers
if ((named == 0)); then
  cmake --build "$build_dir" --target allreduce_tests
fi
if $build_only; then
  echo "fuzz: built in $build_dir"
  exit 0
fi

symbolizer=$(command -v llvm-symbolizer || true)
export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-$symbolizer}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"

# The all-reduce's tests run beside the fuzz targets: libFuzzer runs each target for a set time whatever
# else runs, so the tests cost the phase little more than the longest of the two.
tests_job=
if ((named == 0)); then
  QT_QPA_PLATFORM=offscreen ctest --test-dir "$build_dir" --output-on-failure --no-tests=error -j "$jobs" \
    >"$build_dir/allreduce-tests.log" 2>&1 &
  tests_job=$!
fi

limits=(-timeout=10 -rss_limit_mb=2048)

mkdir -p "$build_dir/logs"
# One target: its regression inputs, then $seconds of fuzzing. Prints its summary; returns 1 if it crashed.
fuzz_one() {
  local name=$1
  local binary="$build_dir/fuzz/${name}_fuzzer"
  local artifacts="$build_dir/artifacts/$name"
  local corpus="$build_dir/corpus/$name"
  local log="$build_dir/logs/$name.log"
  local regressions="$here/fuzz/regressions/$name"
  if [ ! -x "$binary" ]; then
    echo "fuzz: $name: not built: fuzz/CMakeLists.txt needs a sahaj_add_fuzzer(NAME $name ...) line"
    return 1
  fi
  mkdir -p "$artifacts"
  : >"$log"

  # Inputs that once crashed a target must keep passing; libFuzzer runs files given as arguments once each.
  local kept=()
  if [ -d "$regressions" ]; then
    while IFS= read -r -d '' file; do kept+=("$file"); done \
      < <(find "$regressions" -type f ! -name .gitkeep -print0 | sort -z)
  fi
  if ((${#kept[@]})) &&
    ! "$binary" "${limits[@]}" -artifact_prefix="$artifacts/" "${kept[@]}" >>"$log" 2>&1; then
    echo "fuzz: $name: a regression input crashed it again (fuzz/regressions/$name)"
    tail -n 40 "$log"
    return 1
  fi

  # Fuzzing starts from a copy of the seeds, so that the committed corpus only changes by hand.
  rm -rf "$corpus"
  mkdir -p "$corpus"
  if [ -d "$here/fuzz/corpus/$name" ]; then
    cp -R "$here/fuzz/corpus/$name/." "$corpus/"
  fi
  local seeds=("$corpus")
  [ -d "$regressions" ] && seeds+=("$regressions")
  # A dictionary of the format's keywords lets mutations reach past the parser's first checks.
  local dictionary=()
  [ -f "$here/fuzz/dictionaries/$name.dict" ] && dictionary=(-dict="$here/fuzz/dictionaries/$name.dict")
  local status=0
  "$binary" "${limits[@]}" "${dictionary[@]}" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "${seeds[@]}" >>"$log" 2>&1 || status=$?
  local runs
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  if ((status != 0)); then
    echo "fuzz: $name: CRASHED after ${runs:-?} executions (input in $artifacts, report in $log)"
    tail -n 40 "$log"
    return 1
  fi
  echo "fuzz: $name: ${runs:-?} executions in ${seconds} s, ${#kept[@]} regression inputs passed"
}

# libFuzzer runs on one core: as many targets run at once as there are cores, each for its full time, so
# CI fuzzes every target as long as before in a fraction of the time. Summaries print in target order.
# Only the targets count: the all-reduce's tests, when they run beside, are waited for on their own.
fuzzing=()
for name in "${targets[@]}"; do
  while ((${#fuzzing[@]} >= jobs)); do
    finished=
    wait -n -p finished "${fuzzing[@]}" || true
    remaining=()
    for pid in "${fuzzing[@]}"; do [ "$pid" = "$finished" ] || remaining+=("$pid"); done
    fuzzing=("${remaining[@]}")
  done
  rm -f "$build_dir/logs/$name.passed"
  (fuzz_one "$name" >"$build_dir/logs/$name.summary" 2>&1 && touch "$build_dir/logs/$name.passed") &
  fuzzing+=("$!")
done
for pid in "${fuzzing[@]}"; do wait "$pid" || true; done
failed=()
for name in "${targets[@]}"; do
  cat "$build_dir/logs/$name.summary"
  [ -f "$build_dir/logs/$name.passed" ] || failed+=("$name")
done

tests_status=0
if [ -n "$tests_job" ]; then
  wait "$tests_job" || tests_status=$?
  cat "$build_dir/allreduce-tests.log"
fi

if ((${#failed[@]})); then
  echo "fuzz: crashed: ${failed[*]}" >&2
  exit 1
fi
if ((tests_status != 0)); then
  echo "fuzz: the all-reduce's tests failed in the clang build (above)" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets ran without a crash"
