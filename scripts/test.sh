#!/usr/bin/env bash
# Sets everything up (Debian packages, build) and runs every test: unit, integration and gui labels; in CI
# (CI=true), or when SAHAJ_FUZZ_SECONDS is set, the fuzz targets after them.
# Usage: scripts/test.sh [extra ctest arguments, e.g. -L unit]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Each phase's time, for CI's time budget: what to shorten is what takes longest.
phase_start=$SECONDS
phase_done() {
  echo "test.sh: $1 took $((SECONDS - phase_start)) s"
  phase_start=$SECONDS
}
"$here/scripts/setup.sh"
phase_done "setup (packages and build)"
cd "$here/build"
fuzzing=false
if [ -n "${SAHAJ_FUZZ_SECONDS:-}" ] || [ "${CI:-}" = true ]; then
  fuzzing=true
fi
# The fuzz targets' clang build, and the benchmarks' (not in the default build; built so that they keep
# compiling), run beside the tests under SCHED_IDLE (chrt --idle): they get a core only when no test wants
# one, so they fill the time that waiting tests leave idle and do not slow them.
fuzz_build_log="$here/build/fuzz-build.log"
if $fuzzing; then
  # In its own process group, so that a failed test run stops the whole build with it.
  setsid chrt --idle 0 bash -c '"$1/scripts/fuzz.sh" --build-only && cmake --build "$1/build" --target benches' \
    _ "$here" >"$fuzz_build_log" 2>&1 &
  fuzz_build=$!
  trap 'kill -- -"$fuzz_build" 2>/dev/null || true' EXIT
fi
# Each test says how many half cores it takes (sahaj_test_cpu_share in cmake/SahajHelpers.cmake: 2 for one
# that computes, 1 for one that mostly waits); ctest runs as many at once as this machine's half cores hold,
# so that tests that wait fill the time that computing tests would leave idle.
half_cores=$((2 * $(nproc)))
printf '{"version": {"major": 1, "minor": 0}, "local": [{"half_cores": [{"id": "0", "slots": %d}]}]}\n' \
  "$half_cores" >"$here/build/half-cores.json"
ctest --output-on-failure --no-tests=error -j "$half_cores" --resource-spec-file "$here/build/half-cores.json" "$@"
phase_done "the tests"
# Qt Test counts a skipped check as passed: list the skipped ones, and in CI fail on any that
# .ci/allowed-skips does not allow (a missing file or package would otherwise pass unseen).
if [ "${CI:-}" = true ]; then
  "$here/scripts/skipped-checks.sh" "$here/build" --allowed "$here/.ci/allowed-skips"
else
  "$here/scripts/skipped-checks.sh" "$here/build"
fi
# The .deb (scripts/package-check.sh, docs/installing.md): built, installed and checked in CI, elsewhere
# when asked for with SAHAJ_PACKAGE_CHECK=1 (it installs into /usr: root or sudo, and apt).
package_check=false
if [ "${CI:-}" = true ] || [ "${SAHAJ_PACKAGE_CHECK:-}" = 1 ]; then
  package_check=true
fi
# The fuzz targets (scripts/fuzz.sh, docs/fuzzing.md): 20 seconds each in CI, elsewhere when asked for
# with SAHAJ_FUZZ_SECONDS. The package check runs beside them: it mostly waits on apt and dpkg, and the
# fuzz targets run for a set time whatever else runs, so together they take about the longer of the two.
if $fuzzing; then
  if ! wait "$fuzz_build"; then
    tail -n 60 "$fuzz_build_log"
    echo "test.sh: the fuzz targets' or the benchmarks' build failed (all of it in $fuzz_build_log)" >&2
    exit 1
  fi
  phase_done "the rest of the fuzz targets' and benchmarks' build"
  package_log="$here/build/package-check.log"
  if $package_check; then
    "$here/scripts/package-check.sh" --build-dir "$here/build" >"$package_log" 2>&1 &
    package_job=$!
  fi
  fuzz_status=0
  "$here/scripts/fuzz.sh" --seconds "${SAHAJ_FUZZ_SECONDS:-20}" || fuzz_status=$?
  package_status=0
  if $package_check; then
    wait "$package_job" || package_status=$?
    cat "$package_log"
  fi
  phase_done "the fuzz targets$($package_check && echo ' and, beside them, the package check')"
  if ((fuzz_status != 0 || package_status != 0)); then
    echo "test.sh: the fuzz targets (status $fuzz_status) or the package check (status $package_status) failed" >&2
    exit 1
  fi
elif $package_check; then
  "$here/scripts/package-check.sh" --build-dir "$here/build"
  phase_done "the package check"
fi
