"""pytest configuration for the Python package: the `device` fixture runs
numeric tests on the host backend ("cpu": torch CPU tensors) always and on
"cuda" when torch sees a GPU.  MYTRITON_REQUIRE_CUDA=1 turns a missing GPU
into a failure instead of a skip.  MYTRITON_TEST_DEVICE=cuda:1 puts the
CUDA half on that device (issue 14: the suite on a second GPU); it must
exist."""
import os

import pytest
import torch

# "cuda" (torch's current device) or "cuda:N"
CUDA_TEST_DEVICE = os.environ.get("MYTRITON_TEST_DEVICE", "cuda")


def _device_params():
    devices = ["cpu"]
    if torch.cuda.is_available() or os.environ.get("MYTRITON_REQUIRE_CUDA") == "1":
        devices.append(CUDA_TEST_DEVICE)
    return devices


def _check_cuda():
    if not torch.cuda.is_available():
        return "CUDA is not available"
    dev = torch.device(CUDA_TEST_DEVICE)
    if dev.type != "cuda":
        return f"MYTRITON_TEST_DEVICE={CUDA_TEST_DEVICE!r} is not a CUDA device"
    if dev.index is not None and dev.index >= torch.cuda.device_count():
        return (f"MYTRITON_TEST_DEVICE={CUDA_TEST_DEVICE!r} but torch sees "
                f"{torch.cuda.device_count()} GPU(s)")
    return None


@pytest.fixture(params=_device_params())
def device(request):
    if request.param != "cpu" and _check_cuda():
        pytest.fail(_check_cuda())
    return request.param


@pytest.fixture
def cuda_device():
    problem = _check_cuda()
    if problem:
        if os.environ.get("MYTRITON_REQUIRE_CUDA") == "1" or torch.cuda.is_available():
            pytest.fail(problem)
        pytest.skip("needs a CUDA device")
    return CUDA_TEST_DEVICE
