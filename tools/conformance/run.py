"""Triton's language test suite as mytriton's conformance yardstick.

    run.py tests [--mirror DIR] [--commit C] OUT.py
        writes Triton's test_core.py at commit C (default 004d7f5) out of a
        fetched Triton git directory (never committed to this project)
    run.py run --tests test_core.py --impl mytriton|triton --device cpu|cuda
               [--sample N] [--timeout S] [--interpreter] [-k EXPR] --out results.jsonl
        runs the file under our conftest.py (tools/conformance), in a
        scratch directory, one pytest process after another until every
        test has an outcome: a test that kills its process or runs past
        --timeout seconds is recorded as crash/timeout and the run goes on
        after it
    run.py report --commit C [--sample N] NAME=results.jsonl ... > CONFORMANCE.md
        the counts of every run side by side, then each run's failures
        grouped by first error line

Outcomes: passed, failed, error (setup/teardown), skipped, xfail, xpass,
crash, timeout.  Every test that mytriton fails with an AssertionError (a
value differs from the reference) is listed by name: those are wrong
values, never acceptable, and the report says so.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
DEFAULT_COMMIT = "004d7f5"
DEFAULT_MIRROR = "/work/.mirror/lightseekorg+triton/repo"
TEST_PATH = "python/test/unit/language/test_core.py"


def cmd_tests(a):
    text = subprocess.run(["git", "-C", a.mirror, "show", f"{a.commit}:{TEST_PATH}"],
                          check=True, capture_output=True, text=True).stdout
    with open(a.out, "w") as f:
        f.write(text)
    print(f"wrote {a.out} ({text.count(chr(10))} lines) from {a.commit}")


def read_log(path):
    recs = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                try:
                    recs.append(json.loads(line))
                except json.JSONDecodeError:
                    pass  # a line cut short by a killed process
    return recs


def pytest_env(a, log):
    env = dict(os.environ, MT_IMPL=a.impl, MT_LOG=log, MT_SAMPLE=str(a.sample),
               MT_TEST_TIMEOUT=str(a.timeout), PYTHONUNBUFFERED="1",
               PYTHONPATH=os.path.join(ROOT, "python") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if a.interpreter:
        env["TRITON_INTERPRET"] = "1"
    return env


def selection(a):
    """pytest's options that choose the tests: the same for collection and runs."""
    return ((["-m", "interpreter"] if a.interpreter else [])
            + (["-k", a.keyword] if a.keyword else []))


def collect(a, work, env):
    p = subprocess.run([a.python, "-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider",
                        "test_core.py", f"--device={a.device}"] + selection(a),
                       cwd=work, env=env, capture_output=True, text=True)
    ids = [l.strip() for l in p.stdout.splitlines() if "::" in l and not l.startswith(" ")]
    if not ids:
        sys.stderr.write(p.stdout[-4000:] + p.stderr[-4000:])
        raise SystemExit("run.py: no tests collected")
    return ids


def cmd_run(a):
    work = a.work or tempfile.mkdtemp(prefix="mt-conformance-")
    os.makedirs(work, exist_ok=True)
    shutil.copy(a.tests, os.path.join(work, "test_core.py"))
    for f in ("conftest.py", "internal_testing.py"):
        shutil.copy(os.path.join(HERE, f), work)
    log = os.path.join(work, "log.jsonl")
    env = pytest_env(a, log)
    ids = collect(a, work, env)
    print(f"{len(ids)} tests to run", flush=True)
    outcomes = {}
    while True:
        left = [i for i in ids if i not in outcomes]
        if not left:
            break
        only = os.path.join(work, "only.txt")
        with open(only, "w") as f:
            f.write("\n".join(left) + "\n")
        open(log, "a").close()
        t0 = time.time()
        proc = subprocess.run([a.python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               "test_core.py", f"--device={a.device}"]
                              + selection(a)
                              + (["-n", str(a.workers)] if a.workers > 1 else []),
                              cwd=work, env=dict(env, MT_ONLY=only),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        started, finished = None, set()
        for r in read_log(log):
            if "start" in r:
                started = (r["start"], r.get("t", t0))
            elif "finish" in r:
                finished.add(r["finish"])
            elif "test" in r and r["test"] not in outcomes:
                outcomes[r["test"]] = r
        died = a.workers <= 1 and started is not None and started[0] not in finished
        if died:
            tid = started[0]
            secs = time.time() - started[1]
            kind = "timeout" if a.timeout and secs >= a.timeout - 1 else "crash"
            tail = (proc.stderr or "").strip().splitlines()[-3:]
            outcomes[tid] = {"test": tid, "outcome": kind, "seconds": round(secs, 1),
                             "first_error": f"{kind} (exit {proc.returncode}): " + " | ".join(tail)}
            print(f"{kind}: {tid}", flush=True)
        elif [i for i in ids if i not in outcomes]:
            # pytest ended without running them (e.g. a collection error):
            # record the rest as errors with what it said.
            msg = (proc.stderr or "").strip().splitlines()[-1:] or ["pytest ended early"]
            for i in ids:
                outcomes.setdefault(i, {"test": i, "outcome": "error", "first_error": msg[0]})
    with open(a.out, "w") as f:
        for i in ids:
            f.write(json.dumps(outcomes[i]) + "\n")
    counts = collections.Counter(r["outcome"] for r in outcomes.values())
    print(" ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)


# The named missing feature behind a first error line (the issue that will
# bring it); a line that matches none is its own group.
FEATURES = [
    (r"unsupported tensor dtype|tensor as a kernel argument \(triton.reinterpret\)"
     r"|dtype \w+ is not supported yet|tl\.(float16|bfloat16|float64|int8|int16|uint\d+)\b",
     "dtypes beyond bool/i32/i64/f32 (issue 8)"),
    (r"tl\.(associative_scan|cumsum|cumprod|histogram|sort|gather|cat|permute|trans|reshape|"
     r"join|split|interleave|rand\w*|argmin|argmax|reduce|clamp|fma|umulhi|erf|"
     r"\w+_rn|device_assert|inline_asm_elementwise|map_elementwise|extra|math)\b",
     "language builtins (issue 9)"),
    (r"tl\.atomic_\w+|atomic", "atomics (issue 9)"),
    (r"stored value must be convertible|fallback must be convertible|dtype of a pointer|"
     r"unknown type 'float|attribute 'reinterpret'",
     "dtype conversions and pointer dtypes (issue 8)"),
    (r"runtime loop step", "runtime control flow (issue 9)"),
    (r"is_one|@jit\((repr|debug|noinline|launch_metadata)=",
     "@jit options repr, debug, noinline, launch_metadata"),
    (r"runtime value is not supported|while loops|runtime if|break|continue",
     "runtime control flow (issue 9)"),
    (r"make_tensor_descriptor|tensor descriptor|TMA|Descriptor block shape",
     "tensor descriptors (TMA)"),
    (r"shared memory, more than", "shared memory beyond the 48 KiB budget (issue 10)"),
    (r"dot expects|tl\.dot_scaled|input_precision", "tensor-core and batched dots (issue 10)"),
    (r"blocks of rank|block<\d+x\d+x\d+", "blocks of rank 3 and above"),
    (r"KeyError: 'tt(g)?ir'|triton\.language\.core",
     "Triton's internal IR stages and modules (ttir, ttgir, triton.language.core)"),
    (r"cannot reinterpret a tensor as|float8e4b15", "dtypes fp8e4b15 (issue 8)"),
    (r"name 'getattr' is not defined", "Python builtins in kernels (getattr)"),
    (r"\w+ is not supported|return_indices|has no attribute 'T'|tl\.const\b|"
     r"attribute 'const'|'int' object has no attribute",
     "language builtins (issue 9)"),
    (r"Regex pattern did not match", "error messages that differ from Triton's"),
]


def feature_of(msg: str) -> str | None:
    for pattern, name in FEATURES:
        if re.search(pattern, msg):
            return name
    return None


def normalise(msg: str) -> str:
    msg = re.sub(r"0x[0-9a-f]+", "0x…", msg)
    msg = re.sub(r"/[^\s:'\"]+/", "…/", msg)
    msg = re.sub(r"\d+", "N", msg)
    return msg[:160]


def cmd_report(a):
    runs = []
    for spec in a.results:
        name, path = spec.split("=", 1)
        runs.append((name, {r["test"]: r for r in read_log(path)}))
    kinds = ["passed", "failed", "error", "skipped", "xfail", "xpass", "crash", "timeout"]
    out = [f"# Conformance: Triton's test_core.py", "",
           f"Triton commit {a.commit}, python/test/unit/language/test_core.py"
           + (f", a 1-in-{a.sample} sample (tests whose node id hashes to 0 mod {a.sample})"
              if a.sample > 1 else "") + ".",
           f"Made by `python3 tools/conformance/run.py report` on {time.strftime('%Y-%m-%d')}; "
           "how each run was made: tools/conformance/results/README.md.", "",
           "| run | tests | " + " | ".join(kinds) + " |",
           "|---|---|" + "---|" * len(kinds)]
    for name, res in runs:
        c = collections.Counter(r["outcome"] for r in res.values())
        out.append(f"| {name} | {len(res)} | " + " | ".join(str(c.get(k, 0)) for k in kinds) + " |")
    ours = [(n, r) for n, r in runs if n.startswith("mytriton")]
    anchors = [(n, r) for n, r in runs if not n.startswith("mytriton")]
    if ours and anchors:
        out += ["", "Of the tests each anchor passes, how many mytriton passes too:", ""]
        for aname, ares in anchors:
            passed = {t for t, r in ares.items() if r["outcome"] == "passed"}
            for oname, ores in ours:
                both = sum(1 for t in passed if ores.get(t, {}).get("outcome") == "passed")
                pct = 100.0 * both / len(passed) if passed else 0.0
                out.append(f"- {oname} on the tests `{aname}` passes: {both} of {len(passed)} "
                           f"({pct:.1f}%)")
    for name, res in runs:
        if not name.startswith("mytriton"):
            continue
        groups = collections.defaultdict(list)
        features = collections.Counter()
        for t, r in res.items():
            if r["outcome"] in ("failed", "error", "crash", "timeout"):
                msg = r.get("first_error", "?")
                groups[normalise(msg)].append(t)
                features[feature_of(msg) or "other: " + normalise(msg)] += 1
        wrong = sorted(t for t, r in res.items() if r["outcome"] == "failed"
                       and r.get("exception") == "AssertionError")
        out += ["", f"## {name}: failures by missing feature", "",
                "| tests | feature |", "|---|---|"]
        for feat, n in sorted(features.items(), key=lambda kv: (kv[0].startswith("other"), -kv[1])):
            out.append(f"| {n} | {feat.replace('|', '/')} |")
        out += ["", f"## {name}: failures by first error line", "",
                f"{sum(len(v) for v in groups.values())} failing tests in {len(groups)} groups; "
                f"{len(wrong)} fail on a compared value (AssertionError).", "",
                "| tests | first error line |", "|---|---|"]
        for msg, ts in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            out.append(f"| {len(ts)} | `{msg.replace('|', '/')}` |")
        if wrong:
            out += ["", "Tests failing on a compared value (a wrong number, or a message or name "
                        "that differs from Triton's: the line says which):", ""]
            out += [f"- `{t}`: `{res[t].get('first_error', '?')}`" for t in wrong]
    print("\n".join(out))


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("tests")
    t.add_argument("--mirror", default=DEFAULT_MIRROR)
    t.add_argument("--commit", default=DEFAULT_COMMIT)
    t.add_argument("out")
    r = sub.add_parser("run")
    r.add_argument("--tests", required=True)
    r.add_argument("--impl", choices=["mytriton", "triton"], default="mytriton")
    r.add_argument("--device", default="cpu")
    r.add_argument("--sample", type=int, default=1)
    r.add_argument("--timeout", type=float, default=120)
    r.add_argument("--interpreter", action="store_true")
    r.add_argument("-k", dest="keyword", help="pytest's -k expression: only the tests it selects")
    r.add_argument("--python", default=sys.executable)
    r.add_argument("--workers", type=int, default=1,
                   help="pytest-xdist processes (a dying worker's test is then not named)")
    r.add_argument("--out", required=True)
    r.add_argument("--work", help="scratch directory, kept (its log.jsonl holds every outcome "
                                  "so far, should the run be cut short)")
    s = sub.add_parser("report")
    s.add_argument("--commit", default=DEFAULT_COMMIT)
    s.add_argument("--sample", type=int, default=1)
    s.add_argument("results", nargs="+")
    a = p.parse_args(argv)
    {"tests": cmd_tests, "run": cmd_run, "report": cmd_report}[a.cmd](a)


if __name__ == "__main__":
    main(sys.argv[1:])
