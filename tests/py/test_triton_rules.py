"""Triton's rules that test_core.py found us missing (issue 17): a number a
kernel assigns is a tensor (`v = 1; v.dtype`), tl.dot's result type
(out_dtype is ignored for int8, float32 and bfloat16 operands, bfloat16 is
refused), xor_sum of bools, and x.abs() as a tensor method."""
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error


@triton.jit
def assigned_numbers_kernel(out, o2, o3, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    value = 1
    tl.store(out + offs, tl.full([BLOCK], value=value, dtype=value.dtype))
    v = float("-nan")
    tl.store(o2.to(tl.pointer_type(v.dtype)), v)
    w = 2**40
    tl.store(o3.to(tl.pointer_type(w.dtype)), w)


def test_assigned_numbers_have_a_dtype(device):
    a = torch.zeros(8, dtype=torch.int32, device=device)
    b = torch.zeros(1, device=device)
    c = torch.zeros(1, dtype=torch.int64, device=device)
    assigned_numbers_kernel[(1,)](a, b, c, BLOCK=8)
    assert a.tolist() == [1] * 8  # int32
    assert torch.isnan(b).all()  # float32
    assert c.item() == 2**40  # int64


@triton.jit
def dot_out_dtype_kernel(x, y, z, OUT: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, N)
    a = tl.load(x + r[:, None] * N + r[None, :])
    b = tl.load(y + r[:, None] * N + r[None, :])
    tl.store(z + r[:, None] * N + r[None, :], tl.dot(a, b, out_dtype=OUT))


@pytest.mark.parametrize("dt,out,want", [(torch.int8, tl.int8, torch.int32),
                                         (torch.float32, tl.float16, torch.float32),
                                         (torch.float16, tl.float16, torch.float16),
                                         (torch.float16, tl.float32, torch.float32)])
def test_dot_result_type_is_tritons(device, dt, out, want):
    """int8 gives int32 and float32 gives float32 whatever out_dtype says;
    float16 gives out_dtype (the stored values show the result type: a
    float16 result stored into float32 memory is converted by the store)."""
    N = 32
    x = (torch.arange(N * N) % 7 - 3).reshape(N, N).to(dt).to(device)
    z = torch.zeros((N, N), dtype=want, device=device)
    k = dot_out_dtype_kernel.warmup(x, x, z, OUT=out, N=N, grid=(1,))
    ssa = k.asm["ssa"]
    name = {torch.int32: "i32", torch.float32: "f32", torch.float16: "f16"}[want]
    assert f"block<32x32 x {name}>" in ssa.split("store")[-2].splitlines()[-1]
    dot_out_dtype_kernel[(1,)](x, x, z, OUT=out, N=N)
    ref = x.cpu().double() @ x.cpu().double()
    assert torch.equal(z.cpu().double(), ref)


def test_dot_bfloat16_out_dtype_is_refused():
    x = torch.zeros((32, 32), dtype=torch.float16)
    assert_compile_error(dot_out_dtype_kernel, (x, x, x), kwargs=dict(OUT=tl.bfloat16, N=32),
                         needle="out_dtype=OUT", pattern="out_dtype=bfloat16 is unsupported")


@triton.jit
def bool_xor_abs_kernel(x, out, N: tl.constexpr):
    r = tl.arange(0, N)
    v = tl.load(x + r)
    tl.store(out, tl.xor_sum(v > 0, axis=0).to(tl.int32))
    tl.store(out + 1, tl.sum(v.abs(), axis=0))


def test_xor_sum_of_bools_and_abs_method(device):
    x = torch.tensor([3, -1, 2, -5, 4, 0, 7, -2] * 4, dtype=torch.int32, device=device)
    out = torch.zeros(2, dtype=torch.int32, device=device)
    bool_xor_abs_kernel[(1,)](x, out, N=32)
    assert out.tolist() == [0, 96]  # 16 positives: xor is 0


@triton.jit
def f64_dot_kernel(x, y, z, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                   PREC: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(x + rm[:, None] * K + rk[None, :])
    b = tl.load(y + rk[:, None] * N + rn[None, :])
    acc = tl.load(z + rm[:, None] * N + rn[None, :])
    tl.store(z + rm[:, None] * N + rn[None, :], tl.dot(a, b, acc, input_precision=PREC))


@pytest.mark.parametrize("prec", ["ieee", "tf32"])
@pytest.mark.parametrize("M,N,K,warps", [(32, 32, 32, 4), (16, 64, 32, 2)])
def test_float64_dot(device, prec, M, N, K, warps):
    """float64 operands give a float64 product (Triton's result type), exact
    products on CUDA cores whatever the precision says."""
    torch.manual_seed(1)
    x = torch.randn(M, K, dtype=torch.float64, device=device)
    y = torch.randn(K, N, dtype=torch.float64, device=device)
    z = torch.randn(M, N, dtype=torch.float64, device=device)
    want = z.cpu() + x.cpu() @ y.cpu()
    f64_dot_kernel[(1,)](x, y, z, M=M, N=N, K=K, PREC=prec, num_warps=warps)
    assert torch.allclose(z.cpu(), want, rtol=1e-12, atol=1e-12)


@triton.jit
def add_rows_in_place_kernel(X, Y, Z, N: tl.constexpr):
    """Triton's test_dot add-rows epilogue: column 0 of Z read as row
    values, then all of Z overwritten with the result."""
    r = tl.arange(0, N)
    z = tl.dot(tl.load(X + r[:, None] * N + r[None, :]), tl.load(Y + r[:, None] * N + r[None, :]))
    z += tl.load(Z + r * N)[:, None]
    tl.store(Z + r[:, None] * N + r[None, :], z)


@pytest.mark.parametrize("dt", [torch.float16, torch.float32, torch.float64])
def test_store_over_what_other_threads_read(device, dt):
    """Every thread reads column 0 of the rows it holds; the store must not
    overwrite it before they have (the host runs threads one after another
    between barriers: it waits before such a store, as Triton's
    interpreter runs a block op by op)."""
    N = 32
    torch.manual_seed(3)
    x = torch.randn(N, N).to(dt)
    y = torch.randn(N, N).to(dt)
    z = torch.randn(N, N).to(dt)
    want = (x.double() @ y.double()) + z.double()[:, :1]
    zd = z.to(device)
    add_rows_in_place_kernel[(1,)](x.to(device), y.to(device), zd, N=N)
    tol = {torch.float16: 2e-2, torch.float32: 1e-2, torch.float64: 1e-9}[dt]
    assert (zd.cpu().double() - want).abs().max().item() <= tol


# ---------------------------------------------------------------- tutorial 06
# Fused attention (Triton's tutorial 06) needs isinstance() on a helper's
# argument, a tensor bound to a helper's tl.constexpr parameter, an
# assignment to the loop index, and an autotuner that skips the configs a
# tl.static_assert refuses.

@triton.jit
def _first_row(src, BLOCK: tl.constexpr):
    if isinstance(src, tl.tensor_descriptor):
        return src.load([0])
    else:
        return tl.load(src + tl.arange(0, BLOCK))


@triton.jit
def isinstance_kernel(x, out, flags, BLOCK: tl.constexpr, USE_DESC: tl.constexpr):
    if USE_DESC:
        src = tl.make_tensor_descriptor(x, [BLOCK], [1], [BLOCK])
    else:
        src = x
    tl.store(out + tl.arange(0, BLOCK), _first_row(src, BLOCK) * 2)
    # constexprs are unwrapped before the test, as in Triton
    tl.store(flags + 0, isinstance(BLOCK, int))
    tl.store(flags + 1, isinstance(BLOCK, tl.constexpr))
    tl.store(flags + 2, isinstance(x, tl.tensor))
    tl.store(flags + 3, isinstance(x, (float, tl.tensor_descriptor_base)))
    tl.store(flags + 4, isinstance(tl.float16, tl.dtype))
    tl.store(flags + 5, isinstance(True, int))
    tl.store(flags + 6, isinstance(None, (int, float)))
    tl.store(flags + 7, isinstance(src, tl.tensor_descriptor))
    # tl.pointer_type is a class too (a dtype subclass), as in Triton
    tl.store(flags + 8, isinstance(x.dtype, tl.pointer_type))
    tl.store(flags + 9, isinstance(x.dtype.element_ty, tl.pointer_type))
    tl.store(flags + 10, isinstance(x.dtype, tl.dtype))


@pytest.mark.parametrize("use_desc", [False, True])
def test_isinstance_decides_at_compile_time(device, use_desc):
    x = torch.arange(16, dtype=torch.float32, device=device)
    out = torch.zeros(16, device=device)
    flags = torch.full((11,), -1, dtype=torch.int32, device=device)
    isinstance_kernel[(1,)](x, out, flags, BLOCK=16, USE_DESC=use_desc)
    assert torch.equal(out.cpu(), x.cpu() * 2)
    assert flags.tolist() == [1, 0, 1, 0, 1, 1, 0, int(use_desc), 1, 0, 1]


@triton.jit
def isinstance_of_a_number_kernel(x):
    tl.store(x, isinstance(x, (tl.tensor, 3)))


def test_isinstance_needs_a_class():
    assert_compile_error(isinstance_of_a_number_kernel, (torch.zeros(1),), needle="isinstance(",
                         pattern=r"isinstance\(\) arg 2 must be a type or tuple of types, got int")


@triton.jit
def _scaled(v, offs: tl.constexpr, scale: tl.constexpr):
    return v * scale + offs


@triton.jit
def loop_index_kernel(out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    for i in range(0, n, 4):
        i = tl.multiple_of(i, 4)  # holds for the rest of this iteration
        acc += i
        i = i + 1
        acc += i * 0.5
    # a tensor bound to a helper's tl.constexpr parameter (Triton ignores
    # the annotation for helpers)
    tl.store(out + offs, _scaled(acc, offs, 2.0))


def test_loop_index_assignment_and_tensor_constexpr_argument(device):
    out = torch.zeros(8, device=device)
    loop_index_kernel[(1,)](out, 10, BLOCK=8)
    want = sum(i + (i + 1) * 0.5 for i in range(0, 10, 4))
    assert out.tolist() == [want * 2 + j for j in range(8)]


@triton.autotune(configs=[triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 16})],
                 key=["n"], reset_to_zero=["x"])
@triton.jit
def asserting_kernel(x, n, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK <= 32)
    offs = tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs, mask=offs < n) + 1, mask=offs < n)


def test_autotune_skips_configs_a_static_assert_refuses(device):
    from mytriton.compiler.errors import CompilationError, CompileTimeAssertionFailure
    x = torch.zeros(16, device=device)
    asserting_kernel[(1,)](x, 16)
    assert x.tolist() == [1.0] * 16
    assert asserting_kernel.best_config.kwargs == {"BLOCK": 16}
    assert issubclass(CompileTimeAssertionFailure, CompilationError)
    with pytest.raises(CompileTimeAssertionFailure, match="static assertion failed"):
        asserting_kernel.fn[(1,)](x, 16, BLOCK=64)


@triton.jit
def hasattr_kernel(x, flags, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.store(flags + 0, hasattr(v, "dtype"))
    tl.store(flags + 1, hasattr(v, "no_such_attribute"))
    tl.store(flags + 2, hasattr(tl, "program_id"))
    tl.store(flags + 3, hasattr(tl, "no_such_function"))
    tl.store(flags + 4, hasattr(v.dtype, "is_floating"))


def test_hasattr_decides_at_compile_time(device):
    x = torch.zeros(8, device=device)
    flags = torch.full((5,), -1, dtype=torch.int32, device=device)
    hasattr_kernel[(1,)](x, flags, BLOCK=8)
    assert flags.tolist() == [1, 0, 1, 0, 1]
