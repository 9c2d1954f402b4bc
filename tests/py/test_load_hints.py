"""Memory hints (issue 9): cache_modifier=, eviction_policy= and volatile=
on tl.load / tl.store, validated as Triton 3.6 validates them, carried on
the ops as attributes and lowered to CUDA's hinted accesses (plain accesses
on the host backend, whose results must not change)."""
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error, lines_of, stages

LOAD_CACHES = ["", ".ca", ".cg", ".cv"]
STORE_CACHES = ["", ".wb", ".cg", ".cs", ".wt"]
EVICTIONS = ["", "evict_first", "evict_last"]


@triton.jit
def copy_kernel(x, out, n, BLOCK: tl.constexpr, LC: tl.constexpr, SC: tl.constexpr,
                EV: tl.constexpr, VOL: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + offs, mask=mask, other=0.0, cache_modifier=LC, eviction_policy=EV,
                volatile=VOL)
    tl.store(out + offs, v * 2, mask=mask, cache_modifier=SC, eviction_policy=EV)


@pytest.mark.parametrize("lc", LOAD_CACHES)
@pytest.mark.parametrize("sc", STORE_CACHES)
@pytest.mark.parametrize("ev", EVICTIONS)
def test_every_hint_runs(lc, sc, ev):
    x = torch.randn(300)
    out = torch.full((300,), float("nan"))
    copy_kernel[(triton.cdiv(300, 128),)](x, out, 300, BLOCK=128, LC=lc, SC=sc, EV=ev,
                                          VOL=(lc == ".cg"))
    assert torch.equal(out, x * 2)


CUDA_LOAD = {"": None, ".ca": "__ldca", ".cg": "__ldcg", ".cv": "__ldcv"}
CUDA_STORE = {"": None, ".wb": "__stwb", ".cg": "__stcg", ".cs": "__stcs", ".wt": "__stwt"}


@pytest.mark.parametrize("lc,sc,ev", [(lc, sc, ev) for lc in LOAD_CACHES
                                      for sc in STORE_CACHES for ev in EVICTIONS])
def test_attributes_and_cuda_text(lc, sc, ev):
    x = torch.zeros(256)
    asm = stages(copy_kernel, x, x, 256, BLOCK=128, LC=lc, SC=sc, EV=ev, VOL=False)
    load, = lines_of(asm["ssa"], "load")
    store, = lines_of(asm["ssa"], "store")
    evict = {"": "", "evict_first": "evict=evict_first", "evict_last": "evict=evict_last"}[ev]
    for line, cache in ((load, lc), (store, sc)):
        attrs = ", ".join(a for a in (f"cache={cache[1:]}" if cache else "", evict) if a)
        assert (f"{{{attrs}}}" in line) if attrs else "{" not in line, line
    cuda = asm["cuda"]
    ld = CUDA_LOAD[lc] or ("__ldcs" if ev == "evict_first" else None)
    st = CUDA_STORE[sc] or ("__stcs" if ev == "evict_first" else None)
    for fn in ("__ldca", "__ldcg", "__ldcv", "__ldcs"):
        assert (f"{fn}(" in cuda) == (fn == ld), (fn, cuda)
    for fn in ("__stwb", "__stcg", "__stcs", "__stwt"):
        assert (f"{fn}(" in cuda) == (fn == st), (fn, cuda)


def test_volatile_load_reads_through_a_volatile_pointer():
    x = torch.zeros(256)
    asm = stages(copy_kernel, x, x, 256, BLOCK=128, LC=".cg", SC="", EV="", VOL=True)
    load, = lines_of(asm["ssa"], "load")
    assert "{cache=volatile}" in load, load
    assert "(const volatile float*)" in asm["cuda"]
    assert "__ldcg" not in asm["cuda"] and "float4 mt_q = *" not in asm["cuda"]


@triton.jit
def scalar_kernel(x, out):
    v = tl.load(x, cache_modifier=".cv", volatile=False)
    tl.store(out, v + 1, cache_modifier=".wt")


def test_scalar_access():
    x = torch.tensor([41.0])
    out = torch.zeros(1)
    scalar_kernel[(1,)](x, out)
    assert out.item() == 42.0
    cuda = stages(scalar_kernel, x, out)["cuda"]
    assert "__ldcv(" in cuda and "__stwt(" in cuda


@triton.jit
def blockptr_hints_kernel(x, out, n, B: tl.constexpr):
    p = tl.make_block_ptr(x, (n,), (1,), (0,), (B,), (0,))
    q = tl.make_block_ptr(out, (n,), (1,), (0,), (B,), (0,))
    v = tl.load(p, boundary_check=(0,), cache_modifier=".cg", eviction_policy="evict_last")
    tl.store(q, v, boundary_check=(0,), cache_modifier=".cs")


def test_block_pointer_hints():
    x = torch.arange(10, dtype=torch.float32)
    out = torch.zeros(10)
    blockptr_hints_kernel[(1,)](x, out, 10, B=16)
    assert torch.equal(out, x)
    ssa = stages(blockptr_hints_kernel, x, out, 10, B=16)["ssa"]
    assert "{cache=cg, evict=evict_last}" in lines_of(ssa, "load")[0]
    assert "{cache=cs}" in lines_of(ssa, "store")[0]


@triton.jit
def err_kernel(x, WHICH: tl.constexpr):
    if WHICH == 0:
        tl.load(x, cache_modifier=".wb")
    elif WHICH == 1:
        tl.store(x, 1.0, cache_modifier=".ca")
    elif WHICH == 2:
        tl.load(x, eviction_policy="evict_never")
    elif WHICH == 3:
        tl.store(x, 1.0, eviction_policy="first")
    elif WHICH == 4:
        tl.load(x, volatile="yes")
    elif WHICH == 5:
        tl.load(x, cache_modifier=3)


@pytest.mark.parametrize("which,needle,pattern", [
    (0, 'cache_modifier=".wb"', r"cache_modifier '\.wb' is not supported; use '', '\.ca', '\.cg' or '\.cv'"),
    (1, 'cache_modifier=".ca"', r"'\.ca' is not supported; use '', '\.wb', '\.cg', '\.cs' or '\.wt'"),
    (2, 'eviction_policy="evict_never"', "'evict_first' or 'evict_last'"),
    (3, 'eviction_policy="first"', "eviction_policy 'first' is not supported"),
    (4, 'volatile="yes"', "volatile must be a compile-time bool"),
    (5, "cache_modifier=3", "cache_modifier int is not supported"),
])
def test_located_errors(which, needle, pattern):
    assert_compile_error(err_kernel, (torch.zeros(4),), {"WHICH": which}, needle=needle,
                         pattern=pattern)
