"""8.1: masked vector add."""
import re

import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import close, op_counts, ops, poisoned, stages, f32


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x + offs, mask=mask, other=0.0)
    b = tl.load(y + offs, mask=mask, other=0.0)
    tl.store(out + offs, a + b, mask=mask)


def test_add_kernel_codegen():
    n = 1000
    x, y, out = torch.zeros(n), torch.zeros(n), torch.zeros(n)
    seen = []

    def grid(meta):
        seen.append(dict(meta))
        return (triton.cdiv(n, meta["BLOCK"]),)

    add_kernel[grid](x, y, out, n, BLOCK=256)
    # as in Triton, the grid sees every argument by name
    assert len(seen) == 1 and list(seen[0]) == ["x", "y", "out", "n", "BLOCK"]
    assert seen[0]["BLOCK"] == 256 and seen[0]["n"] == n and seen[0]["out"] is out
    asm = stages(add_kernel, x, y, out, n, BLOCK=256)
    ssa = asm["ssa-opt"]
    assert op_counts(ssa) == {"program_id": 1, "mul": 1, "arange": 1, "add": 2,
                              "addptr": 3, "cmp_lt": 1, "load": 2, "store": 1}
    assert ops(ssa)[0] == "program_id" and ops(ssa)[-1] == "store"
    assert re.search(r"= mul %\d+, 256 : i32", ssa), ssa
    assert re.search(r"= arange \{start=0, end=256\} : vector<256 x i32>", ssa), ssa
    assert re.search(r"= cmp_lt %\d+, n : vector<256 x bool>", ssa), ssa
    assert re.search(r"= addptr x, %\d+ : vector<256 x ptr<f32>>", ssa), ssa
    assert re.search(r"= load %\d+, %\d+, 0.0 : vector<256 x f32>", ssa), ssa
    assert re.search(r"^store %\d+, %\d+, %\d+$", ssa, re.M), ssa
    cuda = asm["cuda"]
    assert "add_kernel" in cuda and "blockIdx.x" in cuda and "threadIdx.x" in cuda
    assert "__global__" in cuda


def test_add_kernel_execution(device):
    n = 1000
    x, y = f32(device, n, seed=1), f32(device, n, seed=2)
    out = poisoned(device, n)
    add_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out, n, BLOCK=256)
    close(out, x + y, rtol=1e-5, atol=1e-6)


def test_add_kernel_numpy_arrays():
    import numpy as np
    n = 1000
    rng = np.random.default_rng(0)
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    out = np.full(n, np.nan, dtype=np.float32)
    add_kernel[(triton.cdiv(n, 256),)](x, y, out, n, BLOCK=256)
    np.testing.assert_allclose(out, x + y, rtol=1e-5, atol=1e-6)
