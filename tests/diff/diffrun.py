"""The differential corpus: small Triton programs, each run under Triton and
under mytriton, whose results must agree.

Every file in corpus/ is an unmodified Triton program: it imports `triton`
and `triton.language`, defines kernels, and a `run(device)` that launches
them on deterministic inputs and returns {name: tensor}.  Inputs are made
on the CPU and moved to the device, so every implementation computes on the
same bits (torch's own kernels, linspace say, differ between devices).  The expected
results in expected/<case>.json are Triton's, recorded on a GPU:

    python3 tests/diff/diffrun.py record DIR [CASE...]  # under real Triton, cuda
    python3 tests/diff/diffrun.py compare cpu cuda  # mytriton vs expected/

`compare` loads each case with `triton` resolved to mytriton (restored
afterwards, so a real Triton in the same process is untouched) and checks
every result: integers and booleans exactly, floats to the case's TOLERANCE
(default rtol 1e-5, atol 1e-6), NaN equal to NaN.  A tolerance is either
{"rtol", "atol"} or {"ulp": n}: at most n units in the last place apart, and
{"ulp": 0} is bit for bit (-0 differs from +0; any NaN still equals any NaN,
since payloads are not part of Triton's semantics).  TOLERANCE_FOR maps an
output's name to its own tolerance.  Types without an exact JSON number
(fp16, bf16, fp8, and the unsigned types torch cannot list) are recorded as
the bit patterns of the signed integer of the same width, under "bits".
tests/py/test_diff_corpus.py runs `compare` on the host backend in CI.
"""
from __future__ import annotations

import contextlib
import importlib.util
import json
import math
import os
import sys
import traceback

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
    # and the language's submodules (triton.language.extra.libdevice)
    ours = ["mytriton", "mytriton.language"] + sorted(
        n for n in sys.modules if n.startswith("mytriton.language."))
    saved = {"triton" + n[len("mytriton"):]: sys.modules.get("triton" + n[len("mytriton"):])
             for n in ours}
    for n in ours:
        sys.modules["triton" + n[len("mytriton"):]] = sys.modules[n]
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


SIGNED = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}
# (torch before 2.3 has no fp8 and no uint16/32/64: cases using them need a
# newer torch to run at all)
AS_BITS = {getattr(torch, n) for n in ("float16", "bfloat16", "float8_e4m3fn", "float8_e5m2",
                                       "uint16", "uint32", "uint64") if hasattr(torch, n)}


def bits(t: torch.Tensor) -> torch.Tensor:
    """t's bit patterns as the signed integers of its width, widened to int64."""
    return t.contiguous().view(SIGNED[t.element_size()]).long()


def to_json(results: dict) -> dict:
    def num(x):
        if isinstance(x, float) and not math.isfinite(x):
            return repr(x)  # 'nan', 'inf', '-inf'
        return x

    def entry(v):
        e = {"dtype": str(v.dtype).replace("torch.", ""), "shape": list(v.shape)}
        if v.dtype in AS_BITS:
            e["bits"] = bits(v).flatten().tolist()
        else:
            e["data"] = [num(x) for x in v.flatten().tolist()]
        return e
    return {k: entry(v) for k, v in results.items()}


def from_json(d: dict) -> dict:
    out = {}
    for k, e in d.items():
        dtype = getattr(torch, e["dtype"])
        if "bits" in e:
            width = torch.empty(0, dtype=dtype).element_size()
            t = torch.tensor(e["bits"], dtype=SIGNED[width]).view(dtype)
        else:
            data = [float(x) if isinstance(x, str) else x for x in e["data"]]
            t = torch.tensor(data, dtype=dtype)
        out[k] = t.reshape(e["shape"])
    return out


def ulp_close(g: torch.Tensor, w: torch.Tensor, n: int) -> torch.Tensor:
    """Elementwise: g and w at most n ulp apart (n == 0: the same bits), NaN
    equal to NaN.  The distance counts through zero without overflowing."""
    both_nan = g.float().isnan() & w.float().isnan()
    bg, bw = bits(g), bits(w)
    if n == 0:
        return both_nan | (bg == bw)
    mask = (1 << (8 * g.element_size() - 1)) - 1
    mg, mw = bg & mask, bw & mask
    same_sign = (bg < 0) == (bw < 0)
    near = torch.where(same_sign, (mg - mw).abs() <= n,
                       (mg <= n) & (mw <= n) & (mg + mw <= n))
    return both_nan | near


def mismatch(case: str, got: dict, want: dict, tol: dict,
             tol_for: dict | None = None) -> str | None:
    """None when got matches want, else a message naming the first difference."""
    if sorted(got) != sorted(want):
        return f"{case}: results {sorted(got)} != expected {sorted(want)}"
    for k in want:
        g, w = got[k], want[k]
        if g.dtype != w.dtype or list(g.shape) != list(w.shape):
            return f"{case}.{k}: {g.dtype}{list(g.shape)} != expected {w.dtype}{list(w.shape)}"
        t = (tol_for or {}).get(k, tol)
        if w.is_floating_point() and "ulp" in t:
            ok = ulp_close(g, w, t["ulp"])
        elif w.is_floating_point():
            ok = torch.isclose(g.double(), w.double(), equal_nan=True, **t)
        else:
            ok = bits(g) == bits(w)
        if not bool(ok.all()):
            i = int((~ok).flatten().nonzero()[0])
            return (f"{case}.{k}: element {i} is {show(g, i)}, "
                    f"Triton gives {show(w, i)}")
    return None


def show(t: torch.Tensor, i: int) -> str:
    """Element i of t, with its bits where the value alone is ambiguous."""
    v = t.flatten()[i:i + 1]
    if t.dtype in AS_BITS:
        b = int(bits(v)) & ((1 << (8 * t.element_size())) - 1)
        return f"{float(v.double()) if t.is_floating_point() else b!r} (0x{b:x})"
    return repr(v.item())


def expected(case: str) -> dict:
    with open(os.path.join(EXPECTED, case + ".json")) as f:
        return from_json(json.load(f))


def compare(case: str, device: str, tolerance: dict | None = None,
            tolerance_for: dict | None = None) -> str | None:
    """tolerance / tolerance_for, when given, stand for the case's own
    (a backend whose order of float operations is not Triton's)."""
    mod = load(case, "mytriton")
    tol = tolerance or getattr(mod, "TOLERANCE", {"rtol": 1e-5, "atol": 1e-6})
    return mismatch(case, run_case(case, "mytriton", device), expected(case), tol,
                    tolerance_for if tolerance is not None else getattr(mod, "TOLERANCE_FOR", None))


def main(argv):
    if len(argv) >= 2 and argv[0] == "record":
        # TRITON_INTERPRET=1 records Triton's interpreter on the CPU: a dry
        # run for a new case; only GPU results belong in expected/
        device = "cpu" if os.environ.get("TRITON_INTERPRET") == "1" else "cuda"
        os.makedirs(argv[1], exist_ok=True)
        failed = 0
        for case in argv[2:] or cases():
            try:
                results = to_json(run_case(case, "triton", device))
            except Exception:
                traceback.print_exc()
                print("FAILED", case)
                failed += 1
                continue
            with open(os.path.join(argv[1], case + ".json"), "w") as f:
                json.dump(results, f)
            print("recorded", case, "on", device)
        return 1 if failed else 0
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
