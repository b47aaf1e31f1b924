#!/usr/bin/env python3
"""Crops every photo of a data set close to its grid, for dev sets of pictures whose page
ends near the grid (a photo cropped by its user, a page held close to a webcam).

    crop_to_grid.py SRC OUT SEED [LO HI]

Each photo of SRC (images/, labels/, corners.csv; photos without corners are skipped) is
cut to its grid's bounding box widened on each side by a random LO..HI share of the grid's
size (default 0.02..0.15), clipped to the photo; labels are copied and the corners shifted.
Seeded: the same SEED gives the same crops. Stop 41 made `tight-kt` sets with it from
kubiesa-train (seeds 1, 2, 3) and then webcam frames of them (`sudoku-lens synth webcam
--from OUT --seed 5151|5222|5233 --size 640x480`, 2-3 copies). Needs Pillow
(`pip install pillow`).
"""
import csv
import os
import random
import shutil
import sys

from PIL import Image


def main():
    if len(sys.argv) not in (4, 6):
        sys.exit(__doc__)
    src, out, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    lo, hi = (float(sys.argv[4]), float(sys.argv[5])) if len(sys.argv) == 6 else (0.02, 0.15)
    rng = random.Random(seed)
    os.makedirs(f"{out}/images", exist_ok=True)
    os.makedirs(f"{out}/labels", exist_ok=True)
    with open(f"{src}/corners.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    with open(f"{out}/corners.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["name", "tl_x", "tl_y", "tr_x", "tr_y", "br_x", "br_y", "bl_x", "bl_y"])
        for r in rows:
            name = r["name"]
            p = [(float(r[k + "_x"]), float(r[k + "_y"])) for k in ("tl", "tr", "br", "bl")]
            xs, ys = [q[0] for q in p], [q[1] for q in p]
            side = max(max(xs) - min(xs), max(ys) - min(ys))
            im = Image.open(f"{src}/images/{name}.jpg")
            m = [rng.uniform(lo, hi) * side for _ in range(4)]
            box = (
                max(0, int(min(xs) - m[0])),
                max(0, int(min(ys) - m[1])),
                min(im.width, int(max(xs) + m[2])),
                min(im.height, int(max(ys) + m[3])),
            )
            im.crop(box).save(f"{out}/images/{name}.jpg", quality=92)
            shutil.copy(f"{src}/labels/{name}.txt", f"{out}/labels/{name}.txt")
            w.writerow([name] + [f"{v:.2f}" for q in p for v in (q[0] - box[0], q[1] - box[1])])


if __name__ == "__main__":
    main()
