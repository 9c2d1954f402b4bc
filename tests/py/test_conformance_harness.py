"""tools/conformance/run.py, the harness that runs Triton's test_core.py
against mytriton (issue 17), checked on a small suite of our own: every
outcome is recorded, a test that kills its process or runs past the
timeout is named and the run goes on after it, and the report groups
failures by first error line."""
import json
import os
import subprocess
import sys
import textwrap

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
RUN = os.path.join(ROOT, "tools", "conformance", "run.py")

SUITE = textwrap.dedent('''
    import os
    import time

    import pytest
    import triton
    import triton.language as tl


    def test_pass():
        assert triton.__name__ == "mytriton" and tl.float16.name == "fp16"


    @pytest.mark.parametrize("n", [1, 2])
    def test_fail(n):
        raise NotImplementedError(f"not supported: feature {n}")


    def test_wrong_value():
        assert 1 + 1 == 3


    def test_skip():
        pytest.skip("not here")


    def test_crash():
        os._exit(3)


    def test_hang():
        time.sleep(60)


    def test_after():
        pass
''')


def run_suite(tmp_path, *options):
    """run.py run on SUITE with these options: its output and results file."""
    tests = tmp_path / "test_core.py"
    tests.write_text(SUITE)
    out = tmp_path / "results.jsonl"
    p = subprocess.run([sys.executable, RUN, "run", "--tests", str(tests), "--impl", "mytriton",
                        "--device", "cpu", *options, "--out", str(out)],
                       capture_output=True, text=True, timeout=240)
    assert p.returncode == 0, p.stdout + p.stderr
    return p, out


def test_run_and_report(tmp_path):
    p, out = run_suite(tmp_path, "--timeout", "5")
    res = {json.loads(l)["test"].split("::")[1]: json.loads(l) for l in out.read_text().splitlines()}
    assert {k: v["outcome"] for k, v in res.items()} == {
        "test_pass": "passed", "test_fail[1]": "failed", "test_fail[2]": "failed",
        "test_wrong_value": "failed", "test_skip": "skipped", "test_crash": "crash",
        "test_hang": "timeout", "test_after": "passed"}
    assert res["test_fail[1]"]["first_error"] == "NotImplementedError: not supported: feature 1"
    report = subprocess.run([sys.executable, RUN, "report", f"mytriton-host={out}",
                             f"anchor={out}"], capture_output=True, text=True, check=True).stdout
    assert "| mytriton-host | 8 | 2 | 3 | 0 | 1 | 0 | 0 | 1 | 1 |" in report
    assert "| 2 | `NotImplementedError: not supported: feature N` |" in report
    assert "1 fail on a compared value (AssertionError)" in report
    assert "- `test_core.py::test_wrong_value`" in report
    assert "mytriton-host on the tests `anchor` passes: 2 of 2 (100.0%)" in report


def test_keyword_selects_tests(tmp_path):
    """-k EXPR runs only the tests pytest's -k selects (one feature's
    tests, e.g. -k test_scaled_dot), in collection and in the runs."""
    p, out = run_suite(tmp_path, "-k", "test_fail or test_after")
    got = {json.loads(l)["test"].split("::")[1]: json.loads(l)["outcome"]
           for l in out.read_text().splitlines()}
    assert got == {"test_fail[1]": "failed", "test_fail[2]": "failed", "test_after": "passed"}
    assert "3 tests to run" in p.stdout
