#!/usr/bin/env python3
"""Train the sudoku-lens digit CNN and export it to ONNX.

Input: one or more folders written by `sudoku-lens dataset` (cells.u8: N x 32 x 32 bytes,
value = normalized ink * 255 exactly as `vision::normalize_cell` produced it; labels.u8: N
bytes, classes 0 empty, 1-9 digits, 10 pencil marks; kinds.u8: N bytes, how a digit was
written, 1 printed, 2 handwritten, 0 unknown or no digit (a folder without it: all 0);
meta.csv: index,label,source with source `SET/PHOTO/CUT/rRcC` for photo cells,
`synthetic/I` for font renderings and `handwriting/I` for synthetic handwriting).

Held-out split: whole photos, never single cells. kubiesa photos are grouped by puzzle (the
`NN_MM` prefix of the name: the same puzzle photographed with two phones, twice), so no
held-out puzzle is ever seen in training: the 5 earliest (names are dates, and kubiesa-val
holds earlier puzzles than kubiesa-train); wichtounet photos are held out one by one.
With `--hold-webcam-with-photo` the webcam frames made from a held-out photo are held out
with it (a fold of photos the model never saw in any form; off for the committed model).
`--holdout-groups 0 --holdout-kubiesa 0` trains on everything (the final model, after the settings were chosen
on the split).

Output: an ONNX model (opset 17, input "cells" [N,1,32,32] f32, outputs "logits" [N,11] and
"kind" [N,2] (printed, handwritten logits; trained on digit cells of known writing only),
dynamic batch, batch norm folded into the convolutions), a JSON report (held-out accuracy,
confusions, printed/handwritten accuracy and both calibrations), and optionally fixture
crops with the PyTorch probabilities so the Rust test can check that tract agrees.

See models/README.md for the exact commands.
"""
import argparse
import collections
import csv
import json
import math
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

NUM_CLASSES = 11
PENCIL = 10
KINDS = 2  # kind output: 0 printed, 1 handwritten (kinds.u8 codes 1 and 2)
SIDE = 32


def conv_bn_relu(c_in, c_out, kernel, stride, padding):
    return [nn.Conv2d(c_in, c_out, kernel, stride, padding, bias=False), nn.BatchNorm2d(c_out), nn.ReLU()]


# Architectures. tract (the default inference engine) runs each convolution image by image
# in small matrix products, so its cost grows with the number of layers and output pixels
# more than with channels: stride-2 / patch convolutions only, no max-pool, no stride-1
# layer at full resolution, few layers. Batch 81 on tract (criterion, busy 2-core machine):
# "s2x3" ≈ 3.7-4.0 ms, "patch" ≈ 3.7-4.2 ms, "patch24" ≈ 2.7 ms; the former 3-block
# max-pool net took 18.9 ms. All three reach the same held-out accuracy.
ARCHS = {
    # 32² →(3×3/2) 16²×8 →(3×3/2) 8²×16 →(3×3/2) 4²×32 → 64 → 11; ≈0.20 M MAC per cell.
    "s2x3": lambda: (conv_bn_relu(1, 8, 3, 2, 1) + conv_bn_relu(8, 16, 3, 2, 1) + conv_bn_relu(16, 32, 3, 2, 1), 32 * 16),
    # 32² →(4×4/4 patches) 8²×24 →(3×3/2) 4²×48 → 64 → 11; ≈0.24 M MAC per cell.
    "patch24": lambda: (conv_bn_relu(1, 24, 4, 4, 0) + conv_bn_relu(24, 48, 3, 2, 1), 48 * 16),
    # 32² →(4×4/4 patches) 8²×32 →(3×3/2) 4²×64 → 64 → 11; ≈0.39 M MAC per cell.
    "patch": lambda: (conv_bn_relu(1, 32, 4, 4, 0) + conv_bn_relu(32, 64, 3, 2, 1), 64 * 16),
    # 32² →(3×3/2) 16²×8 →(3×3/2) 8²×16 →(3×3/2) 4²×64 → hidden → 11; ≈0.37 M MAC per cell
    # with a 128-unit head. A 3×3 first layer keeps thin handwritten strokes that 4×4
    # patches blur, and a wide last layer holds the shapes of many hands and fonts, while
    # tract's cost (dominated by the first layer's 16² outputs) stays ≈1.35× "patch24".
    # Batch 81 on tract (same loaded machine, one run): patch24 4.0 ms, this 5.4 ms,
    # 16/32/64 11.4 ms, 12/24/48 9.3 ms, 8/24/48 6.4 ms, 8/16/32 4.7 ms.
    "s2x3h": lambda: (conv_bn_relu(1, 8, 3, 2, 1) + conv_bn_relu(8, 16, 3, 2, 1) + conv_bn_relu(16, 64, 3, 2, 1), 64 * 16),
    # s2x3h with wider second and third layers (8/24/96; ≈0.76 M MAC with a 192-unit head):
    # the first layer, tract's main cost, is unchanged. Batch 81 on tract (same session):
    # s2x3h 2.30-2.34 ms, this 3.13-3.22 ms. The committed model since 2026-11-29.
    "s2x3w": lambda: (conv_bn_relu(1, 8, 3, 2, 1) + conv_bn_relu(8, 24, 3, 2, 1) + conv_bn_relu(24, 96, 3, 2, 1), 96 * 16),
}


class DigitNet(nn.Module):
    """A few strided conv blocks (conv, BN, ReLU), a shared hidden layer, and two heads: the
    11 classes and the digit's writing (printed, handwritten)."""

    def __init__(self, arch="s2x3", hidden=64, dropout=0.2):
        super().__init__()
        layers, flat = ARCHS[arch]()
        self.features = nn.Sequential(*layers)
        self.head = nn.Sequential(
            nn.Flatten(), nn.Dropout(dropout), nn.Linear(flat, hidden), nn.ReLU(), nn.Linear(hidden, NUM_CLASSES)
        )
        self.kind = nn.Linear(hidden, KINDS)

    def forward(self, x):
        h = self.head[:4](self.features(x))
        return self.head[4](h), self.kind(h)


def init_from_onnx(model, path):
    """Loads the weights of an exported model (`export`: batch norm folded into the
    convolutions, logits possibly scaled by a temperature) into `model`: each convolution
    gets the folded weights, its batch norm becomes the identity plus the folded bias (running
    mean 0, variance 1 - eps, scale 1), the class head its weights; the kind head stays new.
    Train such a model with `freeze_bn` so the batch norms keep acting as these affine maps."""
    import onnx
    from onnx import numpy_helper

    m = onnx.load(path)
    init = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in m.graph.initializer}
    convs = [n for n in m.graph.node if n.op_type == "Conv"]
    gemms = [n for n in m.graph.node if n.op_type == "Gemm"]
    layers = [l for l in model.features if isinstance(l, nn.Conv2d)]
    bns = [l for l in model.features if isinstance(l, nn.BatchNorm2d)]
    linears = [l for l in model.head if isinstance(l, nn.Linear)]
    assert len(convs) == len(layers) and len(gemms) == len(linears), f"{path}: another architecture"
    with torch.no_grad():
        for node, conv, bn in zip(convs, layers, bns):
            conv.weight.copy_(init[node.input[1]])
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
            bn.weight.fill_(1.0)
            bn.bias.copy_(init[node.input[2]])
        for node, lin in zip(gemms, linears):
            lin.weight.copy_(init[node.input[1]])
            lin.bias.copy_(init[node.input[2]])
    print(f"initialized from {path}")


def freeze_bn(model):
    """Batch norms use their running statistics (no batch statistics, no updates)."""
    for layer in model.modules():
        if isinstance(layer, nn.BatchNorm2d):
            layer.eval()


def macs_per_cell(model):
    total, x = 0, torch.zeros(1, 1, SIDE, SIDE)
    for layer in list(model.features) + list(model.head) + [model.kind]:
        if layer is model.kind:
            total += layer.in_features * layer.out_features
            break
        y = layer(x)
        if isinstance(layer, nn.Conv2d):
            total += y.numel() * layer.in_channels * layer.kernel_size[0] * layer.kernel_size[1] // layer.groups
        elif isinstance(layer, nn.Linear):
            total += layer.in_features * layer.out_features
        x = y
    return total


# ---------------------------------------------------------------------------------------------
# Data


# The photo set each folder of webcam frames was made from (models/train/make_data.sh).
WEBCAM_OF = {
    "webcam-kubiesa": "kubiesa-train",
    "webcam-wichtounet": "wichtounet-v2-train",
    "webcam-mixed": "wichtounet-mixed-train",
    "webcam-print": "print",
    "webcam-rozet": "rozet-handwritten",
}


def group_of(source, webcam_with_photo=False):
    """Hold-out group of a meta.csv source: kubiesa puzzle, wichtounet photo, or None. With
    `webcam_with_photo` a webcam frame made from a photo is in that photo's group; without
    it (the committed model's split) each frame is a group of its own, so a held-out frame's
    photo may be trained on."""
    parts = source.split("/")
    if parts[0] in ("synthetic", "handwriting") or len(parts) < 2:
        return None
    photo = parts[1]
    name = parts[0]
    # A webcam frame made from a photo (`synth webcam`: PHOTO_camK in webcam-SET) belongs to
    # that photo's group, so a held-out photo's frames are held out with it.
    if webcam_with_photo and name in WEBCAM_OF and "_cam" in photo:
        name = WEBCAM_OF[name]
        photo = photo.rsplit("_cam", 1)[0]
    if name.startswith("kubiesa"):
        photo = "_".join(photo.split("_")[:2])
    # wichtounet-v2-train and wichtounet-mixed-train hold the same photos: one group each,
    # so a photo is never on both sides of the split.
    if name.startswith("wichtounet"):
        name = "wichtounet"
    return f"{name}/{photo}"


def load(dirs):
    """Cells [N,32,32] u8, labels [N], kinds [N] (0 unknown, 1 printed, 2 handwritten),
    source strings [N] of every folder."""
    xs, ys, ks, srcs = [], [], [], []
    for d in dirs:
        x = np.fromfile(os.path.join(d, "cells.u8"), dtype=np.uint8).reshape(-1, SIDE, SIDE)
        y = np.fromfile(os.path.join(d, "labels.u8"), dtype=np.uint8)
        kp = os.path.join(d, "kinds.u8")
        k = np.fromfile(kp, dtype=np.uint8) if os.path.exists(kp) else np.zeros(len(y), np.uint8)
        with open(os.path.join(d, "meta.csv")) as f:
            src = [row[2] for row in csv.reader(f)][1:]
        assert len(x) == len(y) == len(k) == len(src), f"{d}: {len(x)} cells, {len(y)} labels, {len(k)} kinds, {len(src)} meta rows"
        xs.append(x)
        ys.append(y)
        ks.append(k)
        srcs += src
        print(f"{d}: {len(y)} cells, per class {np.bincount(y, minlength=NUM_CLASSES).tolist()}, "
              f"kinds (unknown, printed, handwritten) {np.bincount(k, minlength=3).tolist()}")
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(ks), np.array(srcs)


def split(src, holdout_groups, holdout_kubiesa, seed, keep_held=None, webcam_with_photo=False):
    """Boolean masks (train, held_out) and the held-out groups. kubiesa: the
    `holdout_kubiesa` earliest puzzles (names are dates; kubiesa-val holds the earlier ones,
    so the nearest in time stand in for it); other sets: a random `holdout_groups` share.
    With `keep_held` (the held-out groups of the model training starts from) exactly those
    groups are held out of the sets it had, so nothing it learned from lands in the
    hold-out; sets it never had get a random share as above."""
    groups = np.array([group_of(s, webcam_with_photo) or "" for s in src])
    rng = np.random.default_rng(seed)
    held = set()
    by_set = collections.defaultdict(list)
    for g in sorted(set(groups) - {""}):
        by_set[g.split("/")[0]].append(g)
    kept_sets = {g.split("/")[0] for g in keep_held or []}
    for name, gs in sorted(by_set.items()):
        if keep_held is not None and name in kept_sets:
            held.update(g for g in gs if g in keep_held)
            continue
        if name.startswith("kubiesa"):
            held.update(str(g) for g in gs[:holdout_kubiesa])
            continue
        k = int(round(len(gs) * holdout_groups))
        held.update(str(g) for g in (rng.choice(gs, size=k, replace=False) if k else []))
    held_mask = np.isin(groups, sorted(held)) if held else np.zeros(len(src), bool)
    return ~held_mask, held_mask, sorted(held)


def sample_weights(x, y, src, empty_weight, kubiesa_weight, synthetic_weight, inky_empty_weight, set_weights=()):
    w = np.ones(len(y))
    w[y == 0] *= empty_weight
    # Empty cells with ink in the middle (rubbed-out digits, stains, shadows) are the ones
    # misread as digits: draw them more often.
    centre_ink = (x[:, 6:26, 6:26] > 76).sum(axis=(1, 2))
    w[(y == 0) & (centre_ink > 20)] *= inky_empty_weight
    is_kub = np.char.startswith(src.astype(str), "kubiesa")
    is_syn = np.char.startswith(src.astype(str), "synthetic") | np.char.startswith(src.astype(str), "handwriting")
    w[is_kub] *= kubiesa_weight
    w[is_syn] *= synthetic_weight
    for name, weight in set_weights:
        w[np.char.startswith(src.astype(str), name)] *= weight
    return w / w.sum()


# ---------------------------------------------------------------------------------------------
# Augmentation (on a float batch [B,1,32,32], paper 0, ink 1, as normalize_cell makes it)


def rand(b, lo, hi):
    return torch.empty(b).uniform_(lo, hi)


def augment(x):
    b = x.shape[0]
    # Geometry: rotation, shear, zoom, aspect, shift (what corner jitter and handwriting vary).
    ang = rand(b, -8, 8) * math.pi / 180
    shear = rand(b, -0.15, 0.15)
    zoom = torch.exp(rand(b, -0.12, 0.12))
    aspect = torch.exp(rand(b, -0.08, 0.08))
    tx, ty = rand(b, -0.14, 0.14), rand(b, -0.14, 0.14)  # ±2.2 px
    cos, sin = torch.cos(ang), torch.sin(ang)
    sx, sy = 1 / (zoom * aspect), aspect / zoom
    theta = torch.stack([
        torch.stack([cos * sx, (-sin + cos * shear) * sy, tx], 1),
        torch.stack([sin * sx, (cos + sin * shear) * sy, ty], 1),
    ], 1)
    keep = torch.rand(b) < 0.15
    theta[keep] = torch.tensor([[1.0, 0, 0], [0, 1.0, 0]])
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=False)

    # Stroke weight: blend towards a 3×3 dilation (fatter) or erosion (thinner).
    r = torch.rand(b, 1, 1, 1)
    a = torch.rand(b, 1, 1, 1) * 0.8 + 0.2
    fat = F.max_pool2d(x, 3, 1, 1)
    thin = -F.max_pool2d(-x, 3, 1, 1)
    x = torch.where(r < 0.2, x + a * (fat - x), torch.where(r < 0.35, x + a * (thin - x), x))

    # Blur.
    k = torch.tensor([0.25, 0.5, 0.25])
    k2 = (k[:, None] * k[None, :]).view(1, 1, 3, 3)
    blurred = F.conv2d(x, k2, padding=1)
    bl = (torch.rand(b, 1, 1, 1) < 0.25).float() * torch.rand(b, 1, 1, 1)
    x = x + bl * (blurred - x)

    # Grid-line remnants at one edge (cut slightly off the line) and uneven paper.
    lines = torch.zeros_like(x)
    for i in torch.nonzero(torch.rand(b) < 0.25).flatten().tolist():
        edge = np.random.randint(4)
        width = np.random.randint(1, 4)
        off = np.random.randint(0, 2)
        level = np.random.uniform(0.3, 1.0)
        sl = slice(off, off + width) if edge < 2 else slice(SIDE - off - width, SIDE - off)
        if edge % 2 == 0:
            lines[i, 0, sl, :] = level
        else:
            lines[i, 0, :, sl] = level
    x = torch.maximum(x, lines)
    yy = torch.linspace(-1, 1, SIDE).view(1, 1, SIDE, 1)
    xx = torch.linspace(-1, 1, SIDE).view(1, 1, 1, SIDE)
    gx, gy = rand(b, -0.06, 0.06).view(b, 1, 1, 1), rand(b, -0.06, 0.06).view(b, 1, 1, 1)
    base = rand(b, 0.0, 0.05).view(b, 1, 1, 1) * (torch.rand(b, 1, 1, 1) < 0.3)
    x = x + (base + gx * xx + gy * yy).clamp(min=0)

    # Shadows: a soft-edged dark half-plane (a hand or the phone over the page), which
    # normalize_cell partly stretches into "ink".
    sh = torch.nonzero(torch.rand(b) < 0.08).flatten()
    if len(sh):
        n = len(sh)
        ang = rand(n, 0, 2 * math.pi).view(n, 1, 1, 1)
        dist = (xx * torch.cos(ang) + yy * torch.sin(ang)) - rand(n, -0.9, 0.9).view(n, 1, 1, 1)
        soft = rand(n, 0.05, 0.4).view(n, 1, 1, 1)
        x[sh] = x[sh] + torch.sigmoid(dist / soft) * rand(n, 0.2, 0.9).view(n, 1, 1, 1)

    # Contrast and gamma, then sensor noise. Kept mild: normalize_cell already stretches ink to
    # ≈1, and faint strokes are what rubbed-out digits (labelled empty) look like.
    gamma = torch.exp(rand(b, -0.2, 0.25)).view(b, 1, 1, 1)
    x = x.clamp(0, 1) ** gamma * rand(b, 0.9, 1.1).view(b, 1, 1, 1)
    x = x + torch.randn_like(x) * rand(b, 0, 0.04).view(b, 1, 1, 1)
    return x.clamp(0, 1)


def pencil_composites(x, y, k, share, handwritten_share=0.0):
    """Turns about `share` of the batch into pencil-mark cells (class 10) made of 1-3 real
    digit cells of the batch shrunk to 38-55 % and set side by side from the top-left, as
    candidates are written (sometimes large, in pen). Each small digit is drawn from the
    batch's handwritten digits with probability `handwritten_share` (where it has any):
    candidates are handwritten, and small print looks unlike them."""
    digits = torch.nonzero((y >= 1) & (y <= 9)).flatten()
    # Handwritten digits are looked up only when asked for (every batch pays for it).
    hand = torch.nonzero((y >= 1) & (y <= 9) & (k == 2)).flatten() if handwritten_share > 0 else digits[:0]
    targets = torch.nonzero(torch.rand(len(y)) < share).flatten()
    if len(digits) == 0 or len(targets) == 0:
        return x, y, k
    x, y, k = x.clone(), y.clone(), k.clone()
    for t in targets.tolist():
        count = int(np.random.choice([1, 2, 2, 3, 3, 4]))
        scale = np.random.uniform(0.38, 0.55)
        size = max(8, int(round(SIDE * scale)))
        step = int(round(size * np.random.uniform(0.5, 0.75)))
        per_row = max(1, (SIDE - size) // max(1, step) + 1)
        x0, y0 = np.random.randint(0, 5), np.random.randint(0, 5)
        canvas = torch.zeros(1, SIDE, SIDE)
        for j in range(count):
            # The digit without the grid-line remnants at the cell's edges.
            pool = hand if len(hand) and np.random.rand() < handwritten_share else digits
            src = F.pad(x[pool[np.random.randint(len(pool))]][:, 4:-4, 4:-4], (4, 4, 4, 4))
            small = F.interpolate(src.unsqueeze(0), size=(size, size), mode="bilinear", align_corners=False)[0]
            cx = x0 + (j % per_row) * step
            cy = y0 + (j // per_row) * int(size * 0.75)
            if cx + size > SIDE or cy + size > SIDE:
                break
            canvas[:, cy : cy + size, cx : cx + size] = torch.maximum(canvas[:, cy : cy + size, cx : cx + size], small)
        x[t] = canvas
        y[t] = PENCIL
        k[t] = 0
    return x, y, k


def answers_over_pencil(x, y, k, share):
    """Lays the pencil marks of a pencil-mark cell of the batch (at 40-100 % of their ink)
    over about `share` of the batch's handwritten digit cells, which keep their digit: a
    solver writes the answer over the candidates, and such a cell is a digit, not pencil
    marks. Falls back to any digit cell when the batch has no handwritten one."""
    pencil = torch.nonzero(y == PENCIL).flatten()
    hand = (y >= 1) & (y <= 9) & (k == 2)
    if not hand.any():
        hand = (y >= 1) & (y <= 9)
    targets = torch.nonzero(hand & (torch.rand(len(y)) < share)).flatten()
    if len(pencil) == 0 or len(targets) == 0:
        return x
    x = x.clone()
    pick = pencil[torch.randint(len(pencil), (len(targets),))]
    marks = x[pick] * rand(len(targets), 0.4, 1.0).view(-1, 1, 1, 1)
    x[targets] = torch.maximum(x[targets], marks)
    return x


def ghost_composites(x, y, share):
    """Lays a faint copy (12-45 % ink) of a real digit of the batch over about `share` of the
    batch's empty cells, which stay empty: rubbed-out digits are labelled empty, and after
    normalize_cell real digits almost always reach ≥ 0.66 while such ghosts stay below ~0.5."""
    digits = torch.nonzero((y >= 1) & (y <= 9)).flatten()
    targets = torch.nonzero((y == 0) & (torch.rand(len(y)) < share)).flatten()
    if len(digits) == 0 or len(targets) == 0:
        return x
    x = x.clone()
    pick = digits[torch.randint(len(digits), (len(targets),))]
    ghost = F.pad(x[pick][:, :, 4:-4, 4:-4], (4, 4, 4, 4)) * rand(len(targets), 0.12, 0.45).view(-1, 1, 1, 1)
    x[targets] = torch.maximum(x[targets], ghost)
    return x


# ---------------------------------------------------------------------------------------------
# Training


def value_of(c):
    """Class → solving value (pencil marks count as empty)."""
    return np.where(c == PENCIL, 0, c)


@torch.no_grad()
def predict(model, x, idx):
    """Arg max class and arg max writing (0 printed, 1 handwritten) of the cells `idx`."""
    model.eval()
    out, kinds = [], []
    for i in range(0, len(idx), 2048):
        xb = torch.from_numpy(x[idx[i : i + 2048]]).float().div_(255.0).unsqueeze(1)
        logits, kind = model(xb)
        out.append(logits.argmax(1).numpy())
        kinds.append(kind.argmax(1).numpy())
    if not out:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(out), np.concatenate(kinds)


def held_out_report(model, x, y, k, src, held_idx):
    """Accuracy (solving value, pencil = empty) on held-out cells by cut kind, confusions, and
    printed/handwritten accuracy on digit cells of known writing."""
    if len(held_idx) == 0:
        return {}
    pred, pred_kind = predict(model, x, held_idx)
    truth = y[held_idx]
    kinds = np.array([s.split("/")[2] if s.count("/") >= 3 else "?" for s in src[held_idx]])
    sets = np.array([s.split("/")[0] for s in src[held_idx]])
    ok = value_of(pred) == value_of(truth)
    rep = {"cells": int(len(held_idx)), "value_accuracy": float(ok.mean()), "class_accuracy": float((pred == truth).mean())}
    for cut in sorted(set(kinds)):
        rep[f"value_accuracy_{cut}"] = float(ok[kinds == cut].mean())
    for s in sorted(set(sets)):
        m = sets == s
        rep[f"value_accuracy_{s}"] = float(ok[m].mean())
        rep[f"errors_{s}"] = int((~ok[m]).sum())
    known = k[held_idx] > 0
    if known.any():
        kind_ok = pred_kind[known] == (k[held_idx][known] - 1)
        rep["kind_cells"] = int(known.sum())
        rep["kind_accuracy"] = float(kind_ok.mean())
        for s_ in sorted(set(sets[known])):
            m = sets[known] == s_
            rep[f"kind_accuracy_{s_}"] = float(kind_ok[m].mean())
    conf = collections.Counter(
        f"{int(t)}->{int(p)}" for t, p in zip(value_of(truth)[~ok], value_of(pred)[~ok])
    )
    rep["confusions"] = dict(conf.most_common(20))
    return rep


class Ema:
    """Exponential moving average of the weights (and BN statistics), used for evaluation."""

    def __init__(self, model, decay):
        import copy

        self.model = copy.deepcopy(model)
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        for e, p in zip(self.model.state_dict().values(), model.state_dict().values()):
            if e.dtype.is_floating_point:
                e.mul_(self.decay).add_(p, alpha=1 - self.decay)
            else:
                e.copy_(p)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", nargs="+", required=True)
    ap.add_argument("--out", default="models/digits.onnx")
    ap.add_argument("--arch", default="patch24", choices=sorted(ARCHS))
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--epoch-size", type=int, default=100_000, help="cells drawn (weighted) per epoch")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=4e-3)
    ap.add_argument("--label-smoothing", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--holdout-groups", type=float, default=0.1, help="share of wichtounet photos held out")
    ap.add_argument("--holdout-kubiesa", type=int, default=5, help="earliest kubiesa puzzles held out")
    ap.add_argument("--hold-webcam-with-photo", action="store_true",
                    help="hold a photo's webcam frames out with it (a fold of unseen photos)")
    ap.add_argument("--empty-weight", type=float, default=0.35, help="sampling weight of class-0 cells")
    ap.add_argument("--kubiesa-weight", type=float, default=2.0)
    ap.add_argument("--synthetic-weight", type=float, default=0.7)
    ap.add_argument("--inky-empty-weight", type=float, default=4.0, help="extra weight of empties with ink")
    ap.add_argument("--set-weight", action="append", default=[], metavar="PREFIX=W",
                    help="sampling weight of cells whose source starts with PREFIX (repeatable)")
    ap.add_argument("--no-augment", action="store_true")
    ap.add_argument("--ghosts", type=float, default=0.05, help="share of empty cells given a faint digit")
    ap.add_argument("--pencil-composites", type=float, default=0.03, help="share of each batch made pencil cells")
    ap.add_argument("--answers-over-pencil", type=float, default=0.0,
                    help="share of handwritten digit cells given a pencil-mark cell's marks, keeping the digit")
    ap.add_argument("--pencil-handwritten", type=float, default=0.0,
                    help="share of a pencil composite's digits drawn from handwritten cells")
    ap.add_argument("--kind-weight", type=float, default=0.5, help="weight of the printed/handwritten loss")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--init", default=None, metavar="ONNX",
                    help="start from this exported model's weights (same arch; batch norms frozen)")
    ap.add_argument("--init-report", default=None, metavar="JSON",
                    help="report.json of --init: hold out exactly its held-out groups")
    ap.add_argument("--keep-init-temperature", action="store_true",
                    help="export at --init-report's temperature instead of the one fitted here")
    ap.add_argument("--fixtures", default=None, help="write fixture crops + probabilities here")
    ap.add_argument("--fixture-count", type=int, default=44)
    ap.add_argument("--report", default=None)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)

    if args.keep_init_temperature and not args.init_report:
        ap.error("--keep-init-temperature needs --init-report")
    keep_held = kept_temperature = None
    if args.init_report:
        with open(args.init_report) as f:
            init_report = json.load(f)
        keep_held = set(init_report["held_out_groups"])
        if args.keep_init_temperature:
            # Checked before training, not after it.
            kept_temperature = (init_report.get("calibration") or {}).get("temperature")
            if kept_temperature is None:
                raise SystemExit(f"{args.init_report}: no calibration temperature to keep")
    x, y, k, src = load(args.data)
    train_mask, held_mask, held_groups = split(src, args.holdout_groups, args.holdout_kubiesa, args.seed, keep_held,
                                                 args.hold_webcam_with_photo)
    train_idx, held_idx = np.nonzero(train_mask)[0], np.nonzero(held_mask)[0]
    print(f"held out {len(held_groups)} groups ({len(held_idx)} cells): {held_groups}")
    w = sample_weights(x[train_idx], y[train_idx], src[train_idx], args.empty_weight, args.kubiesa_weight,
                       args.synthetic_weight, args.inky_empty_weight,
                       [(k, float(v)) for k, v in (sw.split("=", 1) for sw in args.set_weight)])

    model = DigitNet(args.arch, args.hidden)
    if args.init:
        init_from_onnx(model, args.init)
    params = sum(p.numel() for p in model.parameters())
    macs = macs_per_cell(model)
    print(f"model {args.arch}: {params} parameters, {macs} MAC per cell; train pool {len(train_idx)}")
    ema = Ema(model, 0.998)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    steps_per_epoch = args.epoch_size // args.batch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.epochs * steps_per_epoch)
    xt = torch.from_numpy(x)
    yt = torch.from_numpy(y.astype(np.int64))
    kt = torch.from_numpy(k.astype(np.int64))
    t0 = time.time()
    history = []
    for epoch in range(args.epochs):
        model.train()
        if args.init:
            freeze_bn(model)
        draw = np.random.choice(train_idx, size=steps_per_epoch * args.batch, p=w)
        loss_sum, correct = 0.0, 0
        for s in range(steps_per_epoch):
            idx = torch.from_numpy(draw[s * args.batch : (s + 1) * args.batch])
            xb = xt[idx].float().div_(255.0).unsqueeze(1)
            yb = yt[idx]
            kb = kt[idx]
            if args.ghosts > 0:
                xb = ghost_composites(xb, yb, args.ghosts)
            if args.pencil_composites > 0:
                xb, yb, kb = pencil_composites(xb, yb, kb, args.pencil_composites, args.pencil_handwritten)
            if args.answers_over_pencil > 0:
                xb = answers_over_pencil(xb, yb, kb, args.answers_over_pencil)
            if not args.no_augment:
                xb = augment(xb)
            logits, kind = model(xb)
            loss = F.cross_entropy(logits, yb, label_smoothing=args.label_smoothing)
            known = (kb > 0) & (yb >= 1) & (yb <= 9)
            if known.any():
                loss = loss + args.kind_weight * F.cross_entropy(
                    kind[known], kb[known] - 1, label_smoothing=args.label_smoothing)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            ema.update(model)
            loss_sum += loss.item()
            correct += (logits.argmax(1) == yb).sum().item()
        rep = held_out_report(ema.model, x, y, k, src, held_idx)
        history.append({"epoch": epoch + 1, "loss": loss_sum / steps_per_epoch, **{k: v for k, v in rep.items() if k != "confusions"}})
        print(f"epoch {epoch + 1}/{args.epochs}: loss {loss_sum / steps_per_epoch:.4f} "
              f"train acc {correct / (steps_per_epoch * args.batch):.4f} held-out "
              f"{json.dumps({k: (round(v, 5) if isinstance(v, float) else v) for k, v in rep.items()})} "
              f"({time.time() - t0:.0f}s)", flush=True)

    final = ema.model.eval()
    rep = held_out_report(final, x, y, k, src, held_idx)
    calibration = kind_calibration = None
    if len(held_idx):
        logits, kind_logits = held_logits(final, x, held_idx)
        temperature = fitted = fit_temperature(logits, y[held_idx])
        if kept_temperature is not None:
            # The reader's thresholds (the doubt flag, the second opinion, the puzzle's prior)
            # were set on the init model's confidences: a fine-tune keeps their scale.
            temperature = kept_temperature
        calibration = calibration_report(logits, y[held_idx], temperature)
        calibration["fitted_temperature"] = fitted
        print(f"calibration: {json.dumps(calibration)}")
        known = (k[held_idx] > 0) & (y[held_idx] >= 1) & (y[held_idx] <= 9)
        kind_temperature = 1.0
        if known.any():
            kind_truth = k[held_idx][known].astype(np.int64) - 1
            kind_temperature = fit_temperature(kind_logits[known], kind_truth)
            p = F.softmax(kind_logits[known] / kind_temperature, dim=1).numpy()
            kind_calibration = {
                "temperature": kind_temperature,
                "cells": int(known.sum()),
                "accuracy": float((p.argmax(1) == kind_truth).mean()),
                "unsure_share": float((p.max(1) < 0.9).mean()),
            }
            print(f"kind calibration: {json.dumps(kind_calibration)}")
        final = Scaled(final, temperature, kind_temperature).eval()
    # --kind-weight 0 trains digits only: the untrained kind head is not exported.
    export(final, args.out, kind=args.kind_weight > 0)
    report = {
        "arch": args.arch,
        "parameters": params,
        "mac_per_cell": macs,
        "args": vars(args),
        "train_pool_cells": int(len(train_idx)),
        "held_out_groups": held_groups,
        "held_out": rep,
        "calibration": calibration,
        "kind_calibration": kind_calibration,
        "seconds": round(time.time() - t0, 1),
        "history": history,
    }
    print(json.dumps(rep))
    if args.report:
        with open(args.report, "w") as f:
            json.dump(report, f, indent=1)
    if args.fixtures:
        pool = held_idx if len(held_idx) else train_idx
        write_fixtures(final, x, y, k, pool, args.fixtures, args.fixture_count, args.seed,
                       with_kind=args.kind_weight > 0)


class Scaled(nn.Module):
    """The model with both outputs' logits divided by fitted temperatures (calibrated
    probabilities)."""

    def __init__(self, model, temperature, kind_temperature=1.0):
        super().__init__()
        self.model = model
        self.register_buffer("inv_t", torch.tensor(1.0 / temperature))
        self.register_buffer("inv_kind_t", torch.tensor(1.0 / kind_temperature))

    def forward(self, x):
        logits, kind = self.model(x)
        return logits * self.inv_t, kind * self.inv_kind_t


@torch.no_grad()
def held_logits(model, x, idx):
    """Class logits [n,11] and writing logits [n,2] of the cells `idx`."""
    model.eval()
    out, kinds = [], []
    for i in range(0, len(idx), 2048):
        xb = torch.from_numpy(x[idx[i : i + 2048]]).float().div_(255.0).unsqueeze(1)
        logits, kind = model(xb)
        out.append(logits)
        kinds.append(kind)
    if not out:
        return torch.zeros(0, NUM_CLASSES), torch.zeros(0, KINDS)
    return torch.cat(out), torch.cat(kinds)


def fit_temperature(logits, y):
    """Temperature minimising the held-out negative log-likelihood (Guo et al. 2017): label
    smoothing caps training confidence near 0.95, so raw softmax under-states how sure a
    right answer is; one scalar fixes the scale without changing any arg max."""
    yt = torch.from_numpy(y.astype(np.int64))
    best = (float("inf"), 1.0)
    for t in np.exp(np.linspace(np.log(0.2), np.log(3.0), 121)):
        nll = F.cross_entropy(logits / float(t), yt).item()
        best = min(best, (nll, float(t)))
    return best[1]


def calibration_report(logits, y, temperature):
    """Reliability of the calibrated confidence on held-out cells (solving values), and the
    share of right / wrong readings below a few confidence thresholds."""
    p = F.softmax(logits / temperature, dim=1).numpy()
    pred = p.argmax(1)
    conf = p.max(1)
    ok = value_of(pred) == value_of(y)
    bins = [0, 0.5, 0.7, 0.9, 0.97, 0.99, 0.999, 1.0001]
    table = []
    for lo, hi in zip(bins[:-1], bins[1:]):
        m = (conf >= lo) & (conf < hi)
        table.append({"lo": lo, "hi": min(hi, 1.0), "cells": int(m.sum()), "accuracy": float(ok[m].mean()) if m.any() else None})
    flags = {}
    for tau in [0.5, 0.7, 0.8, 0.9, 0.95, 0.97, 0.99]:
        flags[str(tau)] = {
            "flagged_correct_share": float((conf[ok] < tau).mean()) if ok.any() else None,
            "flagged_wrong_share": float((conf[~ok] < tau).mean()) if (~ok).any() else None,
        }
    return {"temperature": temperature, "reliability": table, "flags": flags}


class LogitsOnly(nn.Module):
    """The model without its `kind` output (exported when the kind head was not trained)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)[0]


def export(model, path, kind=True):
    """ONNX export in eval mode: torch folds each BatchNorm into the convolution before it.
    Without `kind` only the `logits` output is written."""
    model.eval()
    dummy = torch.zeros(81, 1, SIDE, SIDE)
    names = ["logits", "kind"] if kind else ["logits"]
    torch.onnx.export(
        model if kind else LogitsOnly(model), (dummy,), path, input_names=["cells"],
        output_names=names, dynamic_axes={"cells": {0: "batch"}, **{n: {0: "batch"} for n in names}},
        opset_version=17, dynamo=False,
    )
    import onnx

    m = onnx.load(path)
    onnx.checker.check_model(m)
    ops = [n.op_type for n in m.graph.node]
    assert "BatchNormalization" not in ops, ops
    print(f"wrote {path} ({os.path.getsize(path)} bytes, opset {m.opset_import[0].version}, ops {ops})")


@torch.no_grad()
def write_fixtures(model, x, y, k, pool, out_dir, count, seed, with_kind=True):
    """Picks `count` crops from `pool` (held-out cells when there are any), 4 per class where
    possible (for digits two printed and two handwritten), and stores them with the PyTorch
    probabilities: digit_crops.u8 (count x 1024), digit_crops.json (labels, classes,
    probabilities and, with `with_kind`, handwritten probabilities)."""
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.default_rng(seed)
    pool = rng.permutation(pool)
    picked = []
    for c in range(NUM_CLASSES):
        of_class = pool[y[pool] == c]
        if 1 <= c <= 9:
            chosen = [int(i) for kind in (1, 2) for i in of_class[k[of_class] == kind][:2]]
            chosen += [int(i) for i in of_class if int(i) not in chosen][: 4 - len(chosen)]
        else:
            chosen = [int(i) for i in of_class[:4]]
        picked += chosen
    picked = picked[:count]
    crops = x[picked]
    crops.tofile(os.path.join(out_dir, "digit_crops.u8"))
    model.eval()
    logits, kind = model(torch.from_numpy(crops).float().div(255.0).unsqueeze(1))
    probs = F.softmax(logits, dim=1).numpy()
    fixture = {
        "labels": [int(y[i]) for i in picked],
        "classes": [int(p.argmax()) for p in probs],
        "probabilities": [[round(float(v), 6) for v in p] for p in probs],
    }
    if with_kind:
        handwritten = F.softmax(kind, dim=1)[:, 1].numpy()
        fixture["handwritten"] = [round(float(v), 6) for v in handwritten]
    with open(os.path.join(out_dir, "digit_crops.json"), "w") as f:
        json.dump(fixture, f)
    print(f"wrote {len(picked)} fixture crops to {out_dir}")


if __name__ == "__main__":
    main()
