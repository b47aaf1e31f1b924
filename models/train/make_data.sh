#!/usr/bin/env bash
# Exports every training cell of the committed digit model into $OUT (default /tmp/cells):
# the shared photo sets less their held-back fifths (with synthetic handwriting written into
# empty cells of the printed sets), seeded app screenshots and printed-page photos in the
# training fonts, seeded webcam frames of the training photos, synthetic font cells and
# synthetic handwriting. See
# models/README.md; kubiesa-val and the held-back lists are never exported.
#
#   BIN=path/to/sudoku-lens models/train/make_data.sh [OUT]
#
# Counts (environment): SCREENS screenshots (2000), PRINTS photographed printed pages (300),
# WEBCAM_PRINTS webcam frames of each printed page (2), JITTER_COPIES jittered cuts of each real
# photo (5), MORE_KUBIESA_WEBCAM frames of each kubiesa-train photo in `more` (2). The defaults
# make the committed model's cells (2026-11-29, stop 39).
# PARTS (default "real generated synth"): which folders to write, e.g. PARTS=real re-exports
# only the photo cells after a detector change (rozet's photos have no corners and are cut
# along the detector's lattice). PARTS=more writes webcam-kubiesa-more, stop 40's extra webcam
# frames of the kubiesa-train photos (the second model's data, not the first's);
# PARTS=screenphotos writes screen-photos, SCREEN_PHOTOS photos of screens (300; stop 55's
# fine-tunes, in no committed model);
# PARTS=rozetcam writes webcam-rozet, webcam frames of rozet's training photos (stop 42's
# experiment, in no committed model; models/README.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-/tmp/cells}
BIN=${BIN:-$HOME/.cache/sudoku-lens/target-core/release/sudoku-lens}
D=${SHARED:-../shared}/datasets
H=models/train/holdout
G=models/train/givens
GEN=$OUT/generated
mkdir -p "$OUT" "$GEN"

# Truth fixes (models/train/label-fixes): corrected label files and corner rows of the
# shared sets, applied to every photo set read here, webcam frames' sources included.
FIXES=(--label-fixes models/train/label-fixes)
# How each digit was written (printed or handwritten): the kubiesa masks made by eye, the
# derived masks of wichtounet-mixed and rozet (make_givens.py); wichtounet-v2 and the
# screenshots are print only.
GIVENS=(--givens $G --givens $G/wichtounet-mixed-train --givens $G/rozet-handwritten
        --all-printed wichtounet-v2-train --all-printed screens --all-printed webcam-wichtounet
        --all-printed print --all-printed webcam-print
        "${FIXES[@]}")

PARTS=${PARTS:-real generated synth}
part() { [[ " $PARTS " == *" $1 "* ]]; }

# Held-back wichtounet photos stay out of the webcam frames made from them too: the frames
# are named NAME_camK.
held_frames=$OUT/held-frames.txt
grep -v '^#' $H/wichtounet.txt | sed 's/$/_cam0/' > "$held_frames"

if part generated; then
    "$BIN" synth screens --out "$GEN/screens" --count "${SCREENS:-2000}" --seed 1 --fonts train
    PRINT_PHOTOS=()
    if [ "${PRINTS:-300}" -gt 0 ]; then
        "$BIN" synth print --out "$GEN/print" --count "${PRINTS:-300}" --seed 6 --fonts train
        PRINT_PHOTOS=(--photos "$GEN/print")
        if [ "${WEBCAM_PRINTS:-2}" -gt 0 ]; then
            "$BIN" synth webcam --from "$GEN/print" --out "$GEN/webcam-print" --seed 11 \
                --copies "${WEBCAM_PRINTS:-2}" --harsh
            PRINT_PHOTOS+=(--photos "$GEN/webcam-print")
        fi
    fi
    "$BIN" synth webcam "${FIXES[@]}" --from "$D/kubiesa-train" --out "$GEN/webcam-kubiesa" --seed 2 --copies 1 --harsh
    "$BIN" synth webcam "${FIXES[@]}" --from "$D/wichtounet-v2-train" --out "$GEN/webcam-wichtounet" --seed 3 --copies 1 --harsh
    "$BIN" synth webcam "${FIXES[@]}" --from "$D/wichtounet-mixed-train" --out "$GEN/webcam-mixed" --seed 5 --copies 1 --harsh

    "$BIN" dataset --out "$OUT/generated-cells" --seed 4 --jitter-copies 2 --jitter 0.015 \
        "${GIVENS[@]}" \
        --photos "$GEN/screens" --photos "$GEN/webcam-kubiesa" --photos "$GEN/webcam-wichtounet" \
        --photos "$GEN/webcam-mixed" "${PRINT_PHOTOS[@]}" --exclude "$held_frames"
fi
# Photos of an app on a screen in the training fonts (stop 55: moiré, glare, refresh bands;
# the fine-tunes of models/README.md "Photos of screens in the pool", none committed yet).
if part screenphotos; then
    "$BIN" synth screen-photos --out "$GEN/screen-photos" --count "${SCREEN_PHOTOS:-300}" --seed 21 \
        --fonts train --camera mixed
    "$BIN" dataset --out "$OUT/screen-photos" --seed 22 --jitter-copies 2 --jitter 0.015 \
        "${GIVENS[@]}" --all-printed screen-photos --photos "$GEN/screen-photos"
fi
# Further harsh webcam frames of each kubiesa-train photo, in a folder of their own (stop 40:
# webcam frames of kubiesa photos held out with them read better; the second model's data, see
# models/README.md "More webcam frames of real handwriting" and "A second opinion").
if part more; then
    MORE=$OUT/generated-more
    "$BIN" synth webcam "${FIXES[@]}" --from "$D/kubiesa-train" --out "$MORE/webcam-kubiesa" --seed 12 \
        --copies "${MORE_KUBIESA_WEBCAM:-2}" --harsh
    "$BIN" dataset --out "$OUT/webcam-kubiesa-more" --seed 13 --jitter-copies 2 --jitter 0.015 \
        "${GIVENS[@]}" --photos "$MORE/webcam-kubiesa"
fi
# Harsh webcam frames of rozet-handwritten's training photos (stop 42: blue-pen handwriting
# seen through a webcam; tried for the second model, not committed). rozet has no corner
# truth: the detector's corners where its reading agrees with the labels
# (detected_corners.py), the held-back fifth left out.
if part rozetcam; then
    python3 models/train/detected_corners.py --bin "$BIN" --from "$D/rozet-handwritten" \
        --exclude $H/rozet-handwritten.txt --out "$GEN/rozet"
    "$BIN" synth webcam --from "$GEN/rozet" --out "$GEN/webcam-rozet" --seed 14 \
        --copies "${ROZET_WEBCAM:-2}" --harsh
    "$BIN" dataset --out "$OUT/webcam-rozet" --seed 15 --jitter-copies 2 --jitter 0.015 \
        "${GIVENS[@]}" --photos "$GEN/webcam-rozet"
fi
if part real; then
    "$BIN" dataset --out "$OUT/real" --seed 1 --jitter-copies "${JITTER_COPIES:-5}" --jitter 0.015 \
        --handwriting-copies 2 --handwriting-share 0.5 "${GIVENS[@]}" \
        --photos "$D/wichtounet-v2-train" --photos "$D/kubiesa-train" \
        --photos "$D/wichtounet-mixed-train" --photos "$D/rozet-handwritten" \
        --exclude $H/wichtounet.txt --exclude $H/rozet-handwritten.txt
fi
if part synth; then
    "$BIN" dataset --out "$OUT/synth" --synthetic-per-class 4000 --handwriting-per-class 4000 --seed 2
fi
