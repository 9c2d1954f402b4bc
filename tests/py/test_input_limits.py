"""Issue 15's smaller findings, through the Python API: a grid of NumPy
integers launches, a source file with CR-only line ends compiles, a
100,000-term ** chain (and other depth-10^5 nestings) is a located
CompilationError (the ** chain killed the process), and tl.static_range(65536) over a load is refused before the
host compiler runs (which crashed on it after 13 s)."""
import importlib.util
import time

import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl


@triton.jit
def mark(out):
    tl.store(out + tl.program_id(0) + 4 * tl.program_id(1), 1)


@pytest.mark.parametrize("grid", [(np.int64(4),), [np.int32(2), np.int64(2)], np.int64(4),
                                  (np.uint8(4), np.int16(1), np.int64(1))])
def test_numpy_integer_grid(grid):
    out = torch.zeros(8, dtype=torch.int32)
    mark[grid](out)
    assert int(out.sum()) == 4


@pytest.mark.parametrize("grid", [(True,), (4.0,), (np.float64(4),), (np.int64(-1),)])
def test_bad_grid_still_refused(grid):
    with pytest.raises(ValueError, match="invalid launch grid"):
        mark[grid](torch.zeros(8, dtype=torch.int32))


def load_module(tmp_path, name, text):
    path = tmp_path / f"{name}.py"
    path.write_bytes(text.encode())
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_cr_only_source(tmp_path):
    src = ("import mytriton as triton\rimport mytriton.language as tl\r\r"
           "@triton.jit\rdef k(out, n):\r    # a comment\r    tl.store(out, n * 3)\r")
    mod = load_module(tmp_path, "cr_only_kernel", src)
    out = torch.zeros(1, dtype=torch.int32)
    mod.k[(1,)](out, 5)
    assert out.item() == 15


@pytest.mark.parametrize("expr", ["**".join(["2"] * 100000),
                                  "(" * 100000 + "2" + ")" * 100000,
                                  "f(" * 100000 + "2" + ")" * 100000,
                                  "-" * 100000 + "2"])
def test_depth_100000(expr):
    """Python's own parser cannot take these (MemoryError), but kernel text
    reaches the compiler as a string too (the 100,000-term ** chain killed
    the process there)."""
    from mytriton import _C
    src = f"def k(out):\n    y = {expr}\n"
    with pytest.raises(triton.CompilationError, match="expression too deeply nested") as e:
        _C.compile(src, "k.py", "k", "*fp32", stages_only=True)
    assert str(e.value).startswith("k.py:2:")


@triton.jit
def unrolled_loads(x, out, N: tl.constexpr):
    acc = 0
    for i in tl.static_range(N):
        acc += tl.load(x + i)
    tl.store(out, acc)


def test_static_range_65536_refused_before_the_host_compiler():
    x = torch.ones(65536, dtype=torch.int32)
    out = torch.zeros(1, dtype=torch.int32)
    t = time.monotonic()
    with pytest.raises(triton.CompilationError, match="too large") as e:
        unrolled_loads[(1,)](x, out, N=65536)
    assert "tl.static_range(N)" in str(e.value)
    assert time.monotonic() - t < 10
    unrolled_loads[(1,)](x, out, N=64)  # a short one still unrolls and runs
    assert out.item() == 64
