"""A cache that verifies what it loads (issue 15, item 3), from Python:
the truncation and bit-flip sweep of tests/cache_sweep.py, and the
once-per-process warning when the cache is refused as untrusted."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

WARN_CHILD = r"""
import warnings, torch
import mytriton as triton
import mytriton.language as tl

@triton.jit
def put(out, V: tl.constexpr):
    tl.store(out, V)

with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    for v in (1.0, 2.0, 3.0):
        out = torch.zeros(1)
        put[(1,)](out, V=v)
        assert out.item() == v, out
print(sum("kernel cache directory" in str(w.message) and w.category is RuntimeWarning
          for w in seen))
"""


def _env(cache):
    return dict(os.environ, MYTRITON_CACHE_DIR=str(cache),
                PYTHONPATH=os.path.join(ROOT, "python"))


def test_cache_sweep_no_crash_no_wrong_result():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "cache_sweep.py"), "--quick"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.rstrip().endswith("ok")


def _warnings_seen(tmp_path, mode):
    cache = tmp_path / "cache"
    cache.mkdir()
    cache.chmod(mode)
    child = tmp_path / "child.py"
    child.write_text(WARN_CHILD)
    r = subprocess.run([sys.executable, str(child)], env=_env(cache), capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return int(r.stdout.split()[-1])


def test_untrusted_cache_warns_once_per_process(tmp_path):
    assert _warnings_seen(tmp_path, 0o777) == 1


def test_trusted_cache_does_not_warn(tmp_path):
    assert _warnings_seen(tmp_path, 0o700) == 0
