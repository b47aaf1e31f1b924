#!/usr/bin/env python3
"""Accuracy of an ONNX digit model on cells exported by `sudoku-lens dataset`.

Reports, per data set and cut kind (gt = along the ground-truth corners, jitter, detector):
cell accuracy by solving value (pencil marks count as empty, as in `sudoku-lens eval`),
digit and empty accuracy, boards whose 81 cells are all right, and the commonest confusions
("truth->read" in solving values). Runs the model with ONNX Runtime (tract agrees to ~1e-6,
see tests/digits_model.rs).

For the validation set, export it only to measure (never to train or to choose settings):

    sudoku-lens dataset --out /tmp/cells-val --photos shared/datasets/kubiesa-val \
        --allow-validation --jitter-copies 0 --no-detector
    python models/train/evaluate.py --model models/digits.onnx --data /tmp/cells-val
"""
import argparse
import collections
import csv
import json
import os

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--kind", default=None, help="only cells of this cut kind (gt, jitter, detector)")
    ap.add_argument("--match", nargs="*", default=None, help="only cells whose source contains one of these")
    ap.add_argument("--errors", type=int, default=0, help="list this many wrong cells")
    args = ap.parse_args()

    import onnxruntime as ort

    x = np.fromfile(os.path.join(args.data, "cells.u8"), dtype=np.uint8).reshape(-1, 1, 32, 32)
    y = np.fromfile(os.path.join(args.data, "labels.u8"), dtype=np.uint8)
    with open(os.path.join(args.data, "meta.csv")) as f:
        src = np.array([row[2] for row in csv.reader(f)][1:])
    if args.match:
        keep = np.array([any(m in s for m in args.match) for s in src])
        x, y, src = x[keep], y[keep], src[keep]
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    sess = ort.InferenceSession(args.model, opts, providers=["CPUExecutionProvider"])
    pred = np.concatenate([
        sess.run(None, {"cells": x[i : i + 4096].astype(np.float32) / 255.0})[0].argmax(1)
        for i in range(0, len(y), 4096)
    ])
    value = lambda c: np.where(c == 10, 0, c)
    parts = [s.split("/") for s in src]
    sets = np.array([p[0] for p in parts])
    kinds = np.array([p[2] if len(p) > 3 else "synthetic" for p in parts])
    boards = np.array(["/".join(p[:3]) + (f"#{i // 81}" if p[2] == "jitter" else "") for i, p in enumerate(parts)])
    ok = value(pred) == value(y)
    report = {}
    for s in sorted(set(sets)):
        for k in sorted(set(kinds[sets == s])):
            if args.kind and k != args.kind:
                continue
            m = (sets == s) & (kinds == k)
            digit = m & (value(y) > 0)
            empty = m & (value(y) == 0)
            per_board = collections.defaultdict(lambda: True)
            for b, good in zip(boards[m], ok[m]):
                per_board[b] &= bool(good)
            conf = collections.Counter(f"{int(t)}->{int(p)}" for t, p in zip(value(y[m & ~ok]), value(pred[m & ~ok])))
            report[f"{s}/{k}"] = {
                "cells": int(m.sum()),
                "cell_accuracy": round(float(ok[m].mean()), 5),
                "digit_accuracy": round(float(ok[digit].mean()), 5) if digit.any() else None,
                "empty_accuracy": round(float(ok[empty].mean()), 5) if empty.any() else None,
                "errors": int((~ok[m]).sum()),
                "boards": len(per_board),
                "boards_exact": round(sum(per_board.values()) / max(1, len(per_board)), 4),
                "confusions": dict(conf.most_common(15)),
            }
    print(json.dumps(report, indent=1))
    if args.errors:
        wrong = np.nonzero(ok == False)[0][: args.errors]  # noqa: E712
        for i in wrong:
            print(f"{src[i]}: truth {y[i]} read {pred[i]}")


if __name__ == "__main__":
    main()
