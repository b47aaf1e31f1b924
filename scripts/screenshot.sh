#!/usr/bin/env bash
# Regenerates assets/screenshot.png: runs the real app under Xvfb (software OpenGL through Mesa)
# on a shared photo played as a camera, waits until the pipeline settles (grid locked, digits
# voted, puzzle solved), saves a screenshot of the window and exits.
#
#   scripts/screenshot.sh [SOURCE] [OUT.png]
#
# SOURCE defaults to a wichtounet photo, OUT to assets/screenshot.png. PROFILE=debug uses the
# debug build (faster to build, slower to run). Installs xvfb and Mesa with apt-get if missing.
set -euo pipefail
cd "$(dirname "$0")/.."

SOURCE=${1:-/work/shared/datasets/wichtounet-v2-train/images/image1.jpg}
OUT=${2:-assets/screenshot.png}
PROFILE=${PROFILE:-release}

missing=()
command -v xvfb-run >/dev/null 2>&1 || missing+=(xvfb xauth)
ls /usr/lib/*/dri/swrast_dri.so >/dev/null 2>&1 || missing+=(libgl1-mesa-dri libegl-mesa0 libglx-mesa0)
if ((${#missing[@]})); then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update
    $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/sudoku-lens/target}
if [ "$PROFILE" = release ]; then
    cargo build --release
else
    cargo build
fi
BIN="$CARGO_TARGET_DIR/$PROFILE/sudoku-lens"

mkdir -p "$(dirname "$OUT")"
rm -f "$OUT"
# Software rendering: llvmpipe through GLX on the virtual X server.
export LIBGL_ALWAYS_SOFTWARE=1
export WINIT_UNIX_BACKEND=x11
unset WAYLAND_DISPLAY
xvfb-run -a -s "-screen 0 1280x800x24" \
    "$BIN" app --source "$SOURCE" --fps 15 --screenshot "$OUT"
echo "wrote $OUT"
