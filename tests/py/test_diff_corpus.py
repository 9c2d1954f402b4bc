"""The differential corpus (tests/diff): every case, run on mytriton's host
backend (and on CUDA when there is a GPU), must give Triton's recorded
results.  A case without a recorded result fails: record it on a GPU with
`python3 tests/diff/diffrun.py record DIR` under real Triton."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "diff"))
import diffrun  # noqa: E402


@pytest.mark.parametrize("case", diffrun.cases())
def test_matches_triton(case, device):
    msg = diffrun.compare(case, device)
    assert msg is None, msg
