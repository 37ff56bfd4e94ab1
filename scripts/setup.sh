#!/usr/bin/env bash
# Installs every Debian package Sahaj needs, then configures and builds it.
# Idempotent: packages already present are skipped by apt, the build folder is reused.
#
# Usage: scripts/setup.sh [--no-build] [--build-dir DIR] [--build-type TYPE]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir="$here/build"
build_type=Release
do_build=1
while (($#)); do
  case "$1" in
    --no-build) do_build=0 ;;
    --build-dir) build_dir=$2; shift ;;
    --build-type) build_type=$2; shift ;;
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config git clang-format
  # tensors; OpenBLAS with threads makes Debian's torch use a fast GEMM; gloo's headers for libtorch's
  # ProcessGroupGloo, the all-reduce benchmark's baseline
  libtorch-dev libopenblas0-pthread libgloo-dev
  # Qt 6
  qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-charts-dev qt6-svg-dev libqt6sql6-sqlite
  # Qt Charts' CMake package needs Qt OpenGL's
  libqt6opengl6-dev
  # country names in the user's language (the CLDR's, through ICU: Qt names them in English only)
  libicu-dev
  # networking, discovery (OpenDHT's CMake config needs msgpack-cxx and jsoncpp found first), crypto,
  # wire schema; iproute2 for the shaped test networks of the benchmarks (scripts/netns) and nftables for
  # the home routers of the emulated Internet (scripts/netns/internet.sh)
  libzmq3-dev cppzmq-dev libopendht-dev libmsgpack-cxx-dev libjsoncpp-dev libssl-dev
  libprotobuf-dev protobuf-compiler iproute2 nftables
  # downloads of shards, tokenizers and join files (libcurl, OpenSSL flavour like the rest); the
  # downloader's tests serve shards from a real web server, its benchmark compares with the curl tool
  libcurl4-openssl-dev nginx-light curl
  # compressed shards (.gz through zlib, .zst through zstd's reference library)
  zlib1g-dev libzstd-dev
  # password hashes for the allowlist admission policy (Argon2id)
  libargon2-dev
  # the contribution ledger: SQLite through its C API (core/ uses QtCore only, no QtSql)
  libsqlite3-dev
  # libFuzzer targets (clang's -fsanitize=fuzzer, runtime in libclang-rt-14-dev)
  clang libclang-rt-14-dev
  # tokenizer training (spm_train), JSON for the Qt-free model layer
  sentencepiece nlohmann-json3-dev
  # a volunteer whose clock is off, in the all-reduce tests and the soak (libfaketime's LD_PRELOAD library)
  faketime
  # the soak's report: its plots (scripts/soak/figures.py)
  python3-matplotlib
  # demo corpus extraction (msgunfmt), archives
  gettext unzip xz-utils ca-certificates
  # GUI tests without a display
  xvfb xauth
  # the desktop app: a Bengali font for the Bengali translation; checks of the desktop entry and the
  # AppStream metainfo; dpkg-shlibdeps for the .deb's dependencies
  fonts-lohit-beng-bengali desktop-file-utils appstream dpkg-dev
)

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${#missing[@]} Debian packages: ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all Debian packages present"
fi
# nginx's package starts a system web server on port 80 where systemd runs; the tests start their own on
# a free loopback port, so stop and disable the one setup has just installed.
if [[ " ${missing[*]} " == *" nginx-light "* ]] && command -v systemctl >/dev/null &&
  systemctl is-active --quiet nginx 2>/dev/null; then
  "${sudo_cmd[@]}" systemctl disable --now nginx
fi

# Node.js runs Hugging Face's own tokenizers (the reference our tokenizer must match) in tests and benchmarks.
# Some machines ship Node.js with its own npm, so install each only where it is missing.
node_missing=()
command -v node >/dev/null || node_missing+=(nodejs)
command -v npm >/dev/null || node_missing+=(npm)
if ((${#node_missing[@]})); then
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${node_missing[@]}"
fi
hf_dir="$build_dir/hf-tokenizers"
if [ ! -f "$hf_dir/node_modules/tokenizers/package.json" ]; then
  mkdir -p "$hf_dir"
  if ! npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$hf_dir" tokenizers@0.23.2; then
    echo "setup: warning: could not install the tokenizers reference; tests comparing against it will skip" >&2
  fi
fi

if ((do_build)); then
  jobs=$(nproc)
  cmake -S "$here" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type"
  cmake --build "$build_dir" -j "$jobs"
fi
