"""Pointers as values (issue 9, tutorial 08's grouped GEMM): an int64 tensor
of addresses cast to pointers with x.to(tl.pointer_type(dtype)), pointers
to int64 and bool, and tl.where on a non-bool condition (cast to int1, as
Triton does)."""
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error, close, poisoned


@triton.jit
def gather_groups_kernel(ptrs, out, N: tl.constexpr):
    r = tl.arange(0, N)
    for g in range(2):
        p = tl.load(ptrs + g).to(tl.pointer_type(tl.float16))
        tl.store(out + g * N + r, tl.load(p + r).to(tl.float32))
    addr = out.to(tl.int64)
    tl.store(out + 2 * N + r, (addr != 0).to(tl.float32) + out.to(tl.int1).to(tl.float32))
    back = addr.to(tl.pointer_type(tl.float32))
    tl.store(back + 3 * N + r, tl.where(r % 2, 1.0, -1.0))


def test_addresses_become_pointers(device):
    a = torch.arange(8, dtype=torch.float16, device=device)
    b = -torch.arange(8, dtype=torch.float16, device=device)
    ptrs = torch.tensor([a.data_ptr(), b.data_ptr()], dtype=torch.int64, device=device)
    out = poisoned(device, 32)
    gather_groups_kernel[(1,)](ptrs, out, N=8)
    want = torch.cat([a.float().cpu(), b.float().cpu(), torch.full((8,), 2.0),
                      torch.tensor([-1.0, 1.0] * 4)])
    close(out, want, rtol=0, atol=0)


@triton.jit
def select_pointers_kernel(cond, a, b, out, N: tl.constexpr):
    r = tl.arange(0, N)
    pa = tl.load(a + r).to(tl.pi32_t)  # tl.pi32_t: pointer_type(int32)
    pb = tl.load(b + r).to(tl.pi32_t)
    # a block of pointers stored into int64: their addresses (test_where)
    tl.store(out + r, tl.where(tl.load(cond + r), pa, pb))


def test_pointer_blocks_store_as_int64(device):
    a = torch.arange(16, dtype=torch.int64, device=device) * 8 + 4096
    b = -torch.arange(16, dtype=torch.int64, device=device) * 8 + (1 << 40)
    cond = torch.arange(16, device=device) % 3 == 0
    out = torch.zeros(16, dtype=torch.int64, device=device)
    select_pointers_kernel[(1,)](cond, a, b, out, N=16)
    assert torch.equal(out.cpu(), torch.where(cond, a, b).cpu())


@triton.jit
def bad_pointer_cast_kernel(out, x):
    tl.store(out, out.to(tl.float32))


@triton.jit
def float_to_pointer_kernel(out, x):
    p = x.to(tl.pointer_type(tl.float32))
    tl.store(p, 1.0)


@triton.jit
def pointer_to_pointer_type_kernel(out, x):
    t = tl.pointer_type(tl.pointer_type(tl.float32))
    tl.store(out, x)


def test_pointer_cast_errors():
    zeros = torch.zeros(4)
    assert_compile_error(bad_pointer_cast_kernel, (zeros, 1.0), needle="out.to(tl.float32)",
                         pattern="a pointer casts only to int64, uint64 or bool")
    assert_compile_error(float_to_pointer_kernel, (zeros, 1.0), needle="x.to(",
                         pattern="cannot cast f32 to a pointer")
    assert_compile_error(pointer_to_pointer_type_kernel, (zeros, 1.0),
                         needle="tl.pointer_type(tl.pointer_type",
                         pattern="pointers to pointers are not supported")


@triton.jit
def method_forms_kernel(X, Z):
    r = tl.arange(0, 4)
    x = tl.load(X + r)
    (Z + r).store(x.cast(tl.int32) * 2)


def test_cast_and_store_as_tensor_methods(device):
    # Triton's tensor member functions: x.cast(dtype), ptr.store(value)
    z = torch.zeros(4, dtype=torch.int32, device=device)
    method_forms_kernel[(1,)](torch.tensor([1.5, 2.5, -3.7, 4.0], device=device), z)
    assert z.tolist() == [2, 4, -6, 8]


@triton.jit
def scalar_fill_kernel(out):
    x = tl.full((), 32, dtype=tl.int32)
    z = tl.zeros((), dtype=tl.float32)
    tl.static_assert(x.shape == () and z.shape == ())
    tl.store(out, x.to(tl.float32) + z + 1.0)


@triton.jit
def overflow_kernel(out):
    huge_int: tl.constexpr = 0xFFFFFFFFFFFFFF
    x = tl.full((), 32, dtype=tl.int32)
    tl.store(out, x + huge_int)


@triton.jit
def slice_kernel(dst):
    dst[10:]


def test_scalar_fills_and_messages_triton_matches(device):
    # tl.full((), ...) is a scalar, as in Triton; the messages test_core
    # matches ('out of range', 'unsupported tensor index')
    out = torch.zeros(1, device=device)
    scalar_fill_kernel[(1,)](out)
    assert out.item() == 33.0
    with pytest.raises(triton.CompilationError, match="out of range"):
        overflow_kernel.compile(out, stages_only=True)
    with pytest.raises(triton.CompilationError, match="unsupported tensor index"):
        slice_kernel.compile(out, stages_only=True)
