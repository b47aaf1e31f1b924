#!/usr/bin/env python3
"""Fits the printed/handwritten network of `src/digits/style.rs` and writes its weights as
`src/digits/style_weights.rs`.

Inputs are the per-cell features `digits::style::cell_features` computes (dumped by
`examples/writing_features.rs`) on TRAINING photos only: kubiesa-train (masks
models/train/givens/MM_DD.txt), rozet-handwritten without its held-back fifth
(models/train/holdout/rozet-handwritten.txt; masks by ink colour, corrected by eye) and
wichtounet-v2-train without its held-back fifth (models/train/holdout/wichtounet.txt; every
digit printed: newspaper pages untouched by a pen, so the fit does not learn to call a
plain print handwriting). kubiesa-val and the held-back fifths are never read here.
wichtounet-mixed-train is left out of the fit: its "handwriting" is digits pasted in one
uniform size and colour, so there the pasted digits, not the print, are the tightest look-alike
set, against the premise of `digits::style` (its figure is reported instead).

    B=target/release/examples/writing_features; S=../shared/datasets; G=models/train/givens
    export THIN=1
    $B $S/kubiesa-train $G > /tmp/f-kub.tsv
    $B $S/rozet-handwritten $G/rozet-handwritten models/train/holdout/rozet-handwritten.txt > /tmp/f-rozet.tsv
    $B $S/wichtounet-v2-train $G/wichtounet-mixed-train models/train/holdout/wichtounet.txt > /tmp/f-wv2.tsv
    python models/train/fit_style.py /tmp/f-kub.tsv /tmp/f-rozet.tsv /tmp/f-wv2.tsv --out src/digits/style_weights.rs
    cargo fmt --all

Each set weighs the same in the loss, and within a set printed and handwritten cells weigh
the same. With THIN=1 the dump also holds each photo with most givens taken away (`NAME#thin`,
see the example), so the fit sees puzzles far along. A network of
13 inputs (`digits::style::FEATURES`), 16 tanh units and one logit (handwritten), Adam, full batch, seeded: the same
inputs give the same weights. Needs torch and numpy (requirements.txt). With --folds K it
first prints a K-fold estimate, folds by puzzle (kubiesa MM_DD, rozet photo), as a check.
"""
import argparse
import zlib

import numpy as np
import torch

HIDDEN = 16
EPOCHS = 400


def load(path):
    names, cells, printed, feats = [], [], [], []
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) < 6 or f[5] == "":
            continue  # ink not measured: the network never sees it (all-zero input)
        names.append(f[0])
        cells.append(int(f[1]))
        printed.append(int(f[4]))
        feats.append([float(x) for x in f[5:]])
    return np.array(names), np.array(printed, float), np.array(feats, float)


def train(x, y, w, seed=0):
    torch.manual_seed(seed)
    net = torch.nn.Sequential(torch.nn.Linear(x.shape[1], HIDDEN), torch.nn.Tanh(), torch.nn.Linear(HIDDEN, 1))
    opt = torch.optim.Adam(net.parameters(), lr=1e-2, weight_decay=1e-4)
    xt = torch.tensor(x, dtype=torch.float32)
    yt = torch.tensor(1 - y, dtype=torch.float32)  # 1 = handwritten
    wt = torch.tensor(w, dtype=torch.float32)
    for _ in range(EPOCHS):
        opt.zero_grad()
        loss = (torch.nn.functional.binary_cross_entropy_with_logits(net(xt)[:, 0], yt, reduction="none") * wt).mean()
        loss.backward()
        opt.step()
    return net


def predict(net, x):
    with torch.no_grad():
        return net(torch.tensor(x, dtype=torch.float32))[:, 0].numpy()


def puzzle_key(name):
    # a thinned copy (`NAME#thin`) goes with its photo; kubiesa: the four photos of one page
    # share MM_DD
    name = name.split("#")[0]
    return name[:5] if name[:2].isdigit() and name[2] == "_" else name


def weights(sets):
    """Each set weighs the same, and within a set printed and handwritten cells weigh the
    same: the network carries no prior of how far along a puzzle is."""
    out = []
    for _, y, _ in sets:
        w = np.where(y == 1, 0.5 / max(1, (y == 1).sum()), 0.5 / max(1, (y == 0).sum()))
        out.append(w)
    return np.concatenate(out) * sum(len(y) for _, y, _ in sets)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tsv", nargs="+")
    ap.add_argument("--out")
    ap.add_argument("--folds", type=int, default=0)
    a = ap.parse_args()
    torch.set_num_threads(1)
    sets = [load(p) for p in a.tsv]
    for k in range(a.folds):
        tr, te = [], []
        for names, y, x in sets:
            fold = np.array([zlib.crc32(puzzle_key(n).encode()) % a.folds for n in names])
            tr.append((names[fold != k], y[fold != k], x[fold != k]))
            te.append((names[fold == k], y[fold == k], x[fold == k]))
        net = train(np.vstack([s[2] for s in tr]), np.concatenate([s[1] for s in tr]), weights(tr))
        for path, (names, y, x) in zip(a.tsv, te):
            right = (predict(net, x) > 0) == (y == 0)
            for kind, sel in [("photos", np.array(["#" not in n for n in names])),
                              ("thinned", np.array(["#" in n for n in names]))]:
                if not sel.any():
                    continue
                photos = {}
                for n, r in zip(names[sel], right[sel]):
                    photos[n] = photos.get(n, True) and r
                print(f"fold {k} {path} {kind}: cells {100 * right[sel].mean():.2f} %, all right "
                      f"{100 * np.mean(list(photos.values())):.1f} % of {len(photos)}")
    net = train(np.vstack([s[2] for s in sets]), np.concatenate([s[1] for s in sets]), weights(sets))
    for path, (names, y, x) in zip(a.tsv, sets):
        right = (predict(net, x) > 0) == (y == 0)
        print(f"fit {path} (training): cells {100 * right.mean():.2f} %")
    if a.out:
        w1 = net[0].weight.detach().numpy()
        b1 = net[0].bias.detach().numpy()
        w2 = net[2].weight.detach().numpy()[0]
        b2 = float(net[2].bias.detach().numpy()[0])
        row = lambda v: "[" + ", ".join(f"{x:.6}" for x in v) + "]"
        with open(a.out, "w") as f:
            f.write("//! The fixed network of `digits::style`: written by `models/train/fit_style.py` (do not\n")
            f.write(f"//! edit by hand). Fitted on: {', '.join(a.tsv)}.\n\n")
            # Fitted numbers: one may fall near a named constant (0.69314 is not ln 2).
            f.write("#![allow(clippy::approx_constant)]\n\n")
            f.write(f"/// Inputs per cell.\npub const INPUTS: usize = {w1.shape[1]};\n")
            f.write(f"/// Hidden tanh units.\npub const HIDDEN: usize = {HIDDEN};\n")
            f.write("/// Input → hidden weights.\npub const W1: [[f32; INPUTS]; HIDDEN] = [\n")
            for r in w1:
                f.write(f"    {row(r)},\n")
            f.write("];\n")
            f.write(f"/// Hidden biases.\npub const B1: [f32; HIDDEN] = {row(b1)};\n")
            f.write(f"/// Hidden → logit weights.\npub const W2: [f32; HIDDEN] = {row(w2)};\n")
            f.write(f"/// Logit bias.\npub const B2: f32 = {b2:.6};\n")
        print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
