#!/usr/bin/env python3
"""Writes printed-givens masks (`NAME.txt`, 9 rows of 0/1, 1 = printed digit) for the photo sets
whose print/handwriting split follows from the data itself. The kubiesa masks
(`models/train/givens/MM_DD.txt`) are made by eye instead and are not touched here.

- wichtounet-mixed-train: the same photos as wichtounet-v2-train with handwritten digits pasted
  into the empty cells, so a digit is printed where the v2 label of that photo has one (a
  photo missing from v2, image1015, gets no mask).
- rozet-handwritten: printed digits are black, handwritten ones blue pen. For each digit cell the
  ink's colour is measured in the photo along the lattice the detector found
  (`examples/ink_colour.rs`): the blue excess, B - R of the cell's darkest pixels beyond what a
  black ink of that darkness shows on that paper, divided by the cell's contrast (dim photos
  show small colour differences). The two inks fall apart (see the histogram this prints);
  cells near the split are listed so they can be looked at. Photos whose grid was not found,
  or whose found grid reads fewer than 60 % of the labelled digits (the lattice is off the
  grid and the colours belong to other cells), get no mask. Colour finds blue pen only:
  handwriting in pencil, red or green pen, or black pen was called printed, so the
  corrections made by eye in `models/train/givens/rozet-corrections.txt` are applied last
  (cells made handwritten; photos that could not be called, or were not looked at, lose
  their mask).

    cargo run --release --no-default-features --example ink_colour -- \
        ../shared/datasets/rozet-handwritten > /tmp/rozet-ink.tsv
    python models/train/make_givens.py --shared ../shared --rozet-ink /tmp/rozet-ink.tsv \
        --out models/train/givens

writes `OUT/wichtounet-mixed-train/NAME.txt` and `OUT/rozet-handwritten/NAME.txt`. Needs numpy
and Pillow (requirements.txt).
"""
import argparse
import json
from pathlib import Path

import numpy as np


def read_labels(path):
    rows = [list(map(int, line.split())) for line in path.read_text().splitlines() if line.strip()]
    assert len(rows) == 9 and all(len(r) == 9 for r in rows), path
    return rows


def write_mask(path, mask):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(" ".join(str(int(v)) for v in row) + "\n" for row in mask))


def homography(src, dst):
    """3x3 H with H @ [x, y, 1] ~ dst for the four point pairs."""
    a = []
    for (x, y), (u, v) in zip(src, dst):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    _, _, vt = np.linalg.svd(np.array(a, float))
    return vt[-1].reshape(3, 3)


def wichtounet(shared, out):
    mixed = shared / "datasets/wichtounet-mixed-train/labels"
    v2 = shared / "datasets/wichtounet-v2-train/labels"
    n, missing = 0, []
    for path in sorted(mixed.glob("*.txt")):
        if not (v2 / path.name).exists():
            missing.append(path.stem)
            continue
        printed = read_labels(v2 / path.name)
        written = read_labels(path)
        mask = [[1 if 1 <= p <= 9 else 0 for p in row] for row in printed]
        # Every printed digit is still there, the same, in the mixed photo.
        for r in range(9):
            for c in range(9):
                if mask[r][c]:
                    assert written[r][c] == printed[r][c], (path.name, r, c)
        write_mask(out / "wichtounet-mixed-train" / path.name, mask)
        n += 1
    print(f"wichtounet-mixed-train: {n} masks; no v2 photo to compare with: {missing}")


def rozet(shared, out, tsv_lines, split):
    """Masks from `examples/ink_colour.rs` output: a digit is printed when its blue excess,
    relative to the cell's contrast, is below `split`."""
    ds = shared / "datasets/rozet-handwritten"
    cells, skipped = {}, []
    for line in tsv_lines:
        if line.startswith("#skip"):
            skipped.append(line.split(maxsplit=2)[1:])
            continue
        if not line.strip() or line.startswith("photo\t"):
            continue
        name, cell, label, excess, contrast = line.split("\t")[:5]
        r, c = int(cell[1]) - 1, int(cell[3]) - 1
        cells.setdefault(name, {})[(r, c)] = float(excess) / max(float(contrast), 20.0)
    values = [v for per in cells.values() for v in per.values()]
    hist, edges = np.histogram(values, bins=30, range=(-0.5, 1.0))
    print("rozet blue excess / contrast, digit cells:")
    for count, lo in zip(hist, edges):
        print(f"  {lo:6.2f} {count}")
    near = []
    blue = 0
    for name, per in sorted(cells.items()):
        labels = read_labels(ds / "labels" / f"{name}.txt")
        mask = [[0] * 9 for _ in range(9)]
        for r in range(9):
            for c in range(9):
                if not 1 <= labels[r][c] <= 9:
                    continue
                t = per.get((r, c))
                if t is None:
                    raise SystemExit(f"{name} r{r + 1}c{c + 1}: no colour measured")
                mask[r][c] = 1 if t < split else 0
                blue += mask[r][c] == 0
                if abs(t - split) < 0.08:
                    near.append(f"{name} r{r + 1}c{c + 1} {t:.3f}")
        write_mask(out / "rozet-handwritten" / f"{name}.txt", mask)
    print(f"rozet-handwritten: {len(cells)} masks ({blue} handwritten digits of {len(values)}), "
          f"{len(skipped)} photos without: {skipped}")
    print(f"cells within 0.08 of the split {split}: {len(near)}")
    for line in near:
        print("  " + line)


def apply_corrections(shared, out, path):
    """Applies `rozet-corrections.txt` (see its header) to the written rozet masks."""
    labels_dir = shared / "datasets/rozet-handwritten/labels"
    changed = dropped = 0
    for n, raw in enumerate(path.read_text().splitlines(), 1):
        words = raw.split("#")[0].split()
        if not words:
            continue
        name, rest = words[0], words[1:]
        mask_path = out / "rozet-handwritten" / f"{name}.txt"
        if rest and rest[0] == "-":
            if mask_path.exists():
                mask_path.unlink()
            dropped += 1
            continue
        if not mask_path.exists():
            raise SystemExit(f"{path}:{n}: no mask {mask_path} to correct")
        mask = read_labels(mask_path)
        labels = read_labels(labels_dir / f"{name}.txt")
        for cell in rest:
            r, c = int(cell[1]) - 1, int(cell[3]) - 1
            if not 1 <= labels[r][c] <= 9:
                raise SystemExit(f"{path}:{n}: {name} {cell} holds no labelled digit")
            mask[r][c] = 0
            changed += 1
        write_mask(mask_path, mask)
    print(f"rozet corrections: {changed} cells made handwritten, {dropped} masks dropped")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default="../shared", type=Path)
    ap.add_argument("--out", default="models/train/givens", type=Path)
    ap.add_argument("--rozet-ink", type=Path, help="examples/ink_colour.rs output on rozet-handwritten")
    ap.add_argument("--split", type=float, default=0.1, help="blue excess / contrast from which ink is blue pen")
    a = ap.parse_args()
    wichtounet(a.shared, a.out)
    if a.rozet_ink:
        rozet(a.shared, a.out, a.rozet_ink.read_text().splitlines(), a.split)
        apply_corrections(a.shared, a.out, a.out / "rozet-corrections.txt")


if __name__ == "__main__":
    main()
