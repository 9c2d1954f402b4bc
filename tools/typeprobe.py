"""The types Triton gives expressions, beside mytriton's: a differential
check of the language's typing rules that needs no GPU.

Each line of tests/diff/types/exprs.txt is an expression over a fixed set
of loaded values (PRELUDE: blocks a8, u8, a16, u16, a32, u32, a64, u64, h
(f16), b (bf16), f, d, x_f8, i1; scalars s8, s32, sh, s1; the pointers).
A kernel `tl.static_print(EXPR)` is compiled once per expression and the
first line it prints (a type such as `int8[constexpr[4]]`, or a value) is
the expression's result; a compile error is "ERR".

    python3 tools/typeprobe.py record [--missing]  # under Triton 3.6 (any
                    # machine: it compiles for sm_90, runs nothing); --missing:
                    # only the expressions triton.txt has no result for
    python3 tools/typeprobe.py check BUILD_DIR   # mytriton's CLI

`record` writes tests/diff/types/triton.txt ("EXPR => RESULT" lines).
`check` compiles each expression with BUILD_DIR/mytriton and reports every
expression Triton types where mytriton's result differs; where Triton
refuses an expression mytriton may accept it (a superset), so those lines
are not compared.  tests/py/test_typeprobe.py runs `check` in CI.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TYPES = os.path.join(HERE, "..", "tests", "diff", "types")
PRELUDE = """import triton
import triton.language as tl


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def _pair(a, b, c, d):
    return a + c, b + d


@triton.jit
def probe(pi8, pu8, pi16, pi32, pu32, pi64, pf16, pbf16, pf32, pf64, pu16, pu64, pi1, pf8):
    r = tl.arange(0, 4)
    a8 = tl.load(pi8 + r); u8 = tl.load(pu8 + r); a16 = tl.load(pi16 + r); a32 = tl.load(pi32 + r)
    u32 = tl.load(pu32 + r); a64 = tl.load(pi64 + r); h = tl.load(pf16 + r); b = tl.load(pbf16 + r)
    f = tl.load(pf32 + r); d = tl.load(pf64 + r); u16 = tl.load(pu16 + r); u64 = tl.load(pu64 + r)
    s32 = tl.load(pi32); sh = tl.load(pf16); s8 = tl.load(pi8); i1 = a8 < 0; s1 = s8 < 0
    x_f8 = tl.load(pf8 + r)
    tl.static_print(EXPR)
"""
SIGNATURE = "*i8,*u8,*i16,*i32,*u32,*i64,*fp16,*bf16,*fp32,*fp64,*u16,*u64,*i1,*fp8e4nv"

TRITON_COMPILE = """
import importlib.util, sys, triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
spec = importlib.util.spec_from_file_location("probe_module", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
sig = dict(zip(m.probe.arg_names, sys.argv[2].split(",")))
triton.compile(ASTSource(m.probe, sig, {}), target=GPUTarget("cuda", 90, 32))
"""


def expressions():
    with open(os.path.join(TYPES, "exprs.txt")) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def result(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, env=os.environ)
    out = p.stdout.strip().splitlines()
    return out[0].strip() if p.returncode == 0 and out else "ERR"


def probe_all(run, skip=None):
    """run(path) -> result, for each expression's kernel file; skip maps
    expressions to results already known."""
    with tempfile.TemporaryDirectory() as tmp:
        for i, e in enumerate(expressions()):
            if skip and e in skip:
                yield e, skip[e]
                continue
            path = os.path.join(tmp, f"probe{i}.py")
            with open(path, "w") as f:
                f.write(PRELUDE.replace("EXPR", e))
            yield e, run(path)


def recorded():
    path = os.path.join(TYPES, "triton.txt")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return dict(line.rstrip("\n").split(" => ", 1) for line in f if " => " in line)


def record(missing_only=False):
    # a cached kernel skips the front end, and with it static_print
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"
    have = recorded() if missing_only else {}

    def compile_one(path):
        return result([sys.executable, "-c", TRITON_COMPILE, path, SIGNATURE])
    lines = [f"{e} => {r}" for e, r in probe_all(compile_one, skip=have)]
    with open(os.path.join(TYPES, "triton.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return 0


# expressions Triton types and mytriton refuses, each with why; one that
# starts to agree must come off the list (check says so)
KNOWN_GAPS = {}


def mismatches(build):
    """Each expression whose mytriton result differs from Triton's (where
    Triton has one), and each known gap that no longer differs."""
    want = recorded()
    cli = os.path.join(build, "mytriton")
    bad = []
    for e, got in probe_all(lambda p: result([cli, "compile", p, "--kernel", "probe",
                                              "--signature", SIGNATURE, "--emit", "ssa"])):
        if e not in want:
            bad.append(f"{e}: no Triton result recorded (run `record`)")
        elif want[e] != "ERR" and (got != want[e]) != (e in KNOWN_GAPS):
            bad.append(f"{e}: Triton {want[e]}, mytriton {got}" if e not in KNOWN_GAPS
                       else f"{e}: agrees with Triton now; take it off KNOWN_GAPS")
    return bad


def check(build):
    bad = mismatches(build)
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["record"]:
        sys.exit(record(missing_only=sys.argv[2:] == ["--missing"]))
    if sys.argv[1:2] == ["check"] and len(sys.argv) == 3:
        sys.exit(check(sys.argv[2]))
    sys.exit(__doc__)
