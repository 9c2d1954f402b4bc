"""Keyword arguments are bound as Triton binds them, or refused by name
(issue 17: `step=` was accepted and dropped, a silent wrong result)."""
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error


@triton.jit
def loop_counts_kernel(out, n):
    a = 0
    for i in tl.static_range(0, 8, step=2):
        a += 1
    b = 0
    for i in tl.range(0, n, step=2):
        b += 1
    c = 0
    for i in tl.range(arg1=1, arg2=n, step=3, num_stages=3, flatten=False):
        c += 1
    d = 0
    for i in tl.static_range(arg1=6):
        d += 1
    tl.store(out + 0, a)
    tl.store(out + 1, b)
    tl.store(out + 2, c)
    tl.store(out + 3, d)


def test_step_keyword_is_honoured():
    out = torch.zeros(4, dtype=torch.int32)
    loop_counts_kernel[(1,)](out, 8)
    assert out.tolist() == [4, 4, 3, 6]


@triton.jit
def python_range_keyword_kernel(out):
    for i in range(0, 8, step=2):
        tl.store(out + i, i)


@triton.jit
def tl_range_unknown_keyword_kernel(out, n):
    for i in tl.range(0, n, stride=2):
        tl.store(out + i, i)


@triton.jit
def static_range_unknown_keyword_kernel(out):
    for i in tl.static_range(0, 8, num_stages=2):
        tl.store(out + i, i)


@triton.jit
def range_hint_type_kernel(out, n):
    for i in tl.range(0, n, num_stages=1.5):
        tl.store(out + i, i)


@triton.jit
def range_duplicate_kernel(out, n):
    for i in tl.range(0, n, 2, step=2):
        tl.store(out + i, i)


def test_python_range_takes_no_keywords():
    assert_compile_error(python_range_keyword_kernel, (torch.zeros(8),), needle="step=2",
                         pattern=r"range\(\) takes no keyword arguments")


def test_unknown_range_keywords_are_errors():
    assert_compile_error(tl_range_unknown_keyword_kernel, (torch.zeros(8), 8), needle="stride=2",
                         pattern=r"tl\.range\(\) got an unexpected keyword argument 'stride'")
    assert_compile_error(static_range_unknown_keyword_kernel, (torch.zeros(8),), needle="num_stages",
                         pattern=r"tl\.static_range\(\) got an unexpected keyword argument "
                                 r"'num_stages'")
    assert_compile_error(range_hint_type_kernel, (torch.zeros(8), 8), needle="num_stages",
                         pattern=r"num_stages must be a compile-time integer")
    assert_compile_error(range_duplicate_kernel, (torch.zeros(8), 8), needle="step=2",
                         pattern=r"multiple values for argument 'step'")


@triton.jit
def shape_equality_kernel(out, BLOCK: tl.constexpr):
    x = tl.arange(0, BLOCK)
    y = x[None, :]
    tl.static_assert(x.shape == [BLOCK])
    tl.static_assert([1, BLOCK] == y.shape)
    tl.static_assert(y.shape != [BLOCK, 1])
    tl.static_assert(y.shape[1:] == [BLOCK])
    tl.store(out + x, x)


def test_shape_equals_list():
    out = torch.zeros(8, dtype=torch.int32)
    shape_equality_kernel[(1,)](out, BLOCK=8)
    assert out.tolist() == list(range(8))


def test_jit_options_are_honoured_or_refused():
    def k(out):
        pass

    assert triton.jit(do_not_specialize=["out"], version=2, debug=False)(k).fn is k
    with pytest.raises(TypeError, match="unexpected keyword argument 'reprr'"):
        triton.jit(reprr=str)
    # launch_metadata= feeds knobs.runtime's launch hooks (test_launch_hooks)
    hooked = triton.jit(launch_metadata=lambda grid, meta, args: {})(k)
    assert hooked.compile(torch.zeros(1), stages_only=True).name == "k"
    # debug mode is honoured (tests/py/test_debug.py)
    assert triton.jit(debug=True)(k).compile(torch.zeros(1), stages_only=True).name == "k"


def _flops(grid, metadata, args):
    return {"flops": 2 * args["n"], "grid": grid, "warps": metadata.num_warps}


@triton.jit(launch_metadata=_flops)
def hooked_kernel(out, n):
    tl.store(out, n)


def test_launch_hooks():
    """Triton's knobs.runtime.launch_enter_hook / launch_exit_hook: called
    around every launch with the same metadata, the kernel's
    launch_metadata= evaluated on get(); nothing is called without them."""
    from mytriton import knobs
    seen = []
    out = torch.zeros(1, dtype=torch.int32)
    hooked_kernel[(1,)](out, 5)  # no hooks: launch_metadata is not called
    knobs.runtime.launch_enter_hook = lambda md: seen.append(("enter", md, dict(md.get())))
    knobs.runtime.launch_exit_hook = lambda md: seen.append(("exit", md))
    try:
        hooked_kernel[(2, 1, 1)](out, 21)
    finally:
        knobs.runtime.launch_enter_hook = None
        knobs.runtime.launch_exit_hook = None
    hooked_kernel[(1,)](out, 7)
    assert [s[0] for s in seen] == ["enter", "exit"] and seen[0][1] is seen[1][1]
    data = seen[0][2]
    assert data["name"] == "hooked_kernel" and data["flops"] == 42
    assert data["grid"] == (2, 1, 1) and data["warps"] == 4
    assert out.item() == 7
    with pytest.raises(TypeError, match="callable"):
        knobs.runtime.launch_enter_hook = 3
    # an exception in a hook is the launch's
    knobs.runtime.launch_enter_hook = lambda md: 1 / 0
    try:
        with pytest.raises(ZeroDivisionError):
            hooked_kernel[(1,)](out, 9)
    finally:
        knobs.runtime.launch_enter_hook = None
    assert out.item() == 7


@triton.jit(noinline=True)
def noinline_helper(x):
    return x + 1


@triton.jit(noinline=True)
def noinline_pair(x, y):
    return x + 1, y + 2


@triton.jit(noinline=True)
def noinline_dynamic(x, y, Z):
    # Triton's test_noinline "dynamic": noinline helpers under runtime ifs
    if x >= 1:
        x = noinline_helper(x)
    else:
        x = noinline_pair(x, x)[1]
    z = x + y
    tl.store(Z, z)


@triton.jit
def calls_noinline_kernel(X, Y, out):
    x = tl.load(X)
    y = tl.load(Y)
    tl.store(out, noinline_helper(x))
    a, b = noinline_pair(x, y)
    tl.store(out + 1, a + b)
    noinline_dynamic(x, y, out + 2)


def test_noinline_helpers_are_inlined():
    # Triton compiles them as real functions; the result is the same
    out = torch.zeros(3)
    calls_noinline_kernel[(1,)](torch.tensor([1.0]), torch.tensor([2.0]), out)
    assert out.tolist() == [2.0, 6.0, 4.0]
    out = torch.zeros(3)
    calls_noinline_kernel[(1,)](torch.tensor([0.5]), torch.tensor([2.0]), out)
    assert out.tolist() == [1.5, 5.5, 4.5]


@triton.jit
def noinline_block_arg_kernel(X, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(X + offs)
    for i in range(1, 3):
        v = noinline_helper(v * i)
    tl.store(out + offs, v)


def test_noinline_helpers_take_scalars():
    # Triton 3.6 refuses a block of more than one element (on the GPU:
    # "Function mul_ni is marked noinline, but was called with non-scalar
    # argument val:fp32[constexpr[128]]"); a one-element block passes
    assert_compile_error(noinline_block_arg_kernel, (torch.zeros(8), torch.zeros(8)),
                         {"BLOCK": 8}, needle="v = noinline_helper",
                         pattern=r"Function noinline_helper is marked noinline, but was called "
                                 r"with non-scalar argument x:")
    out = torch.zeros(1)
    noinline_block_arg_kernel[(1,)](torch.tensor([2.0]), out, BLOCK=1)
    assert out.tolist() == [((2.0 + 1) * 2) + 1]


def _name_of(spec):
    ty = spec.signature["value"]
    cst = "_".join(k for k, v in spec.constants.items() if v == 1)
    return f"kernel_{ty}_{cst}"


@triton.jit(repr=_name_of)
def named_kernel(value, ONE: tl.constexpr, X):
    tl.store(X, value + ONE)


def test_repr_names_the_compiled_kernel():
    # Triton's test_value_specialization: repr gets the constexprs and the
    # parameters' types by name
    x = torch.zeros(1)
    h = named_kernel.warmup(3, 1, x, grid=(1,))
    assert h.name == "kernel_i32_ONE" and h.metadata.name == h.name
    assert named_kernel.warmup(2**40, 1, x, grid=(1,)).name == "kernel_i64_ONE"
    assert named_kernel.warmup(3.5, 2, x, grid=(1,)).name == "kernel_fp32_"
    # a runtime integer equal to 1 is a constant too, as Triton specialises it
    assert named_kernel.warmup(1, 2, x, grid=(1,)).name == "kernel_constexpr_value"
    named_kernel[(1,)](3, 1, x)
    assert x.tolist() == [4.0]
    # without repr=, Triton's JITFunction.repr is the function's name
    assert calls_noinline_kernel.repr(None) == "calls_noinline_kernel"
    assert calls_noinline_kernel.warmup(x, x, x, grid=(1,)).name == "calls_noinline_kernel"


@triton.jit(repr=lambda spec: "kernel_" + spec.signature["X"])
def badly_named_kernel(X):
    tl.store(X, 1.0)


def test_repr_must_be_an_identifier():
    # compiled Triton makes the name the symbol: "kernel_*fp32" is refused
    with pytest.raises(triton.CompilationError, match=r"invalid function identifier: kernel_\*fp32"):
        badly_named_kernel[(1,)](torch.zeros(1))


@triton.jit
def asin_kernel(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + offs, tl.extra.cuda.libdevice.asin(tl.load(x + offs, mask=offs < n)),
             mask=offs < n)


def test_extern_libs_libdevice_is_accepted_others_refused():
    """Tutorial 07 launches with extern_libs={'libdevice': path}: the
    libdevice functions are CUDA's math library here, always linked."""
    x = torch.rand(100)
    y = torch.zeros(100)
    asin_kernel[(2,)](x, y, 100, BLOCK=64, extern_libs={"libdevice": "/no/such/libdevice.10.bc"})
    assert torch.allclose(y, torch.asin(x), atol=1e-6)
    before = y.clone()
    with pytest.raises(ValueError, match="extern library 'ocml' is not supported"):
        asin_kernel[(2,)](x, y, 100, BLOCK=64, extern_libs={"ocml": "ocml.bc"})
    with pytest.raises(TypeError, match="extern_libs must be a dict"):
        asin_kernel[(2,)](x, y, 100, BLOCK=64, extern_libs=["libdevice"])
    assert torch.equal(y, before)
