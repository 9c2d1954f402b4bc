"""Kernel parameters named like C functions of the generated code.

A parameter called `expf` in a kernel that uses tl.exp would, if its name
were kept, shadow the libm function inside the generated CUDA C (the
template of tl.exp is "expf(%0)") and the kernel would not compile or would
compute garbage.  The emitter renames every parameter whose name is a C or
CUDA word, one of its own names, or any function the op templates may call
(ctext_is_function); this runs such a kernel and checks its result."""
import numpy as np
import torch

import mytriton as triton
import mytriton.language as tl

from mtutil import stages


@triton.jit
def exp_param_kernel(expf, sqrtf, cosf, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(expf + offs)
    y = tl.sqrt(tl.load(sqrtf + offs))
    tl.store(out + offs, tl.exp(x) + y + tl.load(cosf + offs))


def test_param_named_like_template_function(device):
    x = torch.linspace(-2.0, 2.0, 64, dtype=torch.float32, device=device)
    y = torch.linspace(0.0, 9.0, 64, dtype=torch.float32, device=device)
    z = torch.full_like(x, 0.5)
    out = torch.full_like(x, float("nan"))
    exp_param_kernel[(1,)](x, y, z, out, BLOCK=64)
    want = np.exp(x.cpu().numpy()) + np.sqrt(y.cpu().numpy()) + 0.5
    np.testing.assert_allclose(out.cpu().numpy(), want, rtol=1e-6, atol=0)


def test_param_names_renamed_in_cuda_text():
    x = torch.zeros(64, dtype=torch.float32)
    cuda = stages(exp_param_kernel, x, x, x, x, BLOCK=64)["cuda"]
    assert "mt_p0_expf" in cuda and "mt_p1_sqrtf" in cuda
    assert "mt_p2_cosf" in cuda  # a function ctext_is_function knows
    assert "expf(" in cuda and "sqrtf(" in cuda
