"""The differential corpus: small Triton programs, each run under Triton and
under mytriton, whose results must agree.

Every file in corpus/ is an unmodified Triton program: it imports `triton`
and `triton.language`, defines kernels, and a `run(device)` that launches
them on deterministic inputs and returns {name: tensor}.  Inputs are made
on the CPU and moved to the device, so every implementation computes on the
same bits (torch's own kernels, linspace say, differ between devices).  The expected
results in expected/<case>.json are Triton's, recorded on a GPU:

    python3 tests/diff/diffrun.py record DIR        # under real Triton, cuda
    python3 tests/diff/diffrun.py compare cpu cuda  # mytriton vs expected/

`compare` loads each case with `triton` resolved to mytriton (restored
afterwards, so a real Triton in the same process is untouched) and checks
every result: integers and booleans exactly, floats to the case's TOLERANCE
(default rtol 1e-5, atol 1e-6), NaN equal to NaN.  tests/py/test_diff_corpus.py
runs `compare` on the host backend in CI.
"""
from __future__ import annotations

import contextlib
import importlib.util
import json
import math
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
EXPECTED = os.path.join(HERE, "expected")


def cases():
    return sorted(f[:-3] for f in os.listdir(CORPUS) if f.endswith(".py"))


@contextlib.contextmanager
def triton_is_mytriton():
    """`import triton` resolves to mytriton inside the block."""
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
    import mytriton
    import mytriton.language
    names = ("triton", "triton.language")
    saved = {n: sys.modules.get(n) for n in names}
    sys.modules["triton"] = mytriton
    sys.modules["triton.language"] = mytriton.language
    try:
        yield
    finally:
        for n, m in saved.items():
            if m is None:
                sys.modules.pop(n, None)
            else:
                sys.modules[n] = m


def load(case: str, impl: str):
    """The case's module, its kernels bound to `impl` (triton or mytriton)."""
    path = os.path.join(CORPUS, case + ".py")
    spec = importlib.util.spec_from_file_location(f"diffcase_{impl}_{case}", path)
    mod = importlib.util.module_from_spec(spec)
    ctx = triton_is_mytriton() if impl == "mytriton" else contextlib.nullcontext()
    with ctx:
        spec.loader.exec_module(mod)
    return mod


def run_case(case: str, impl: str, device: str) -> dict:
    mod = load(case, impl)
    out = mod.run(device)
    if device == "cuda":
        torch.cuda.synchronize()
    return {k: v.detach().cpu() for k, v in out.items()}


def to_json(results: dict) -> dict:
    def num(x):
        if isinstance(x, float) and not math.isfinite(x):
            return repr(x)  # 'nan', 'inf', '-inf'
        return x
    return {k: {"dtype": str(v.dtype).replace("torch.", ""), "shape": list(v.shape),
                "data": [num(x) for x in v.flatten().tolist()]}
            for k, v in results.items()}


def from_json(d: dict) -> dict:
    out = {}
    for k, e in d.items():
        data = [float(x) if isinstance(x, str) else x for x in e["data"]]
        out[k] = torch.tensor(data, dtype=getattr(torch, e["dtype"])).reshape(e["shape"])
    return out


def mismatch(case: str, got: dict, want: dict, tol: dict) -> str | None:
    """None when got matches want, else a message naming the first difference."""
    if sorted(got) != sorted(want):
        return f"{case}: results {sorted(got)} != expected {sorted(want)}"
    for k in want:
        g, w = got[k], want[k]
        if g.dtype != w.dtype or list(g.shape) != list(w.shape):
            return f"{case}.{k}: {g.dtype}{list(g.shape)} != expected {w.dtype}{list(w.shape)}"
        if w.is_floating_point():
            ok = torch.isclose(g.double(), w.double(), equal_nan=True, **tol)
        else:
            ok = g == w
        if not bool(ok.all()):
            i = int((~ok).flatten().nonzero()[0])
            return (f"{case}.{k}: element {i} is {g.flatten()[i].item()!r}, "
                    f"Triton gives {w.flatten()[i].item()!r}")
    return None


def expected(case: str) -> dict:
    with open(os.path.join(EXPECTED, case + ".json")) as f:
        return from_json(json.load(f))


def compare(case: str, device: str) -> str | None:
    mod = load(case, "mytriton")
    tol = getattr(mod, "TOLERANCE", {"rtol": 1e-5, "atol": 1e-6})
    return mismatch(case, run_case(case, "mytriton", device), expected(case), tol)


def main(argv):
    if len(argv) >= 2 and argv[0] == "record":
        os.makedirs(argv[1], exist_ok=True)
        for case in cases():
            with open(os.path.join(argv[1], case + ".json"), "w") as f:
                json.dump(to_json(run_case(case, "triton", "cuda")), f)
            print("recorded", case)
        return 0
    if len(argv) >= 2 and argv[0] == "compare":
        bad = 0
        for device in argv[1:]:
            for case in cases():
                msg = compare(case, device)
                print(f"{device} {case}: {'ok' if msg is None else msg}")
                bad += msg is not None
        print(f"{bad} mismatches")
        return 1 if bad else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
