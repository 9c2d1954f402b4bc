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


# CPU launches run on the cpu backend (issue 18) unless MYTRITON_BACKEND is
# fiber (or host): `make test-py` runs the suite on the fiber backend (the
# CUDA C path without a GPU), `make test-py-cpu` on the cpu backend.  These
# tests check what only the fiber backend has, each for the reason given:
# they run in the fiber pass, and on the cpu backend they would test
# something it does not have.
FIBER_ONLY = {
    "test_debug.py::test_device_print_scalar_every_thread":
        "every CUDA thread prints its copy; the cpu backend's one program prints once",
    "test_debug.py::test_device_print_operands_and_no_operand":
        "every CUDA thread prints its copy; the cpu backend's one program prints once",
    "test_debug.py::test_device_print_2d_and_replicas":
        "replicated elements print once per holding thread on the fiber backend",
    "test_debug.py::test_device_assert_fails_the_launch_in_debug_mode":
        "names the failing CUDA thread ([5,0,0]); the cpu backend has one thread per program",
    "test_launch_error.py::test_host_launch_failure_is_a_launch_error":
        "fiber stacks that cannot be mapped: the cpu backend has no fibers",
    "test_host_cc_timeout.py::test_hung_compiler_is_killed":
        "hangs the fiber backend's C++ compiler (MYTRITON_HOST_CXX); the cpu backend's is cc",
    "test_autotune.py::test_a_config_out_of_resources_times_as_infinity":
        "a block of 65536 elements on one warp is out of a CUDA thread's registers; the cpu "
        "backend keeps whole tiles in memory, so no config is out of resources there",
    "test_cache_verify.py::test_cache_sweep_no_crash_no_wrong_result":
        "damages the fiber backend's objects (<cache>/host); the cpu backend shares that code",
}


def pytest_collection_modifyitems(config, items):
    if os.environ.get("MYTRITON_BACKEND") in ("fiber", "host"):
        return
    for item in items:
        name = item.nodeid.split("/")[-1].split("[")[0]
        params = getattr(item, "callspec", None)
        device = params.params.get("device", "cpu") if params else "cpu"
        if name in FIBER_ONLY and device == "cpu":  # a GPU variant runs as ever
            item.add_marker(pytest.mark.skip(reason="fiber backend only: " + FIBER_ONLY[name]))
