#!/usr/bin/env python3
"""Stop-gap exporter (used for the first committed model when the Rust build was not yet
available): cuts real cells from the photo sets with ground-truth (and jittered) corners and
normalizes them with a NumPy port of `vision::normalize_cell`. The reference exporter is
`sudoku-lens dataset`; this one writes the same format (cells.u8, labels.u8)."""
import argparse, csv, os
import numpy as np
from PIL import Image

CELL = 40
SIDE = 32
MARGIN = 0.08


def homography(quad):
    # unit square (0,0),(1,0),(1,1),(0,1) -> quad
    src = [(0, 0), (1, 0), (1, 1), (0, 1)]
    A, b = [], []
    for (x, y), (u, v) in zip(src, quad):
        A.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.append(u)
        A.append([0, 0, 0, x, y, 1, -v * x, -v * y]); b.append(v)
    h = np.linalg.solve(np.array(A, float), np.array(b, float))
    return np.append(h, 1).reshape(3, 3)


def warp(gray, quad):
    H = homography(quad)
    n = 9 * CELL
    g = (np.arange(n) + 0.5) / n
    u, v = np.meshgrid(g, g)
    pts = np.stack([u.ravel(), v.ravel(), np.ones(u.size)])
    p = H @ pts
    x, y = p[0] / p[2], p[1] / p[2]
    h, w = gray.shape
    x0 = np.clip(np.floor(x), 0, w - 1).astype(int); y0 = np.clip(np.floor(y), 0, h - 1).astype(int)
    x1 = np.clip(x0 + 1, 0, w - 1); y1 = np.clip(y0 + 1, 0, h - 1)
    fx = np.clip(x - x0, 0, 1); fy = np.clip(y - y0, 0, 1)
    val = (gray[y0, x0] * (1 - fx) + gray[y0, x1] * fx) * (1 - fy) + (gray[y1, x0] * (1 - fx) + gray[y1, x1] * fx) * fy
    out = np.where((x < -0.5) | (y < -0.5) | (x > w - 0.5) | (y > h - 0.5), 255, val)
    return np.clip(np.round(out), 0, 255).astype(np.uint8).reshape(n, n)


def normalize(crop):
    h, w = crop.shape
    mx, my = round(w * MARGIN), round(h * MARGIN)
    inner = crop[my:h - my, mx:w - mx]
    small = np.asarray(Image.fromarray(inner).resize((SIDE, SIDE), Image.BILINEAR), dtype=np.float32)
    flat = np.sort(small.ravel())
    n = flat.size
    paper = flat[int(n * 0.80)]
    ink = flat[int(n * 0.02)]
    spread = max(paper - ink, 48.0)
    return np.clip((paper - small) / spread, 0, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--photos", nargs="+", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--jitter-copies", type=int, default=3)
    ap.add_argument("--jitter", type=float, default=0.012)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--evaluation-only", action="store_true", help="allow *-val sets (never for training)")
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    xs, ys = [], []
    for d in a.photos:
        assert a.evaluation_only or not d.rstrip("/").endswith("-val"), "never train on validation data"
        rows = list(csv.reader(open(os.path.join(d, "corners.csv"))))[1:]
        for r in rows:
            name = r[0]
            quad = np.array([float(v) for v in r[1:9]]).reshape(4, 2)
            labels = np.array(open(os.path.join(d, "labels", name + ".txt")).read().split(), dtype=np.uint8)
            rgb = np.asarray(Image.open(os.path.join(d, "images", name + ".jpg")).convert("RGB"), dtype=np.float32)
            gray = rgb[..., 0] * 0.2126 + rgb[..., 1] * 0.7152 + rgb[..., 2] * 0.0722
            side = np.mean([np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)])
            quads = [quad] + [quad + rng.uniform(-1, 1, (4, 2)) * a.jitter * side for _ in range(a.jitter_copies)]
            for q in quads:
                g = warp(gray, q)
                for i in range(81):
                    rr, cc = divmod(i, 9)
                    xs.append((normalize(g[rr * CELL:(rr + 1) * CELL, cc * CELL:(cc + 1) * CELL]) * 255).round().astype(np.uint8))
                    ys.append(labels[i])
        print(d, len(ys), flush=True)
    os.makedirs(a.out, exist_ok=True)
    np.stack(xs).tofile(os.path.join(a.out, "cells.u8"))
    np.array(ys, dtype=np.uint8).tofile(os.path.join(a.out, "labels.u8"))
    print("cells", len(ys), np.bincount(ys, minlength=11).tolist())


if __name__ == "__main__":
    main()
