#!/usr/bin/env bash
# Builds the .deb from a configured build folder, installs it with apt (so that its dependencies resolve
# as on a user's machine) and checks its copyright file and the installed result: sahaj-node --version,
# every binary's libraries found, the desktop entry, the AppStream metadata, the icons, the systemd unit,
# a short headless demo collaboration that uses nothing but the installed paths, and the desktop app's
# demo from them too. One PASS or FAIL line per check; exits non-zero when any check failed.
# Idempotent: a second run reinstalls over the first.
# Needs root (or sudo) and apt; installs into /usr (docs/installing.md).
#
# Usage: scripts/package-check.sh [--build-dir DIR]   (default: <repo>/build)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$here/build"
while (($#)); do
  case "$1" in
    --build-dir)
      [ $# -ge 2 ] || { echo "package-check.sh: --build-dir needs a folder" >&2; exit 2; }
      build=$2; shift ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "package-check.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
[ -f "$build/CMakeCache.txt" ] || {
  echo "package-check.sh: $build is not a configured build folder (scripts/setup.sh makes one)" >&2
  exit 2
}
build=$(cd "$build" && pwd)
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
export DEBIAN_FRONTEND=noninteractive

work=$(mktemp -d "${TMPDIR:-/tmp}/sahaj-package-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
log="$work/check.log"
failures=0
pass() { echo "PASS: $*"; }
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
# check DESCRIPTION COMMAND...: runs the command; on failure shows the end of its output.
check() {
  local what=$1
  shift
  if "$@" >"$log" 2>&1; then
    pass "$what"
  else
    fail "$what"
    tail -n 25 "$log" | sed 's/^/    /'
  fi
}
# A step that later checks cannot do without.
must() {
  local what=$1
  shift
  if "$@" >"$log" 2>&1; then
    pass "$what"
  else
    fail "$what"
    tail -n 40 "$log" | sed 's/^/    /'
    echo "package-check: stopped after a failed step"
    exit 1
  fi
}
cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }

# 1. What the package holds: the executables, the rendered icons, the demo run's corpus and tokenizer.
#    (Packaging installs what was built and builds nothing itself.)
targets=(sahaj-node sahaj-core sahaj-icons)
if grep -q '/sahaj-volunteer\.dir$' "$build/CMakeFiles/TargetDirectories.txt"; then
  targets+=(sahaj-volunteer)
else
  echo "package-check: this build has no sahaj-volunteer target; the package holds sahaj-node alone"
fi
must "build ${targets[*]}" cmake --build "$build" --target "${targets[@]}"
corpus_dir=$(cache_value SAHAJ_DEMO_CORPUS_DIR)
tokenizer=$(cache_value SAHAJ_DEMO_TOKENIZER)
must "demo corpus in $corpus_dir" "$here/scripts/demo-corpus.sh" --out "$corpus_dir"
if [ ! -f "$tokenizer" ]; then
  must "demo tokenizer $tokenizer" "$build/app/node/sahaj-node" tokenizer-train --corpus "$corpus_dir/train.txt" \
    --documents paragraphs --vocab 8000 --out "$(dirname "$tokenizer")"
fi

# 2. The package, made afresh.
rm -f "$build"/sahaj_*.deb
build_package() (cd "$build" && cpack -G DEB)
must "cpack -G DEB" build_package
debs=("$build"/sahaj_*.deb)
if [ ${#debs[@]} -ne 1 ] || [ ! -f "${debs[0]}" ]; then
  fail "exactly one sahaj_*.deb in $build"
  exit 1
fi
deb=${debs[0]}
version=$(dpkg-deb -f "$deb" Version)
depends=$(dpkg-deb -f "$deb" Depends)
echo "package-check: $(basename "$deb"), $(du -h "$deb" | cut -f1); Depends: $depends"
has_dependency() { grep -Eq "(^|, )$1( |,|$)" <<<"$depends"; }
check "Depends names libopenblas0-pthread" has_dependency libopenblas0-pthread
check "Depends names fonts-lohit-beng-bengali" has_dependency fonts-lohit-beng-bengali
shared_library_dependencies() { has_dependency 'libtorch[0-9.]*' && has_dependency libqt6core6; }
check "Depends has the libraries dpkg-shlibdeps found (libtorch, Qt)" shared_library_dependencies
# Debian's policy: the licence as /usr/share/doc/<package>/copyright (installer/deb/copyright).
holds_copyright() { dpkg-deb -c "$deb" | grep -E ' \./usr/share/doc/sahaj/copyright$'; }
check "the package holds /usr/share/doc/sahaj/copyright" holds_copyright

# 3. Installed over whatever was there (--reinstall: the same version built anew is installed again).
install_deb() {
  "${as_root[@]}" apt-get install -y -q --reinstall "$deb" && return 0
  # A machine whose package lists are missing or stale cannot resolve the dependencies yet.
  "${as_root[@]}" apt-get update -q && "${as_root[@]}" apt-get install -y -q --reinstall "$deb"
}
must "apt-get install $(basename "$deb")" install_deb
# shellcheck disable=SC2016 # dpkg-query's own ${field} syntax
installed_version_is_built() { [ "$(dpkg-query -W -f='${Status} ${Version}' sahaj)" = "install ok installed $version" ]; }
check "dpkg lists sahaj $version as installed" installed_version_is_built

# 4. The installed files.
node_version_is_built() { /usr/bin/sahaj-node --version | grep -x "sahaj-node $version" >/dev/null; }
check "sahaj-node --version says $version" node_version_is_built
libraries_found() { [ -x "$1" ] && ! ldd "$1" | grep "not found" >/dev/null; }
binaries=(/usr/bin/sahaj-node /usr/lib/sahaj/cores/cpu/sahaj-core /usr/lib/sahaj/cores/cpu/sahaj-model)
[[ " ${targets[*]} " == *" sahaj-volunteer "* ]] && binaries+=(/usr/bin/sahaj-volunteer)
for binary in "${binaries[@]}"; do
  check "$binary finds every library" libraries_found "$binary"
done
# (Every grep below reads all its input: grep -q stops at its first match, and under pipefail the
# writer's SIGPIPE then fails the pipeline, as it once failed "the cpu core links libtorch".)
# libtorch stays behind the compute cores: the engine's executables load none of it (docs/compute-cores.md).
links_no_torch() { ! ldd "$1" | grep 'libtorch\|libc10' >/dev/null; }
check "sahaj-node links no libtorch" links_no_torch /usr/bin/sahaj-node
[[ " ${targets[*]} " == *" sahaj-volunteer "* ]] &&
  check "sahaj-volunteer links no libtorch" links_no_torch /usr/bin/sahaj-volunteer
core_links_torch() { ldd /usr/lib/sahaj/cores/cpu/sahaj-core | grep 'libtorch' >/dev/null; }
check "the cpu core links libtorch" core_links_torch
# The cpu core beside its manifest, and its self-test on this machine (docs/compute-cores.md).
check "cpu core manifest installed" test -s /usr/lib/sahaj/cores/cpu/core.json
core_self_test() { /usr/lib/sahaj/cores/cpu/sahaj-core --self-test | grep '"ok":true' >/dev/null; }
check "the installed cpu core passes its self-test" core_self_test
# sahaj-node hands the model commands over to the cpu core's model tools.
model_tools_run() { /usr/bin/sahaj-node model-info --config tiny | grep 'parameters: 556,882' >/dev/null; }
check "sahaj-node model-info runs in the installed cpu core" model_tools_run
check "desktop-file-validate org.sahaj.Sahaj.desktop" \
  desktop-file-validate /usr/share/applications/org.sahaj.Sahaj.desktop
check "appstreamcli validate org.sahaj.Sahaj.metainfo.xml" \
  appstreamcli validate --no-net /usr/share/metainfo/org.sahaj.Sahaj.metainfo.xml
check "scalable icon installed" test -s /usr/share/icons/hicolor/scalable/apps/org.sahaj.Sahaj.svg
# A PNG's width and height are the big-endian words at bytes 16 and 20: 0x100 = 256.
png_is_256_square() { [ "$(od -An -tx1 -j16 -N8 "$1" | tr -d ' \n')" = 0000010000000100 ]; }
check "256x256 PNG icon installed" png_is_256_square /usr/share/icons/hicolor/256x256/apps/org.sahaj.Sahaj.png
if command -v systemd-analyze >/dev/null; then
  # A template verifies through an instance of it.
  check "systemd-analyze verify sahaj-node@.service" \
    systemd-analyze verify /usr/lib/systemd/system/sahaj-node@check.service
else
  echo "SKIP: systemd-analyze verify (systemd-analyze is not installed)"
fi

# 5. A short collaboration (a coordinator and two volunteers) from the installed paths alone, run outside
#    the repository so that no default path of a build tree can help: the demo finds the installed corpus
#    and tokenizer by itself, and the volunteers train through the installed cpu core. Two steps only: the
#    leaders gather 3 s (not the demo's 1.5 s), so that the first groups hold everyone (with 1.5 s, a
#    volunteer missed the second step's group once and the two ended apart).
demo="$work/demo"
run_demo() (
  cd "$work" &&
    XDG_DATA_HOME="$work/data" timeout 900 /usr/bin/sahaj-node demo --peers 2 --clients 0 --steps 2 \
      --target-batch 384 --gather-ms 3000 --out "$demo"
)
check "sahaj-node demo from the installed paths" run_demo
# Every volunteer ends with the same parameters (the summary's per-peer hashes).
equal_hashes() {
  if command -v python3 >/dev/null; then
    python3 - "$demo/summary.json" <<'EOF'
import json, sys
summary = json.load(open(sys.argv[1]))
hashes = {p["final_params_sha256"] for p in summary["peers"] if p["role"] not in ("coordinator", "auxiliary")}
print("global steps", summary["global_steps"], "hashes", sorted(hashes))
sys.exit(0 if summary["parameters_equal"] is True and len(hashes) == 1 and "" not in hashes
         and summary["global_steps"] >= 2 else 1)
EOF
  else
    grep -q '"parameters_equal": true' "$demo/summary.json"
  fi
}
check "demo summary.json: equal parameter hashes on every volunteer" equal_hashes

# 6. The desktop app from the installed paths: its version, and its demo (the installed sahaj-node, corpus
#    and tokenizer) alive long enough to render every panel, offscreen.
if [[ " ${targets[*]} " == *" sahaj-volunteer "* ]]; then
  volunteer_version_is_built() { QT_QPA_PLATFORM=offscreen /usr/bin/sahaj-volunteer --version | grep "$version" >/dev/null; }
  check "sahaj-volunteer --version says $version" volunteer_version_is_built
  run_gui_demo() (
    cd "$work" &&
      HOME="$work/home" QT_QPA_PLATFORM=offscreen timeout 900 /usr/bin/sahaj-volunteer --demo \
        --screenshots "$work/screenshots" &&
      test "$(ls "$work/screenshots"/*.png | wc -l)" -ge 8
  )
  check "sahaj-volunteer --demo from the installed paths renders every panel" run_gui_demo
fi

if ((failures)); then
  echo "package-check: $failures check(s) failed"
  exit 1
fi
echo "package-check: all checks passed"
