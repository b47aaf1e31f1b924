#!/usr/bin/env python3
"""Train the sudoku-lens digit CNN and export it to ONNX.

Input: one or more folders written by `sudoku-lens dataset` (cells.u8: N x 32 x 32 bytes,
value = normalized ink * 255 exactly as `vision::normalize_cell` produced it; labels.u8: N
bytes, classes 0 empty, 1-9 digits, 10 pencil marks).
Output: an ONNX model (opset 17, input "cells" [N,1,32,32] f32, output "logits" [N,11]),
plus a JSON report of the held-out accuracy, and (optionally) fixture crops with the
PyTorch probabilities so the Rust test can check that tract agrees.

See models/README.md for the exact commands.
"""
import argparse
import json
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

NUM_CLASSES = 11
SIDE = 32


class DigitNet(nn.Module):
    """Three conv blocks (12/24/48 channels, 3x3, BN, ReLU, 2x2 max-pool) and a 2-layer head."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 12, 3, padding=1, bias=False), nn.BatchNorm2d(12), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(12, 24, 3, padding=1, bias=False), nn.BatchNorm2d(24), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(24, 48, 3, padding=1, bias=False), nn.BatchNorm2d(48), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.head = nn.Sequential(
            nn.Flatten(), nn.Dropout(0.25), nn.Linear(48 * 4 * 4, 64), nn.ReLU(), nn.Linear(64, NUM_CLASSES)
        )

    def forward(self, x):
        return self.head(self.features(x))


def load(dirs):
    xs, ys, srcs = [], [], []
    for d in dirs:
        x = np.fromfile(os.path.join(d, "cells.u8"), dtype=np.uint8)
        y = np.fromfile(os.path.join(d, "labels.u8"), dtype=np.uint8)
        x = x.reshape(-1, SIDE, SIDE)
        assert len(x) == len(y), f"{d}: {len(x)} cells but {len(y)} labels"
        xs.append(x)
        ys.append(y)
        srcs.append(np.full(len(y), len(srcs), dtype=np.int32))
        print(f"{d}: {len(y)} cells, per class {np.bincount(y, minlength=NUM_CLASSES).tolist()}")
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(srcs)


def augment(x):
    """Small random shifts (up to 2 px) and contrast jitter on a float batch [B,1,32,32]."""
    b = x.shape[0]
    dx, dy = np.random.randint(-2, 3, size=2)
    if dx or dy:
        x = torch.roll(x, shifts=(int(dy), int(dx)), dims=(2, 3))
    scale = torch.empty(b, 1, 1, 1).uniform_(0.8, 1.1)
    return (x * scale).clamp(0, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", nargs="+", required=True)
    ap.add_argument("--out", default="models/digits.onnx")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--holdout", type=float, default=0.05)
    ap.add_argument("--fixtures", default=None, help="write N fixture crops + probabilities here")
    ap.add_argument("--fixture-count", type=int, default=44)
    ap.add_argument("--report", default=None)
    ap.add_argument("--empty-keep", type=float, default=1.0, help="keep this share of class-0 cells")
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))

    x, y, src = load(args.data)
    if args.empty_keep < 1.0:
        keep = (y != 0) | (np.random.rand(len(y)) < args.empty_keep)
        x, y, src = x[keep], y[keep], src[keep]
        print(f"kept {len(y)} cells ({args.empty_keep:.0%} of empties)")
    n = len(y)
    perm = np.random.permutation(n)
    n_hold = int(n * args.holdout)
    hold, train = perm[:n_hold], perm[n_hold:]
    xt = torch.from_numpy(x).float().div_(255.0).unsqueeze(1)
    yt = torch.from_numpy(y.astype(np.int64))

    model = DigitNet()
    params = sum(p.numel() for p in model.parameters())
    print(f"model parameters: {params}; train {len(train)}, held out {len(hold)}")
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * ((len(train) + args.batch - 1) // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps)
    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        np.random.shuffle(train)
        total, correct, loss_sum = 0, 0, 0.0
        for step, i in enumerate(range(0, len(train), args.batch)):
            if step % 50 == 0:
                print(f"  step {step} ({time.time() - t0:.0f}s)", flush=True)
            idx = torch.from_numpy(train[i : i + args.batch])
            xb, yb = augment(xt[idx]), yt[idx]
            logits = model(xb)
            loss = F.cross_entropy(logits, yb, label_smoothing=0.02)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            loss_sum += loss.item() * len(idx)
            correct += (logits.argmax(1) == yb).sum().item()
            total += len(idx)
        acc = evaluate(model, xt, yt, hold)
        print(f"epoch {epoch + 1}/{args.epochs}: loss {loss_sum / total:.4f} train acc {correct / total:.4f} "
              f"held-out acc {acc:.4f} ({time.time() - t0:.0f}s)", flush=True)

    model.eval()
    held_acc = evaluate(model, xt, yt, hold)
    export(model, args.out)
    report = {
        "parameters": params,
        "train_cells": int(len(train)),
        "held_out_cells": int(n_hold),
        "held_out_accuracy": held_acc,
        "epochs": args.epochs,
        "seconds": round(time.time() - t0, 1),
        "per_dataset_cells": [int((src == i).sum()) for i in range(len(args.data))],
    }
    print(json.dumps(report))
    if args.report:
        with open(args.report, "w") as f:
            json.dump(report, f, indent=1)
    if args.fixtures:
        write_fixtures(model, x, y, hold, args.fixtures, args.fixture_count)


@torch.no_grad()
def evaluate(model, xt, yt, idx):
    if len(idx) == 0:
        return float("nan")
    model.eval()
    correct = 0
    for i in range(0, len(idx), 1024):
        j = torch.from_numpy(idx[i : i + 1024])
        correct += (model(xt[j]).argmax(1) == yt[j]).sum().item()
    return correct / len(idx)


def export(model, path):
    model.eval()
    dummy = torch.zeros(81, 1, SIDE, SIDE)
    torch.onnx.export(
        model, (dummy,), path, input_names=["cells"], output_names=["logits"],
        dynamic_axes={"cells": {0: "batch"}, "logits": {0: "batch"}}, opset_version=17, dynamo=False,
    )
    import onnx
    m = onnx.load(path)
    onnx.checker.check_model(m)
    print(f"wrote {path} ({os.path.getsize(path)} bytes, opset {m.opset_import[0].version})")


@torch.no_grad()
def write_fixtures(model, x, y, hold, out_dir, count):
    """Picks `count` held-out crops, 4 per class where possible, and stores them with the
    PyTorch probabilities: crops.u8 (count x 1024), fixture.json (labels, classes, probs)."""
    os.makedirs(out_dir, exist_ok=True)
    picked = []
    for c in range(NUM_CLASSES):
        picked += [int(i) for i in hold if y[i] == c][:4]
    picked = picked[:count]
    crops = x[picked]
    crops.tofile(os.path.join(out_dir, "digit_crops.u8"))
    probs = F.softmax(model(torch.from_numpy(crops).float().div(255.0).unsqueeze(1)), dim=1).numpy()
    with open(os.path.join(out_dir, "digit_crops.json"), "w") as f:
        json.dump({
            "labels": [int(y[i]) for i in picked],
            "classes": [int(p.argmax()) for p in probs],
            "probabilities": [[round(float(v), 6) for v in p] for p in probs],
        }, f)
    print(f"wrote {len(picked)} fixture crops to {out_dir}")


if __name__ == "__main__":
    main()
