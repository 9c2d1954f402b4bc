"""tools/typeprobe.py check: the type (or constexpr value) mytriton gives
each expression of tests/diff/types/exprs.txt is the one Triton 3.6 gives,
recorded in tests/diff/types/triton.txt by `typeprobe.py record` under
Triton (an sm_90 compile, no GPU needed)."""
import os
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tools"))
import typeprobe  # noqa: E402


def test_expression_types_match_triton():
    bad = typeprobe.mismatches(os.path.join(ROOT, "build"))
    assert not bad, "\n".join(bad)
