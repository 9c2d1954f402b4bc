"""triton.reinterpret: a tensor's memory passed as another element type
(unsigned and fp8 data through int8/int16 tensors, as Triton's own tests
pass it), no copy; errors for what cannot be reinterpreted."""
import pytest
import torch

import mytriton as triton
import mytriton.language as tl


@triton.jit
def widen_kernel(x, o, N: tl.constexpr):
    r = tl.arange(0, N)
    v = tl.load(x + r)
    tl.static_assert(v.dtype == tl.uint8)
    tl.store(o + r, v.to(tl.int32) + 1)


def test_int8_memory_as_uint8(device):
    x = torch.tensor([-1, 2, -128, 127], dtype=torch.int8, device=device)
    o = torch.zeros(4, dtype=torch.int32, device=device)
    w = triton.reinterpret(x, tl.uint8)
    assert isinstance(w, triton.TensorWrapper) and w.data_ptr() == x.data_ptr()
    widen_kernel[(1,)](w, o, N=4)
    assert o.tolist() == [256, 3, 129, 128]
    assert triton.reinterpret(w, torch.int8) is x  # back to the base's own dtype


@triton.jit
def store_kernel(o, N: tl.constexpr):
    r = tl.arange(0, N)
    tl.store(o + r, (r * 100).to(tl.uint16))


def test_stores_through_a_wrapper_reach_the_base(device):
    base = torch.zeros(8, dtype=torch.int16, device=device)
    store_kernel[(1,)](triton.reinterpret(base, tl.uint16), N=8)
    assert base.tolist() == [0, 100, 200, 300, 400, 500, 600, 700]


def test_errors():
    with pytest.raises(TypeError, match="cannot reinterpret a list"):
        triton.reinterpret([1, 2], tl.uint8)
    with pytest.raises(TypeError, match="cannot reinterpret a tensor as"):
        triton.reinterpret(torch.zeros(2), "uint8")
