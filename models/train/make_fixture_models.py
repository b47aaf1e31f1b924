#!/usr/bin/env python3
"""Writes the tiny ONNX models the model-loading tests use (tests/fixtures), seeded:

- `logits_only.onnx`: [N,1,32,32] -> "logits" [N,11] and no "kind" output (a model of the
  former kind: it must still load, with no handwriting probability);
- `wrong_kind_shape.onnx`: "logits" [N,11] and "kind" [N,3] (must be refused, naming "kind").

    python models/train/make_fixture_models.py --out tests/fixtures
"""
import argparse
import os

import torch
import torch.nn as nn


class Tiny(nn.Module):
    def __init__(self, kind_width):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 8, 8)
        self.logits = nn.Linear(32, 11)
        self.kind = nn.Linear(32, kind_width) if kind_width else None

    def forward(self, x):
        h = torch.flatten(torch.relu(self.conv(x)), 1)
        if self.kind is None:
            return self.logits(h)
        return self.logits(h), self.kind(h)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="tests/fixtures")
    a = ap.parse_args()
    torch.manual_seed(3)
    dummy = torch.zeros(2, 1, 32, 32)
    for name, width in [("logits_only.onnx", 0), ("wrong_kind_shape.onnx", 3)]:
        outputs = ["logits"] + (["kind"] if width else [])
        torch.onnx.export(
            Tiny(width).eval(), (dummy,), os.path.join(a.out, name), input_names=["cells"],
            output_names=outputs, dynamic_axes={n: {0: "batch"} for n in ["cells"] + outputs},
            opset_version=17, dynamo=False,
        )
        print(f"wrote {name}")


if __name__ == "__main__":
    main()
