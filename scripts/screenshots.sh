#!/usr/bin/env bash
# Renders every panel of the desktop app with live data into docs/screenshots/*.png: the app joins its
# embedded demo collaboration (sahaj-volunteer --demo: a coordinator and two volunteers on loopback), waits
# until it has trained several global steps in a group and measured the others' latency, then grabs the five
# panels, the settings dialog, the join wizard, the join dialog and the tray menu; once in English, once in
# Bengali (*-bn.png).
# Rendering is offscreen (QT_QPA_PLATFORM=offscreen), so no display is needed; set QT_QPA_PLATFORM=xcb
# under Xvfb or a desktop to use the real platform instead.
# Usage: scripts/screenshots.sh [OUTPUT_FOLDER]   (default docs/screenshots)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$(realpath -m "${1:-$here/docs/screenshots}")
"$here/scripts/setup.sh"
"$here/scripts/demo-data.sh"
app="$here/build/app/volunteer/sahaj-volunteer"
mkdir -p "$out"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
"$app" --demo --language en --screenshots "$out"
"$app" --demo --language bn --screenshots "$out"
ls -l "$out"/*.png
