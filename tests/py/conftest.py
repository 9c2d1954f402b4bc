"""pytest configuration for the Python package: the `device` fixture runs
numeric tests on the host backend ("cpu": torch CPU tensors) always and on
"cuda" when torch sees a GPU.  MYTRITON_REQUIRE_CUDA=1 turns a missing GPU
into a failure instead of a skip."""
import os

import pytest
import torch


def _device_params():
    devices = ["cpu"]
    if torch.cuda.is_available() or os.environ.get("MYTRITON_REQUIRE_CUDA") == "1":
        devices.append("cuda")
    return devices


@pytest.fixture(params=_device_params())
def device(request):
    if request.param == "cuda" and not torch.cuda.is_available():
        pytest.fail("MYTRITON_REQUIRE_CUDA=1 but torch.cuda.is_available() is False")
    return request.param


@pytest.fixture
def cuda_device():
    if not torch.cuda.is_available():
        if os.environ.get("MYTRITON_REQUIRE_CUDA") == "1":
            pytest.fail("MYTRITON_REQUIRE_CUDA=1 but CUDA is not available")
        pytest.skip("needs a CUDA device")
    return "cuda"
