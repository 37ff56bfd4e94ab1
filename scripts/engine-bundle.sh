#!/usr/bin/env bash
# The engine without libtorch as a bundle that runs on another Linux machine (a GPU machine with its own
# glibc and none of Sahaj's dependencies): sahaj-node and every shared library it loads, glibc and its
# loader included, started through that loader so that the bundle's glibc is the one used.
#
#   scripts/engine-bundle.sh [--build build] [--out build/engine-bundle]
#
# OUT/sahaj-engine/bin/sahaj-node is the launcher; cores go in OUT/sahaj-engine/cores/VARIANT/ (a CUDA core
# bundle from scripts/build-cuda-core.sh, or build/cores/cpu), which the launcher adds to SAHAJ_CORES_DIR.
# Prints the bundle's size and that of OUT/sahaj-engine.tar.xz (docs/compute-cores.md). Limits: the
# commands that start sahaj-node again (demo) find the loader, not sahaj-node, as their own executable.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$here/build
out=$here/build/engine-bundle
while [ $# -gt 0 ]; do
  case "$1" in
  --build) build=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  *) sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
node=$build/app/node/sahaj-node
[ -x "$node" ] || { echo "engine-bundle: no $node; build first (scripts/setup.sh)" >&2; exit 1; }
bundle=$out/sahaj-engine
rm -rf "$bundle"
mkdir -p "$bundle/bin" "$bundle/libexec" "$bundle/lib" "$bundle/cores"
strip -o "$bundle/libexec/sahaj-node" "$node"
loader=
while read -r library; do
  cp -L "$library" "$bundle/lib/"
  case "$library" in */ld-linux-*) loader=$(basename "$library") ;; esac
done < <(ldd "$node" | awk '/=> \// {print $3} /^\t\// {print $1}' | sort -u)
[ -n "$loader" ] || { echo "engine-bundle: ldd named no dynamic loader for $node" >&2; exit 1; }
cat >"$bundle/bin/sahaj-node" <<LAUNCHER
#!/bin/sh
# Runs the bundled sahaj-node with the bundled glibc (scripts/engine-bundle.sh).
here=\$(cd "\$(dirname "\$0")/.." && pwd)
SAHAJ_CORES_DIR="\$here/cores\${SAHAJ_CORES_DIR:+:\$SAHAJ_CORES_DIR}"
export SAHAJ_CORES_DIR
exec "\$here/lib/$loader" --library-path "\$here/lib" "\$here/libexec/sahaj-node" "\$@"
LAUNCHER
chmod +x "$bundle/bin/sahaj-node"
"$bundle/bin/sahaj-node" --version >/dev/null
tar -C "$out" -cJf "$out/sahaj-engine.tar.xz" sahaj-engine
echo "engine-bundle: $(du -sm "$bundle" | cut -f1) MiB in $bundle ($(ls "$bundle/lib" | wc -l) libraries)," \
  "$(du -m "$out/sahaj-engine.tar.xz" | cut -f1) MiB as $out/sahaj-engine.tar.xz"
