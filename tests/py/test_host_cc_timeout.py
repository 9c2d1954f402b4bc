"""The host C++ compiler runs under a time limit (issue 15, item 2):
MYTRITON_HOST_CC_TIMEOUT seconds, 300 by default; past it the compiler
and everything it started are killed and the build fails saying so (a RuntimeError, as every host compiler
failure is; not a LaunchError: nothing was launched)."""
import os
import time

import pytest
import torch

import mytriton as triton
import mytriton.language as tl


@triton.jit
def stamp(out, V: tl.constexpr):
    tl.store(out, V)


def _fresh_value():
    # a constant no earlier run compiled, so the cache cannot answer
    return float(time.time_ns() % 10**12) + os.getpid() * 1e-3


def test_tiny_timeout_fails_clearly(monkeypatch):
    monkeypatch.setenv("MYTRITON_HOST_CC_TIMEOUT", "0.001")
    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match=r"timed out after 0\.001 s.*MYTRITON_HOST_CC_TIMEOUT") as info:
        stamp[(1,)](torch.zeros(1), V=_fresh_value())
    assert not isinstance(info.value, triton.LaunchError)
    assert time.monotonic() - t0 < 30
    # the default limit builds the same kernel
    monkeypatch.delenv("MYTRITON_HOST_CC_TIMEOUT")
    v = _fresh_value()
    out = torch.zeros(1, dtype=torch.float64)
    stamp[(1,)](out, V=v)
    assert out.item() == pytest.approx(v, rel=1e-6)


def test_hung_compiler_is_killed(monkeypatch, tmp_path):
    # a "compiler" that never finishes, with a child of its own holding the
    # output pipe: the whole process group must go
    fake = tmp_path / "hang-cxx"
    pidfile = tmp_path / "sleeper.pid"
    fake.write_text(f"#!/bin/sh\nsleep 600 &\necho $! > {pidfile}\nwait\n")
    fake.chmod(0o755)
    monkeypatch.setenv("MYTRITON_HOST_CXX", str(fake))
    monkeypatch.setenv("MYTRITON_HOST_CC_TIMEOUT", "1")
    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match="timed out after 1 s and was killed"):
        stamp[(1,)](torch.zeros(1), V=_fresh_value())
    assert time.monotonic() - t0 < 30
    sleeper = int(pidfile.read_text())
    for _ in range(100):
        try:
            os.kill(sleeper, 0)
        except ProcessLookupError:
            break
        # a zombie until its parent (now init) reaps it: check its state
        with open(f"/proc/{sleeper}/stat") as fh:
            if fh.read().split(")")[-1].split()[0] == "Z":
                break
        time.sleep(0.05)
    else:
        os.kill(sleeper, 9)
        pytest.fail("the compiler's child was left running")


@pytest.mark.parametrize("bad", ["0", "-5", "soon", "inf", "1e12"])
def test_bad_timeout_is_named(monkeypatch, bad):
    monkeypatch.setenv("MYTRITON_HOST_CC_TIMEOUT", bad)
    with pytest.raises(RuntimeError, match="MYTRITON_HOST_CC_TIMEOUT='"):
        stamp[(1,)](torch.zeros(1), V=_fresh_value())
