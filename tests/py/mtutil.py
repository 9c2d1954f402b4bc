"""Helpers shared by the tests: SSA text parsing and compile shortcuts."""
import re
from collections import Counter

import numpy as np
import pytest
import torch

import mytriton as triton

_OP_RE = re.compile(r"^\s*(?:%\d+(?:, %\d+)* = )?([a-z_]+)")


def ops(text):
    """Op names of printed SSA, in order (loop 'yield' lines included)."""
    names = []
    for line in text.splitlines():
        s = line.strip()
        if not s or s == "}":
            continue
        m = _OP_RE.match(line)
        assert m, f"unparsable SSA line: {line!r}"
        names.append(m.group(1))
    return names


def op_counts(text):
    return Counter(ops(text))


def lines_of(text, op):
    """SSA lines whose op is `op`."""
    return [l.strip() for l in text.splitlines()
            if l.strip() and l.strip() != "}" and _OP_RE.match(l).group(1) == op]


def stages(kernel, *args, **kwargs):
    """Compiles without a backend and returns the .asm mapping."""
    return kernel.compile(*args, stages_only=True, **kwargs).asm


def ssa_opt(kernel, *args, **kwargs):
    return stages(kernel, *args, **kwargs)["ssa-opt"]


def line_of(func, needle):
    """1-based line number in func's file of the first line containing needle."""
    import inspect
    lines, start = inspect.getsourcelines(func.fn)
    for i, l in enumerate(lines):
        if needle in l:
            return start + i
    raise AssertionError(f"{needle!r} not in source of {func.__name__}")


def assert_compile_error(kernel, args, kwargs=None, needle=None, pattern=None):
    """Compiling must raise CompilationError located at the line holding
    `needle` (file:line:col: error: ...), message matching `pattern`."""
    with pytest.raises(triton.CompilationError) as info:
        kernel.compile(*args, stages_only=True, **(kwargs or {}))
    err = info.value
    text = str(err)
    assert ": error: " in text, text
    assert text.count("\n") >= 2, f"diagnostic lacks source line and caret: {text}"
    assert "^" in text, text
    if needle is not None:
        line = line_of(kernel, needle)
        assert err.lineno == line, f"expected line {line}, got {err.lineno}: {text}"
        assert f":{line}:" in text.splitlines()[0], text
        assert err.filename and err.filename.endswith(".py"), err.filename
    if pattern is not None:
        assert re.search(pattern, text, re.I), f"{pattern!r} not in {text!r}"
    return err


def f32(device, *shape, low=-1.0, high=1.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.rand(*shape, generator=g, dtype=torch.float32) * (high - low) + low
    return t.to(device)


def poisoned(device, *shape):
    """Output buffer filled with NaN so unwritten elements fail checks."""
    return torch.full(shape, float("nan"), dtype=torch.float32, device=device)


def close(actual, expected, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(actual.detach().cpu().numpy(),
                               np.asarray(expected.detach().cpu().numpy()
                                          if isinstance(expected, torch.Tensor) else expected),
                               rtol=rtol, atol=atol)


def same_bits(actual, expected):
    """Equal including NaN positions and the sign of zeros."""
    a = np.asarray(actual.detach().cpu().numpy() if isinstance(actual, torch.Tensor) else actual,
                   dtype=np.float32)
    e = np.asarray(expected.detach().cpu().numpy() if isinstance(expected, torch.Tensor) else expected,
                   dtype=np.float32)
    assert a.shape == e.shape
    np.testing.assert_array_equal(np.isnan(a), np.isnan(e))
    ok = ~np.isnan(e)
    np.testing.assert_array_equal(a[ok], e[ok])
    np.testing.assert_array_equal(np.signbit(a[ok]), np.signbit(e[ok]))
