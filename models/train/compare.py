#!/usr/bin/env python3
"""Compares exported digit models on the held-out cells of a training run, offline.

The hold-out is `train.py`'s own split of the same `--data` folders: the groups of
`--init-report` (the model a fine-tune started from) stay held out, and sets that model never
had lose a seeded share of their groups, exactly as `train.py --init-report` draws them. Every
model is run on those cells with ONNX Runtime, and the errors (solving values: pencil marks
count as empty) are printed per set, with the commonest confusions.

This is arg max only. The reader's doubt flag, its second opinion and the puzzle's prior also
use each reading's confidence, so a model that wins here can still read fewer boards in
`sudoku-lens eval` (stop 55: a fine-tune at its own fitted temperature; models/README.md).

    python models/train/compare.py --data /tmp/cells/real /tmp/cells/generated-cells \\
        /tmp/cells/synth --init-report models/train/report.json models/digits.onnx cand.onnx
"""
import argparse
import collections
import json
import os
import sys

import numpy as np
import onnxruntime as ort

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train  # noqa: E402  (the split and the loaders of the training run)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="+", help="exported ONNX models (input cells, output logits)")
    ap.add_argument("--data", nargs="+", required=True, help="the training run's --data folders")
    ap.add_argument("--init-report", required=True, help="report.json whose held-out groups stay held out")
    ap.add_argument("--holdout-groups", type=float, default=0.05)
    ap.add_argument("--holdout-kubiesa", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--hold-webcam-with-photo", action="store_true")
    args = ap.parse_args()

    x, y, _, src = train.load(args.data)
    with open(args.init_report) as f:
        keep = set(json.load(f)["held_out_groups"])
    _, held, _ = train.split(src, args.holdout_groups, args.holdout_kubiesa, args.seed, keep,
                             args.hold_webcam_with_photo)
    idx = np.nonzero(held)[0]
    sets = np.array([s.split("/")[0] for s in src[idx]])
    truth = train.value_of(y[idx])
    for path in args.models:
        session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
        preds = []
        for i in range(0, len(idx), 4096):
            cells = x[idx[i : i + 4096]].astype(np.float32)[:, None] / 255.0
            preds.append(session.run(["logits"], {"cells": cells})[0].argmax(1))
        pred = train.value_of(np.concatenate(preds)) if preds else np.zeros(0, np.int64)
        ok = pred == truth
        per_set = {s: int((~ok[sets == s]).sum()) for s in sorted(set(sets))}
        confusions = collections.Counter(f"{int(t)}->{int(p)}" for t, p in zip(truth[~ok], pred[~ok]))
        print(json.dumps({"model": path, "cells": int(len(idx)), "errors": int((~ok).sum()),
                          "errors_per_set": per_set, "confusions": dict(confusions.most_common(8))}))


if __name__ == "__main__":
    main()
