"""check_print.py: tl.device_print's lines and tl.device_assert's report
under real Triton and under mytriton, side by side, on a GPU.

Input: a CUDA GPU with Triton and torch.  Output: for each case, OK or the
lines that differ (as multisets: threads print in any order), and for the
assertion the text each implementation's failing process printed; exit
status 1 when a case differs.

    python3 tests/gpu/check_print.py            # cuda
    python3 tests/gpu/check_print.py cpu        # mytriton's host backend
                                                # alone (a dry run)

Each case runs in its own process (a failed device assertion ends its CUDA
context): `python3 THIS case NAME DEVICE` under real Triton, and the same
under `python3 -m mytriton.run` (so `import triton` is mytriton).
Triton's interpreter prints in its own format and ignores debug=True, so
on cpu only mytriton runs."""
import os
import subprocess
import sys
from collections import Counter

import torch
import triton
import triton.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.join(HERE, "..", "..", "python")


@triton.jit
def values(X, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    tl.device_print("x: ", x)
    print("h", x, hex=True)


@triton.jit
def scalar_and_none(S):
    print("s", tl.load(S))
    print("none")
    print("", tl.program_id(0), tl.program_id(1))


@triton.jit
def grid_2d(BM: tl.constexpr, BN: tl.constexpr):
    x = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    tl.device_print("v", x, x.to(tl.float16) * 0.5)


@triton.jit
def pointers(X, BLOCK: tl.constexpr):
    tl.device_print("p", X + tl.arange(0, BLOCK))


@triton.jit(debug=True)
def asserting(X, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    tl.device_assert(x < 40, "x < 40")


def run_case(name, device):
    k = globals()
    if name.startswith("values_"):
        dtype = getattr(torch, name[len("values_"):])
        x = (torch.arange(128) - 64).to(dtype).to(device)
        k["values"][(1, )](x, BLOCK=128, num_warps=4)
    elif name == "scalar_and_none":
        k["scalar_and_none"][(2, 2)](torch.tensor([-7], dtype=torch.int32, device=device),
                                     num_warps=1)
    elif name == "grid_2d":
        k["grid_2d"][(1, )](BM=8, BN=32, num_warps=2)
    elif name == "pointers":  # the addresses differ: only their count and form
        k["pointers"][(1, )](torch.zeros(32, device=device), BLOCK=32, num_warps=1)
    elif name == "asserting":
        k["asserting"][(1, )](torch.arange(64, device=device), BLOCK=64, num_warps=2)
    if device == "cuda":
        torch.cuda.synchronize()


CASES = ["values_int8", "values_uint8", "values_int16", "values_int32", "values_int64",
         "values_float16", "values_float32", "values_float64", "scalar_and_none", "grid_2d",
         "pointers", "asserting"]


def child(impl, name, device):
    env = dict(os.environ)
    cmd = [sys.executable]
    if impl == "mytriton":
        env["PYTHONPATH"] = os.pathsep.join([PYTHON_DIR, env.get("PYTHONPATH", "")])
        cmd += ["-m", "mytriton.run"]
    elif device == "cpu":
        env["TRITON_INTERPRET"] = "1"
    proc = subprocess.run(cmd + [__file__, "case", name, device], capture_output=True, env=env)
    return proc.returncode, proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace")


def lines(text, name):
    out = Counter()
    for line in text.splitlines():
        if not line.startswith("pid ("):
            continue
        if name == "pointers":
            line = line.split("p: ")[0] + "p: 0x"
        out[line] += 1
    return out


def main(device):
    bad = 0
    for name in CASES:
        if device == "cpu":
            rm, om, em = child("mytriton", name, device)
            fails = "x < 40" in em
            print(f"{name}: rc={rm}, {sum(lines(om, name).values())} lines"
                  + (f", {em.strip().splitlines()[-1]}" if fails else ""))
            bad += (rm != 0) != (name == "asserting")
            continue
        (rt, ot, et), (rm, om, em) = child("triton", name, device), child("mytriton", name, device)
        if name == "asserting":
            ok = rt != 0 and rm != 0 and "x < 40" in ot + et and "x < 40" in om + em
            print(f"{'OK ' if ok else 'BAD'} {name}: triton rc={rt}, mytriton rc={rm}")
            for impl, text in (("triton", ot + et), ("mytriton", om + em)):
                hits = [l for l in text.splitlines() if "x < 40" in l or "device-side" in l]
                print(f"    {impl}: " + "\n    ".join(hits[-3:]))
            bad += not ok
            continue
        want, got = lines(ot, name), lines(om, name)
        if rt != 0 or rm != 0 or want != got or not want:
            bad += 1
            print(f"BAD {name}: triton rc={rt} ({sum(want.values())} lines), "
                  f"mytriton rc={rm} ({sum(got.values())} lines)")
            diff = (want - got) + (got - want)
            for line in list(diff)[:8]:
                print(f"    {line!r}: triton {want[line]}, mytriton {got[line]}")
            if rt or rm:
                print("    " + (et or em)[-800:].replace("\n", "\n    "))
        else:
            print(f"OK  {name}: {sum(want.values())} lines")
    print(f"{bad} cases differ")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "case":
        run_case(sys.argv[2], sys.argv[3])
    else:
        sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "cuda"))
