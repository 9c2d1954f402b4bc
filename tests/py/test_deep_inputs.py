"""Deep and long inputs end in a located error or a result, never a crash
or a quadratic crawl (issue 15, item 5; tests/fuzz/fuzz_deep.c generates
them at depth 10^5 and length 10^6 under `make fuzz-deep`)."""
import re
import time

import pytest

import mytriton as triton
from mytriton import _C


def params_src(n):
    names = ", ".join(["X"] + [f"p{i}" for i in range(1, n)])
    return f"def k({names}):\n    tl.store(X, 1.0)\n"


def test_100000_parameters_are_a_located_error():
    # the duplicate-name check and the scope lookups are linear per
    # parameter: 10^5 of them ran for minutes
    t = time.monotonic()
    with pytest.raises(triton.CompilationError, match="at most 1024 parameters") as e:
        _C.compile(params_src(100000), "k.py", "k", "*fp32" + ",i32" * 99999, stages_only=True)
    assert str(e.value).startswith("k.py:1:")
    assert time.monotonic() - t < 20


def test_1024_parameters_compile():
    _C.compile(params_src(1024), "k.py", "k", "*fp32" + ",i32" * 1023, stages_only=True)


@pytest.mark.parametrize("op", [" + ", " * ", " < ", " and ", " if a else "])
def test_a_long_chain_is_a_located_error(op):
    """A 200,000-term chain is a tree 200,000 deep: refused where it
    starts (too deeply nested, or a type error found first), before any
    recursive pass walks it."""
    src = "def k(X):\n    a = tl.load(X)\n    x = a" + (op + "a") * 200000 + "\n    tl.store(X, x)\n"
    with pytest.raises(triton.CompilationError) as e:
        _C.compile(src, "k.py", "k", "*fp32", stages_only=True)
    assert re.match(r"k.py:3:\d+: error: ", str(e.value)), str(e.value)[:200]
