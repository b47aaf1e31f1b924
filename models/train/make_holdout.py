#!/usr/bin/env python3
"""Writes the fixed held-back fifth of the photo sets that have no validation split of their own.

Photos are grouped by puzzle so that near-duplicates never straddle the split: the wichtounet
photos (v2 and mixed are the same photos) by the full grid of their mixed label (the solution,
shared by every photo of one puzzle), rozet photos by their label. A group is held back when
groups are taken in the order of the SHA-256 of their key until a fifth of the photos is
reached, so the split does not depend on file order and needs no random seed. Nothing here looks at images or models.

    python3 models/train/make_holdout.py --shared ../shared --out models/train/holdout

writes `wichtounet.txt` (names for both wichtounet sets) and `rozet-handwritten.txt`, one
photo name per line. `sudoku-lens eval --only` evaluates on them; `sudoku-lens dataset
--exclude` keeps them out of training (the lists are also excluded from wichtounet-v2-train,
whose photos are the same pages).
"""
import argparse
import hashlib
from pathlib import Path


def rank(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def label_key(path: Path) -> str:
    return " ".join(path.read_text().split())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default="../shared")
    ap.add_argument("--out", default="models/train/holdout")
    a = ap.parse_args()
    ds = Path(a.shared) / "datasets"
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, src, listed in [
        ("wichtounet.txt", ds / "wichtounet-mixed-train", [ds / "wichtounet-mixed-train", ds / "wichtounet-v2-train"]),
        ("rozet-handwritten.txt", ds / "rozet-handwritten", [ds / "rozet-handwritten"]),
    ]:
        names = sorted(p.stem for p in (src / "labels").glob("*.txt"))
        keys = {n: label_key(src / "labels" / f"{n}.txt") for n in names}
        groups = {}
        for n in names:
            groups.setdefault(keys[n], []).append(n)
        held, held_groups = [], 0
        for key in sorted(groups, key=rank):
            if len(held) >= len(names) / 5:
                break
            held += groups[key]
            held_groups += 1
        held.sort()
        # every set the list applies to must hold each name
        for d in listed:
            missing = [n for n in held if not (d / "labels" / f"{n}.txt").exists()]
            if missing:
                print(f"note: {len(missing)} held-back names not in {d.name}: {missing[:5]}")
        header = (
            f"# held-back fifth of {src.name} ({len(held)} of {len(names)} photos, "
            f"{held_groups} of {len(groups)} puzzles), grouped by puzzle; "
            "written by models/train/make_holdout.py\n"
        )
        (out / name).write_text(header + "".join(f"{n}\n" for n in held))
        print(f"{name}: {len(held)} of {len(names)} photos, {len(groups)} puzzle groups")


if __name__ == "__main__":
    main()
