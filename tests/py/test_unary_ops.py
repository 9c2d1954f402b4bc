"""Elementwise unary math functions: one line of UNARY each.

An elementwise function is one row in src/ops.def (its C template drives
both the emitted CUDA C and the constant folder) plus one row in the
elaborator's builtin table; its test is one line here.  For every function:
  - the run-time result over a block of samples matches NumPy in float32;
  - with a compile-time constant argument the op folds away, and the folded
    constant equals what the generated code computes at run time: bit for
    bit on the host backend (whose kernels call the same libm the folder
    does), within a few ulp on a GPU (whose math library differs).
"""
import importlib.util
import math
import os
import tempfile

import numpy as np
import pytest
import torch

from mtutil import stages

UNARY = [
    # (tl name, NumPy reference, samples inside the function's domain)
    ("exp", np.exp, [-3.0, -0.5, 0.0, 0.1, 1.0, 2.5, 10.0, 80.0]),
    ("log", np.log, [1e-3, 0.1, 0.5, 1.0, 2.0, 10.0, 1e6, 3e38]),
    ("sqrt", np.sqrt, [0.0, 1e-6, 0.25, 1.0, 2.0, 9.0, 1e10, 3e38]),
    ("abs", np.abs, [-3e38, -2.5, -0.0, 0.0, 1.0, 7.25, 1e-30, 3e38]),
    ("cos", np.cos, [-3.0, -1.0, -0.0, 0.0, 0.5, 1.0, 2.5, 100.0]),
    ("exp2", np.exp2, [-126.0, -3.5, -0.0, 0.0, 0.5, 1.0, 10.25, 127.0]),
    ("log2", np.log2, [1e-30, 0.1, 0.5, 1.0, 2.0, 3.0, 1024.0, 3e38]),
    ("rsqrt", lambda x: np.float32(1) / np.sqrt(x), [1e-30, 0.01, 0.25, 1.0, 2.0, 3.0, 1e6, 3e38]),
    ("erf", np.vectorize(math.erf, otypes=[np.float32]),
     [-4.0, -1.0, -0.25, -0.0, 0.0, 0.5, 1.5, 3.0]),
    ("floor", np.floor, [-2.5, -1.0, -0.5, -0.0, 0.0, 0.5, 1.5, 1e10]),
    ("ceil", np.ceil, [-2.5, -1.0, -0.5, -0.0, 0.0, 0.5, 1.5, 1e10]),
    ("sqrt_rn", np.sqrt, [0.0, 1e-6, 0.25, 1.0, 2.0, 9.0, 1e10, 3e38]),
    ("sigmoid", lambda x: np.float32(1) / (np.float32(1) + np.exp(-x)),
     [-20.0, -2.0, -0.5, 0.0, 0.5, 1.0, 3.0, 20.0]),
]

_SRC = """import mytriton as triton
import mytriton.language as tl


@triton.jit
def run_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.{name}(tl.load(x + offs)))


@triton.jit
def fold_kernel(out, V: tl.constexpr):
    tl.store(out, tl.{name}(V))
"""

_TMP = tempfile.mkdtemp(prefix="mt_unary_")


def _kernels(name):
    """run_kernel and fold_kernel for tl.<name>, from a real file (the jit
    reads kernel source through inspect)."""
    path = os.path.join(_TMP, f"unary_{name}.py")
    with open(path, "w") as f:
        f.write(_SRC.format(name=name))
    spec = importlib.util.spec_from_file_location(f"unary_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.run_kernel, mod.fold_kernel


def _folded(fold_kernel, out, v):
    """The constant the optimised SSA stores for tl.<name>(v), as float32
    (printed as the shortest repr that round-trips through float32)."""
    lines = stages(fold_kernel, out, v)["ssa-opt"].strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("store out, "), lines
    return np.float32(float(lines[0].split(", ")[1]))


@pytest.mark.parametrize("name,ref,samples", UNARY, ids=[u[0] for u in UNARY])
def test_unary(name, ref, samples, device):
    run_kernel, fold_kernel = _kernels(name)
    x = torch.tensor(samples, dtype=torch.float32, device=device)
    out = torch.full_like(x, float("nan"))
    run_kernel[(1,)](x, out, BLOCK=len(samples))
    got = out.cpu().numpy()
    want = ref(np.array(samples, dtype=np.float32))
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=0)
    one = torch.empty(1, dtype=torch.float32, device=device)
    folded = np.array([_folded(fold_kernel, one, v) for v in samples])
    if device == "cpu":
        assert folded.tobytes() == got.tobytes(), (folded, got)
    else:
        np.testing.assert_allclose(folded, got, rtol=1e-6, atol=0)
