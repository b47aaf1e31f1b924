#!/usr/bin/env python3
"""Writes the hostile digit-model fixtures of tests/digits_model.rs into tests/fixtures/.

Each is a tiny valid ONNX graph over the digit model's input `cells` [N,1,32,32]
(ir 8, opset 17): it loads, but its output is of no use, and the load check must say so.

    batch_one.onnx       [1,11] whatever the batch (a model exported with a fixed batch)
    nan_scores.onnx      [N,11] NaN
    inf_scores.onnx      [N,11] +inf
    constant_scores.onnx [N,11] the same scores for every cell
    kind_output.onnx     [N,11] scores that follow the ink, plus a second output `kind` [N,2]
                         (printed vs handwritten): a usable model
    bad_kind.onnx        like kind_output.onnx but `kind` is [N,3]

Needs the `onnx` package (e.g. ~/.venvs/sudoku-train). Deterministic: same files every run.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures")


def const(name, values):
    return numpy_helper.from_array(np.asarray(values, dtype=np.float32), name)


def model(name, nodes, outputs, initializers):
    cells = helper.make_tensor_value_info("cells", TensorProto.FLOAT, ["batch", 1, 32, 32])
    graph = helper.make_graph(nodes, name, [cells], outputs, initializers)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                          producer_name="sudoku-lens scripts/make_bad_models.py")
    m.ir_version = 8
    onnx.checker.check_model(m)
    path = os.path.join(OUT, f"{name}.onnx")
    onnx.save(m, path)
    print(path)


def ink_scores(out="logits"):
    """[N,11]: each cell's ink sum times a fixed row, plus a bias (varies with the input)."""
    return [
        helper.make_node("ReduceSum", ["cells", "axes"], ["ink"], keepdims=1),  # [N,1,1,1]
        helper.make_node("Flatten", ["ink"], ["ink2"], axis=1),  # [N,1]
        helper.make_node("MatMul", ["ink2", "row"], ["scaled"]),  # [N,11]
        helper.make_node("Add", ["scaled", "bias"], [out]),
    ], [
        numpy_helper.from_array(np.array([1, 2, 3], dtype=np.int64), "axes"),
        const("row", [np.linspace(-0.01, 0.01, 11)]),
        const("bias", np.linspace(0.0, 1.0, 11)),
    ]


def logits(shape):
    return helper.make_tensor_value_info("logits", TensorProto.FLOAT, shape)


def main():
    # [1,11] whatever the batch: the mean over the batch of the ink scores.
    nodes, inits = ink_scores("per_cell")
    nodes.append(helper.make_node("ReduceMean", ["per_cell"], ["logits"], axes=[0], keepdims=1))
    model("batch_one", nodes, [logits([1, 11])], inits)

    for name, value in [("nan_scores", np.nan), ("inf_scores", np.inf)]:
        nodes, inits = ink_scores("finite")
        nodes.append(helper.make_node("Add", ["finite", "poison"], ["logits"]))
        inits.append(const("poison", np.full(11, value)))
        model(name, nodes, [logits(["batch", 11])], inits)

    # The same scores for every cell: ink × 0 + bias.
    nodes, inits = ink_scores("varying")
    nodes += [
        helper.make_node("Mul", ["varying", "zero"], ["flat"]),
        helper.make_node("Add", ["flat", "bias2"], ["logits"]),
    ]
    inits += [const("zero", np.zeros(11)), const("bias2", np.linspace(1.0, 0.0, 11))]
    model("constant_scores", nodes, [logits(["batch", 11])], inits)

    for name, width in [("kind_output", 2), ("bad_kind", 3)]:
        nodes, inits = ink_scores()
        nodes.append(helper.make_node("MatMul", ["ink2", "kind_row"], ["kind"]))
        inits.append(const("kind_row", [np.linspace(0.001, 0.002, width)]))
        kind = helper.make_tensor_value_info("kind", TensorProto.FLOAT, ["batch", width])
        model(name, nodes, [logits(["batch", 11]), kind], inits)


if __name__ == "__main__":
    sys.exit(main())
