"""Checked mode (issue 15, item 4) on the host backend: a launch's
checked=True or MYTRITON_CHECKED=1 checks every load and store against its
tensor argument's extent, every integer // and % against zero, and i32
index arithmetic against overflow; a failure is a LaunchError (status
MT_ERR_CHECK) naming the kernel, program, line, column and index, raised
before the access, and the process stays usable."""
import inspect
import os
import re
import subprocess
import sys

import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FILE = os.path.abspath(__file__)


def line_of(fn, text):
    """The file line of the first source line of fn containing text, and
    the 1-based column where text starts."""
    lines, start = inspect.getsourcelines(fn)
    for i, l in enumerate(lines):
        if text in l:
            return start + i, l.index(text) + 1
    raise AssertionError(text)


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(src + offs, mask=offs < n)
    tl.store(dst + offs, v, mask=offs < n)


@triton.jit
def store_kernel(out, start, BLOCK: tl.constexpr):
    offs = start + tl.arange(0, BLOCK)
    tl.store(out + offs, offs.to(tl.float32))


@pytest.fixture(autouse=True)
def no_env(monkeypatch):
    monkeypatch.delenv("MYTRITON_CHECKED", raising=False)


def test_in_bounds_and_masked_off_are_not_reported():
    src = torch.arange(1000, dtype=torch.float32)
    dst = torch.zeros(1000)
    # the last program's lanes past 1000 are masked off: no violation
    copy_kernel[(4,)](src, dst, 1000, BLOCK=256, checked=True)
    assert torch.equal(dst, src)


def test_out_of_bounds_load_names_kernel_program_line_and_index():
    # only program 3 (elements 768..1023, active below 1010) reads past src
    src, dst = torch.arange(1000, dtype=torch.float32), torch.zeros(1030)
    with pytest.raises(triton.LaunchError) as info:
        copy_kernel[(4,)](src, dst, 1010, BLOCK=256, checked=True)
    line, col = line_of(copy_kernel.fn, "tl.load(")
    assert info.value.status == "MT_ERR_CHECK"
    assert re.fullmatch(
        re.escape(f"{FILE}:{line}:{col}: error: out-of-bounds load in kernel 'copy_kernel', "
                  "program (3, 0, 0): element offset ") +
        r"100\d of argument 'src' \(valid 0\.\.999\)\n", str(info.value)), str(info.value)


def test_out_of_bounds_store_touches_no_memory():
    # out is the first 1024 floats of a NumPy array over a larger buffer
    # that is no ndarray: its extent is those 1024 floats, and the bytes
    # after them must stay as they were
    mem = bytearray(8192)
    out = np.frombuffer(mem, dtype=np.float32, count=1024)
    with pytest.raises(triton.LaunchError) as info:
        store_kernel[(1,)](out, 1020, BLOCK=8, checked=True)
    line, col = line_of(store_kernel.fn, "tl.store(")
    msg = str(info.value)
    assert f"{FILE}:{line}:{col}: error: out-of-bounds store in kernel 'store_kernel', " \
           "program (0, 0, 0): element offset 1024 of argument 'out' (valid 0..1023)" in msg
    # the faulting program touched nothing, in bounds or not
    assert bytes(mem) == bytes(8192)


def test_unchecked_launch_is_the_old_specialisation():
    src, dst = torch.arange(8, dtype=torch.float32), torch.zeros(8)
    k1 = copy_kernel.warmup(src, dst, 8, BLOCK=8)
    k2 = copy_kernel.warmup(src, dst, 8, BLOCK=8, checked=True)
    assert k1 is not k2
    assert "mt_check_" not in k1.asm["cuda"]
    assert "mt_check_access" in k2.asm["cuda"]


@triton.jit
def div_kernel(x, y, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    q = tl.load(x + offs) // tl.load(y + offs)
    tl.store(out + offs, q)


def test_integer_division_by_zero():
    x = torch.full((8,), 7, dtype=torch.int32)
    y = torch.tensor([1, 2, 3, 4, 0, 6, 7, 8], dtype=torch.int32)
    out = torch.full((8,), -5, dtype=torch.int32)
    with pytest.raises(triton.LaunchError) as info:
        div_kernel[(1,)](x, y, out, BLOCK=8, checked=True)
    line, col = line_of(div_kernel.fn, "tl.load(x + offs) //")
    assert str(info.value).startswith(
        f"{FILE}:{line}:{col}: error: integer division by zero in kernel 'div_kernel', "
        "program (0, 0, 0): '//' by 0 at element 4")
    assert torch.equal(out, torch.full((8,), -5, dtype=torch.int32))
    # unchecked, the same launch gives Triton's value (all ones) and no error
    div_kernel[(1,)](x, y, out, BLOCK=8)
    assert out[4].item() == -1


@triton.jit
def index_kernel(out, stride, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * stride * 4 + tl.arange(0, BLOCK)
    tl.store(out + offs, offs.to(tl.float32) * 0 + 1)


@triton.jit
def wrapping_kernel(out, seed, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    h = (offs + seed) * 1000000007  # hashing: wraps by Triton's rule, no index
    tl.store(out + offs, h)


def test_i32_index_overflow():
    # program 1's offset 2**30 * 4 wraps to 0: unchecked, it silently
    # rewrites program 0's elements; checked, the multiplication fails
    out = torch.zeros(16)
    index_kernel[(2,)](out, 2**30, BLOCK=16)
    assert torch.equal(out, torch.ones(16))
    out = torch.zeros(16)
    with pytest.raises(triton.LaunchError) as info:
        index_kernel[(2,)](out, 2**30, BLOCK=16, checked=True)
    line, col = line_of(index_kernel.fn, "pid * stride * 4")
    assert info.value.status == "MT_ERR_CHECK"
    assert str(info.value).startswith(
        f"{FILE}:{line}:{col}: error: i32 overflow in index arithmetic in kernel "
        "'index_kernel', program (1, 0, 0): 1073741824 * 4 = 4294967296"), str(info.value)


def test_arithmetic_outside_index_chains_wraps():
    out = torch.zeros(16, dtype=torch.int32)
    wrapping_kernel[(1,)](out, 2**31 - 4, BLOCK=16, checked=True)
    expect = ((np.arange(16, dtype=np.int64) + 2**31 - 4) * 1000000007) % 2**32
    expect = np.where(expect >= 2**31, expect - 2**32, expect).astype(np.int32)
    assert np.array_equal(out.numpy(), expect)


def test_env_var_turns_it_on(monkeypatch):
    mem = bytearray(64)  # src: its first 10 floats; reading past them stays in mem
    src, dst = np.frombuffer(mem, dtype=np.float32, count=10), np.zeros(16, np.float32)
    copy_kernel[(1,)](src, dst, 16, BLOCK=16)  # unchecked: reads past src, no report
    monkeypatch.setenv("MYTRITON_CHECKED", "1")
    with pytest.raises(triton.LaunchError, match="out-of-bounds load"):
        copy_kernel[(1,)](src, dst, 16, BLOCK=16)
    # a launch's checked=False wins over the environment
    copy_kernel[(1,)](src, dst, 10, BLOCK=16, checked=False)


def test_bounds_are_the_storage_not_the_view():
    base = torch.arange(64, dtype=torch.float32)
    view = base[8:24]                    # 16 elements, storage of 64
    dst = torch.zeros(32)
    # reading 32 elements from the view stays inside the storage: allowed
    copy_kernel[(1,)](view, dst, 32, BLOCK=32, checked=True)
    assert torch.equal(dst, base[8:40])
    tail = base[48:]
    with pytest.raises(triton.LaunchError,
                       match=r"element offset 16 of argument 'src' \(valid -48\.\.15\)"):
        copy_kernel[(1,)](tail, dst, 32, BLOCK=32, checked=True)
    # NumPy: the root array's buffer
    arr = np.arange(64, dtype=np.float32)
    out = np.zeros(32, dtype=np.float32)
    copy_kernel[(1,)](arr[8:24], out, 32, BLOCK=32, checked=True)
    assert np.array_equal(out, arr[8:40])


@triton.jit
def loop_kernel(x, out, n, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    p = x + tl.arange(0, BLOCK)
    for i in range(n):
        acc += tl.load(p)
        p += BLOCK
    tl.store(out + tl.arange(0, BLOCK), acc)


def test_loop_carried_pointer_keeps_its_argument():
    x, out = torch.ones(64), torch.zeros(16)
    loop_kernel[(1,)](x, out, 4, BLOCK=16, checked=True)
    assert torch.equal(out, torch.full((16,), 4.0))
    with pytest.raises(triton.LaunchError,
                       match=r"element offset (6[4-9]|7[0-9]) of argument 'x' "
                             r"\(valid 0\.\.63\)"):
        loop_kernel[(1,)](x, out, 5, BLOCK=16, checked=True)


@triton.jit
def block_ptr_kernel(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    bp = tl.make_block_ptr(x, (M, N), (N, 1), (0, 0), (BM, BN), (1, 0))
    v = tl.load(bp)
    tl.store(out + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], v)


def test_block_pointer_is_traced_to_its_base():
    x, out = torch.ones(4 * 8), torch.zeros(8 * 8)
    with pytest.raises(triton.LaunchError, match=r"out-of-bounds load .* argument 'x' "
                                                 r"\(valid 0\.\.31\)"):
        block_ptr_kernel[(1,)](x, out, 8, 8, BM=8, BN=8, checked=True)
    x = torch.ones(8 * 8)
    block_ptr_kernel[(1,)](x, out, 8, 8, BM=8, BN=8, checked=True)
    assert torch.equal(out, x)


@triton.jit
def two_bases_kernel(a, b, out, use_a, n, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    p = tl.where(use_a != 0, a + o + (1 << 24), b + o)  # a's side: far from any tensor
    tl.store(out + o, tl.load(p, mask=o < n), mask=o < n)


@triton.jit
def table_kernel(ptrs, out, N: tl.constexpr):
    r = tl.arange(0, N)
    p = tl.load(ptrs + 1).to(tl.pointer_type(tl.float32))
    tl.store(out + r, tl.load(p + r))


def test_pointer_of_two_arguments_and_pointer_tables():
    a, b, out = torch.ones(8), torch.full((16,), 2.0), torch.zeros(16)
    two_bases_kernel[(1,)](a, b, out, 0, 16, BLOCK=16, checked=True)
    assert torch.equal(out, b)
    # either argument's extent will do; past both is an error
    with pytest.raises(triton.LaunchError, match="is inside no tensor argument"):
        two_bases_kernel[(1,)](a, b, out, 5, 16, BLOCK=16, checked=True)
    # a pointer read from memory has no known extent: not checked
    src = torch.arange(8, dtype=torch.float32)
    ptrs = torch.tensor([0, src.data_ptr()], dtype=torch.int64)
    out = torch.zeros(8)
    table_kernel[(1,)](ptrs, out, N=8, checked=True)
    assert torch.equal(out, src)


@triton.jit
def scalar_kernel(x, out, i, j):
    v = tl.load(x + i, mask=i >= 0)
    tl.store(out + j, v)


@triton.jit
def atomic_kernel(counts, idx, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.atomic_add(counts + tl.load(idx + o), 1)


@triton.jit
def carried_index_kernel(x, out, step, n):
    off = 0
    acc = 0.0
    for i in range(n):
        acc += tl.load(x + off, mask=off < 4, other=0.0)
        off = off + step
    tl.store(out, acc)


def test_scalar_atomic_and_carried_index_paths():
    x, out = torch.arange(4, dtype=torch.float32), torch.zeros(4)
    scalar_kernel[(1,)](x, out, 3, 2, checked=True)
    assert out[2].item() == 3.0
    scalar_kernel[(1,)](x, out, -5, 2, checked=True)  # the load is masked off
    assert out[2].item() == 0.0
    with pytest.raises(triton.LaunchError, match=r"out-of-bounds store .* element offset 7 of "
                                                 r"argument 'out' \(valid 0\.\.3\)"):
        scalar_kernel[(1,)](x, out, 0, 7, checked=True)
    counts = torch.zeros(4, dtype=torch.int32)
    atomic_kernel[(1,)](counts, torch.tensor([0, 1, 1, 3], dtype=torch.int32), BLOCK=4,
                        checked=True)
    assert counts.tolist() == [1, 2, 0, 1]
    with pytest.raises(triton.LaunchError, match=r"out-of-bounds atomic .* element offset 9 "
                                                 r"of argument 'counts'"):
        atomic_kernel[(1,)](counts, torch.tensor([0, 9, 1, 3], dtype=torch.int32), BLOCK=4,
                            checked=True)
    assert counts.tolist() == [1, 2, 0, 1]  # no element of the failing atomic ran
    # an i32 offset carried through a loop is index arithmetic too
    carried_index_kernel[(1,)](x, out, 1, 4, checked=True)
    assert out[0].item() == 6.0
    with pytest.raises(triton.LaunchError, match="i32 overflow in index arithmetic .* "
                                                 "1073741824 \\+ 1073741824"):
        carried_index_kernel[(1,)](x, out, 2**30, 3, checked=True)


def test_process_stays_usable_after_a_failure():
    src = torch.arange(256, dtype=torch.float32)
    for _ in range(3):
        dst = torch.zeros(512)
        with pytest.raises(triton.LaunchError):
            copy_kernel[(16,)](src, dst, 512, BLOCK=32, checked=True)
        dst = torch.zeros(256)
        copy_kernel[(8,)](src, dst, 256, BLOCK=32, checked=True)
        assert torch.equal(dst, src)


def test_cuda_backend_refuses_checked_mode():
    src = "import triton\n@triton.jit\ndef k(x):\n    pass\n"
    with pytest.raises(ValueError, match="checked mode runs on the host backend only"):
        triton._C.compile(src, "k.py", "k", "*fp32", None, 4, "cuda", True, checked=True)


# A child process: the C API through ctypes is the unit test's job
# (tests/unit/test_checked.c); here the whole extension after many
# failures in one process, with a fresh cache.
CHILD = r"""
import torch, mytriton as triton, mytriton.language as tl
@triton.jit
def k(x, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(x + o, tl.load(x + o, mask=o < n) + 1, mask=o < n)
x = torch.zeros(8)
fails = 0
for i in range(200):
    try:
        k[(4,)](x, 16, B=16, checked=True)
    except triton.LaunchError:
        fails += 1
k[(1,)](x, 8, B=16, checked=True)
print(fails, x.tolist())
"""


def test_many_failures_in_one_process(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"),
               MYTRITON_CACHE_DIR=str(tmp_path))
    script = tmp_path / "child.py"  # kernels must live in a file
    script.write_text(CHILD)
    r = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[0] == "200"
    assert r.stdout.strip().endswith("[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]")


@triton.jit
def gather_kernel(src, idx, out, N: tl.constexpr, M: tl.constexpr):
    s = tl.load(src + tl.arange(0, N))
    i = tl.load(idx + tl.arange(0, M))
    tl.store(out + tl.arange(0, M), tl.gather(s, i, 0))


@pytest.mark.parametrize("dtype,bad,shown", [(torch.int32, -1, "-1"), (torch.int64, 8, "8"),
                                             (torch.uint8, 200, "200")])
def test_gather_index_out_of_range(dtype, bad, shown):
    """Triton leaves such an index undefined; unchecked, mytriton wraps it
    into the dim (test_gather.py); checked, it is a located error."""
    src = torch.arange(8, dtype=torch.float32)
    idx = torch.tensor([0, 1, 2, bad, 4, 5, 6, 7], dtype=dtype)
    out = torch.full((8,), -1.0)
    with pytest.raises(triton.LaunchError) as info:
        gather_kernel[(1,)](src, idx, out, N=8, M=8, checked=True)
    line, col = line_of(gather_kernel.fn, "tl.gather(s, i, 0)")
    assert str(info.value).startswith(
        f"{FILE}:{line}:{col}: error: gather index out of range in kernel 'gather_kernel', "
        f"program (0, 0, 0): index {shown} at element 3, valid 0..7")
    assert torch.equal(out, torch.full((8,), -1.0))
    ok = torch.tensor([7, 6, 5, 4, 3, 2, 1, 0], dtype=dtype)
    gather_kernel[(1,)](src, ok, out, N=8, M=8, checked=True)
    assert torch.equal(out, src.flip(0))
