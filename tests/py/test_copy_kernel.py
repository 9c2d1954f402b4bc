"""8.2: masked copy."""
import re

import mytriton as triton
import mytriton.language as tl
from mtutil import close, op_counts, poisoned, stages, f32


@triton.jit
def copy_kernel(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask), mask=mask)


def test_copy_kernel_codegen():
    import torch
    x, out = torch.zeros(1000), torch.zeros(1000)
    asm = stages(copy_kernel, x, out, 1000, BLOCK=256)
    ssa = asm["ssa-opt"]
    assert op_counts(ssa) == {"program_id": 1, "mul": 1, "arange": 1, "add": 1,
                              "addptr": 2, "cmp_lt": 1, "load": 1, "store": 1}
    # an omitted `other` loads as none (masked lanes undefined, as in Triton)
    assert re.search(r"= load %\d+, %\d+, (none|0\.0) : vector<256 x f32>", ssa), ssa
    assert "copy_kernel" in asm["cuda"]


def test_copy_kernel_execution(device):
    n = 1000
    x = f32(device, n, seed=3)
    out = poisoned(device, n)
    copy_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256)
    close(out, x, rtol=0, atol=0)
