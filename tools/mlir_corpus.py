"""The MLIR backend over the whole lit corpus (issue 12), as CI runs it.

For every kernel a tests/lit RUN line compiles (file, kernel, signature,
num-warps), `mytriton compile --emit mlir`: a module the backend accepts
must pass `mlir-opt --verify-each` and lower to PTX (`--backend mlir --emit
ptx`: mlir-opt, mlir-translate, llc); a kernel it refuses must be refused
with a located error, not a crash.  Kernels the compiler itself refuses
(the diagnostics tests) are left out.  Where ptxas is found (PTXAS, PATH,
/usr/local/cuda*/bin), every PTX is also assembled for sm_90, which checks
the PTX as the driver's JIT will.  Usage:
    python3 tools/mlir_corpus.py BUILD_DIR [MLIR_OPT]
"""
import glob
import os
import shutil
import tempfile
import re
import shlex
import subprocess
import sys

RUN = re.compile(r"RUN: %(?:not )?%?mytriton compile %s (.*?)(?:\||2>|$)")


def cases(root):
    seen = set()
    for path in sorted(glob.glob(os.path.join(root, "tests/lit/**/*.py"), recursive=True)):
        for line in open(path, encoding="utf-8"):
            m = RUN.search(line)
            if not m:
                continue
            args = shlex.split(m.group(1))
            keep, i = [], 0
            while i < len(args):
                if args[i] in ("--kernel", "--signature", "--num-warps"):
                    keep += args[i:i + 2]
                i += 2 if args[i].startswith("--") and args[i] != "--debug" else 1
            key = (path, tuple(keep))
            if "--kernel" in keep and key not in seen:
                seen.add(key)
                yield path, keep


def find_ptxas():
    env = os.environ.get("PTXAS")
    if env:
        return env
    found = shutil.which("ptxas") or sorted(glob.glob("/usr/local/cuda*/bin/ptxas"))
    return found if isinstance(found, str) else (found[-1] if found else None)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def main():
    build = sys.argv[1]
    mlir_opt = sys.argv[2] if len(sys.argv) > 2 else "/usr/lib/llvm-19/bin/mlir-opt"
    cli = os.path.join(build, "mytriton")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ptxas = find_ptxas()
    assembled = 0
    accepted, refused, failures = 0, 0, []
    for path, args in cases(root):
        base = [cli, "compile", path] + args
        if run(base + ["--emit", "cuda"]).returncode != 0:
            continue  # a diagnostics test: the compiler refuses it anyway
        r = run(base + ["--emit", "mlir"])
        name = f"{os.path.relpath(path, root)} {' '.join(args)}"
        if r.returncode != 0:
            if not re.search(r":\d+:\d+: error: MLIR", r.stderr):
                failures.append(f"{name}: refused without a located MLIR error:\n{r.stderr}")
            refused += 1
            continue
        v = run([mlir_opt, "--verify-each", "-o", "/dev/null"], input=r.stdout)
        if v.returncode != 0:
            failures.append(f"{name}: mlir-opt --verify-each failed:\n{v.stderr}")
            continue
        p = run(base + ["--backend", "mlir", "--emit", "ptx"])
        if p.returncode != 0 or ".entry" not in p.stdout:
            failures.append(f"{name}: lowering to PTX failed:\n{p.stderr}")
            continue
        if ptxas:
            with tempfile.TemporaryDirectory() as d:
                src = os.path.join(d, "k.ptx")
                with open(src, "w") as f:
                    f.write(p.stdout)
                a = run([ptxas, "-arch=sm_90", src, "-o", os.path.join(d, "k.cubin")])
            if a.returncode != 0:
                failures.append(f"{name}: ptxas refused the PTX:\n{a.stderr}")
                continue
            assembled += 1
        accepted += 1
    print(f"mlir corpus: {accepted} kernels verified and lowered to PTX, {refused} refused "
          f"with a located error, {len(failures)} failures; "
          + (f"{assembled} assembled by {ptxas}" if ptxas else "no ptxas here: PTX not assembled"))
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
