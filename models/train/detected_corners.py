#!/usr/bin/env python3
"""Give a photo set without corner truth (rozet-handwritten) the detector's corners, so that
`sudoku-lens synth webcam` can make webcam frames of its photos.

Writes OUT/images and OUT/labels (symbolic links to the set's files) and OUT/corners.csv with
the corners `sudoku-lens scan --json` finds, for each photo whose reading along them agrees
with its labels on at least --min-agree of the labelled digits (the rule `dataset` uses to cut
rozet's photos along the detector's lattice: a lattice a cell off, or turned, cannot pass).
Photos named in an --exclude list (the held-back fifth) are left out. Deterministic: the
detector and the embedded model decide, no randomness.

    detected_corners.py --bin BIN --from ../shared/datasets/rozet-handwritten \
        --exclude models/train/holdout/rozet-handwritten.txt --out /tmp/cells/generated/rozet
"""
import argparse
import json
import os
import subprocess
import sys


def read_labels(path):
    values = []
    with open(path) as f:
        for line in f:
            values += [int(v) for v in line.split()]
    if len(values) != 81:
        raise ValueError(f"{path}: {len(values)} values, expected 81")
    return values


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the sudoku-lens binary")
    ap.add_argument("--from", dest="src", required=True, help="photo set (images/, labels/)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--exclude", action="append", default=[], help="file of photo names to leave out")
    ap.add_argument("--min-agree", type=float, default=0.6)
    args = ap.parse_args()

    excluded = set()
    for path in args.exclude:
        with open(path) as f:
            excluded |= {l.strip() for l in f if l.strip() and not l.startswith("#")}
    for sub in ("images", "labels"):
        os.makedirs(os.path.join(args.out, sub), exist_ok=True)
    names = sorted(os.path.splitext(f)[0] for f in os.listdir(os.path.join(args.src, "images"))
                   if f.lower().endswith((".jpg", ".jpeg", ".png")))
    rows, skipped = [], []
    for name in names:
        if name in excluded:
            continue
        image = next(os.path.join(args.src, "images", name + ext) for ext in (".jpg", ".jpeg", ".png")
                     if os.path.exists(os.path.join(args.src, "images", name + ext)))
        label_path = os.path.join(args.src, "labels", name + ".txt")
        if not os.path.exists(label_path):
            skipped.append((name, "no label"))
            continue
        labels = read_labels(label_path)
        out = subprocess.run([args.bin, "scan", image, "--json", "--no-second-model"],
                             capture_output=True, text=True)
        try:
            reading = json.loads(out.stdout)
        except json.JSONDecodeError:
            skipped.append((name, "no grid found"))
            continue
        corners, grid = reading.get("corners"), reading.get("grid")
        if not corners or not grid or len(grid) != 81:
            skipped.append((name, "no grid found"))
            continue
        digits = [i for i, v in enumerate(labels) if 1 <= v <= 9]
        agree = sum(grid[i] == str(labels[i]) for i in digits) / max(1, len(digits))
        if agree < args.min_agree:
            skipped.append((name, f"reading agrees on {agree:.0%} of the digits"))
            continue
        for sub, path in (("images", image), ("labels", label_path)):
            link = os.path.join(args.out, sub, os.path.basename(path))
            if os.path.lexists(link):
                os.remove(link)
            os.symlink(os.path.abspath(path), link)
        rows.append(name + "," + ",".join(f"{v:.1f}" for point in corners for v in point))
    with open(os.path.join(args.out, "corners.csv"), "w") as f:
        f.write("name,tl_x,tl_y,tr_x,tr_y,br_x,br_y,bl_x,bl_y\n")
        f.writelines(row + "\n" for row in rows)
    for name, why in skipped:
        print(f"{name}: skipped ({why})", file=sys.stderr)
    print(f"{len(rows)} photos with the detector's corners, {len(skipped)} skipped", file=sys.stderr)


if __name__ == "__main__":
    main()
