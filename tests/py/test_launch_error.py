"""Launch and runtime failures raise mytriton.LaunchError (issue 15, item
2), a RuntimeError and a TritonError, never CompilationError."""
import os
import subprocess
import sys

import pytest
import torch

import mytriton as triton
import mytriton.language as tl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_launch_error_is_a_runtime_error():
    assert issubclass(triton.LaunchError, RuntimeError)
    assert issubclass(triton.LaunchError, triton.TritonError)
    assert not issubclass(triton.LaunchError, triton.CompilationError)
    assert triton.LaunchError.__module__ == "mytriton"
    assert "LaunchError" in triton.__all__


@triton.jit(debug=True)
def checked(X):
    v = tl.load(X + tl.program_id(0))
    tl.device_assert(v < 5, "big")


def test_device_assertion_is_a_launch_error(monkeypatch):
    monkeypatch.delenv("TRITON_DEBUG", raising=False)
    with pytest.raises(triton.LaunchError, match="Assertion `big`") as info:
        checked[(2,)](torch.tensor([0, 7], dtype=torch.int32))
    assert info.value.status == "MT_ERR_ASSERT"
    checked[(2,)](torch.tensor([0, 1], dtype=torch.int32))  # still usable


# The child: a compiled kernel whose launch cannot map its fiber stacks
# (the address space is capped after compiling); the issue saw such host
# launch failures raised as CompilationError.
CHILD = r"""
import resource, torch
import mytriton as triton
import mytriton.language as tl

@triton.jit
def total(X, out, BLOCK: tl.constexpr):
    tl.store(out, tl.sum(tl.load(X + tl.arange(0, BLOCK)), axis=0))

x, out = torch.ones(1024), torch.zeros(1)
total.warmup(x, out, BLOCK=1024, num_warps=8, grid=(1,))
with open("/proc/self/status") as fh:
    vm = next(int(l.split()[1]) for l in fh if l.startswith("VmSize:")) * 1024
resource.setrlimit(resource.RLIMIT_AS, (vm + (32 << 20), resource.RLIM_INFINITY))
try:
    total[(1,)](x, out, BLOCK=1024, num_warps=8)
except triton.LaunchError as e:
    print("LaunchError", e.status, str(e).splitlines()[0])
except triton.CompilationError as e:
    print("CompilationError", e)
else:
    print("launched")
"""


def test_host_launch_failure_is_a_launch_error(tmp_path):
    child = tmp_path / "child.py"
    child.write_text(CHILD)
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    r = subprocess.run([sys.executable, str(child)], env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("LaunchError MT_ERR_RESOURCE error: host launch failed"), r.stdout
    assert "fiber stacks" in r.stdout
