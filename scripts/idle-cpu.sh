#!/usr/bin/env bash
# Measures the app's CPU share while idle: the real window under Xvfb (software OpenGL through
# Mesa) plays one still photo as the camera; after WARM seconds (the grid is locked, the digits
# voted and the puzzle solved by then) the process's user+system CPU time is read from
# /proc/PID/stat (fields 14 and 15, in clock ticks) at the start and the end of SPAN seconds.
# Prints the share of one core over that span and the app's own repaint counts.
#
#   scripts/idle-cpu.sh [SOURCE] [WARM] [SPAN]
#
# SOURCE defaults to a wichtounet photo, WARM to 20 s, SPAN to 30 s. BIN picks the binary
# (default: the release build in CARGO_TARGET_DIR, built if missing). Target (issue 11): under
# 2 % of a core.
set -euo pipefail
cd "$(dirname "$0")/.."

SOURCE=${1:-../shared/datasets/wichtounet-v2-train/images/image1.jpg}
WARM=${2:-20}
SPAN=${3:-30}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/sudoku-lens/target}
BIN=${BIN:-$CARGO_TARGET_DIR/release/sudoku-lens}
[ -x "$BIN" ] || cargo build --release
command -v Xvfb >/dev/null || { echo "needs Xvfb (apt-get install xvfb)" >&2; exit 1; }

OUTDIR=$(mktemp -d)
DISPLAY_NO=90
while [ -e "/tmp/.X11-unix/X$DISPLAY_NO" ] || [ -e "/tmp/.X$DISPLAY_NO-lock" ]; do
    DISPLAY_NO=$((DISPLAY_NO + 1))
done
Xvfb ":$DISPLAY_NO" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
XVFB=$!
trap 'kill $XVFB 2>/dev/null; rm -rf "$OUTDIR"' EXIT
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$DISPLAY_NO" ] && break; sleep 0.1; done
export DISPLAY=":$DISPLAY_NO" LIBGL_ALWAYS_SOFTWARE=1 WINIT_UNIX_BACKEND=x11
unset WAYLAND_DISPLAY
# The app exits by itself after WARM + SPAN + 5 s and prints its repaint counts.
"$BIN" app --source "$SOURCE" --fresh --exit-after $((WARM + SPAN + 5)) \
    >"$OUTDIR/app.out" 2>"$OUTDIR/app.err" &
PID=$!

ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
HZ=$(getconf CLK_TCK)
sleep "$WARM"
T0=$(ticks)
S0=$(date +%s.%N)
sleep "$SPAN"
T1=$(ticks)
S1=$(date +%s.%N)
wait $PID || true
awk -v t0="$T0" -v t1="$T1" -v s0="$S0" -v s1="$S1" -v hz="$HZ" -v warm="$WARM" 'BEGIN {
    cpu = (t1 - t0) / hz; wall = s1 - s0;
    printf "idle CPU after %d s: %.2f s of CPU in %.1f s = %.2f %% of a core\n", warm, cpu, wall, 100 * cpu / wall }'
echo "app: $(tail -n 1 "$OUTDIR/app.out")"
