"""Several devices (issue 14): a launch runs on its tensor arguments'
device, on that device's current torch stream and primary context; mixed
devices are a located error; a kernel loads one module per device; threads
may launch on different devices at once.

Three layers:
  - host tests, always: the mixed-device errors (cpu, meta, fake CUDA
    arrays), threads launching on the host backend;
  - fake-driver tests, always: a child process whose libcuda.so.1 and
    libnvrtc.so are tests/py/fake_cuda.c (two fake devices, modules bound
    to contexts, launches that fail on a context or pointer of another
    device), which runs the whole CUDA launch path without a GPU;
  - GPU tests, where torch sees CUDA: every visible device, torch's current
    device left alone, a side stream honoured, one thread per GPU.
"""
import ctypes
import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)


# ----------------------------------------------------------- fake arrays

class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _DLManaged(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_DLTENSOR = b"dltensor"


class FakeCudaArray:
    """n float32 on CUDA device `device`, as a DLPack producer: memory the
    fake driver attributes to that device ((device + 1) << 40 and up); no
    real memory behind it, so only the fake driver may launch on it."""

    def __init__(self, device, n, offset=0):
        self.device, self.n = device, n
        self.addr = ((device + 1) << 40) + offset
        self._keep = []

    def __dlpack_device__(self):
        return (2, self.device)

    def __dlpack__(self, stream=None):
        shape = (ctypes.c_int64 * 1)(self.n)
        m = _DLManaged()
        m.dl_tensor.data = self.addr
        m.dl_tensor.device = _DLDevice(2, self.device)
        m.dl_tensor.ndim = 1
        m.dl_tensor.dtype = _DLDataType(2, 32, 1)
        m.dl_tensor.shape = shape
        self._keep += [shape, m]
        return _capsule_new(ctypes.addressof(m), _DLTENSOR, None)


class FakeCaiArray:
    """The same memory behind a __cuda_array_interface__, which does not
    say which device it is on: the driver is asked."""

    def __init__(self, device, n):
        self.__cuda_array_interface__ = {"shape": (n,), "typestr": "<f4",
                                         "data": (((device + 1) << 40), False), "version": 3}


# ----------------------------------------------------------- host tests

def test_cpu_and_cuda_arguments_are_a_located_error():
    x = torch.zeros(16)
    with pytest.raises(TypeError) as e:
        add_kernel[(1,)](x, FakeCudaArray(1, 16), x, 16, BLOCK=16)
    msg = str(e.value)
    assert msg.startswith("add_kernel(): all tensors must be on the same device"), msg
    assert "argument 'y' is on cuda:1 but argument 'x' is on cpu" in msg, msg


def test_two_cuda_devices_are_a_located_error():
    a, b = FakeCudaArray(0, 16), FakeCudaArray(1, 16)
    with pytest.raises(TypeError, match=r"argument 'out' is on cuda:1 but argument 'x' is "
                                        r"on cuda:0"):
        add_kernel[(1,)](a, a, b, 16, BLOCK=16)
    with pytest.raises(TypeError, match=r"argument 'y' is on cpu but argument 'x' is on cuda:0"):
        add_kernel[(1,)](a, np.zeros(16, np.float32), a, 16, BLOCK=16)


def test_meta_tensor_is_refused_with_its_argument():
    x = torch.zeros(16)
    with pytest.raises(TypeError, match=r"argument 'out': tensors must be on the CPU or a CUDA "
                                        r"device, got device meta"):
        add_kernel[(1,)](x, x, torch.empty(16, device="meta"), 16, BLOCK=16)


def test_threads_launch_at_once_on_the_host_backend():
    n, rounds, nthreads = 300, 20, 4
    data = [(torch.rand(n), torch.rand(n), torch.empty(n)) for _ in range(nthreads)]
    errors = []
    start = threading.Barrier(nthreads)

    def work(i):
        try:
            x, y, out = data[i]
            start.wait()
            for r in range(rounds):
                out.zero_()
                add_kernel[(triton.cdiv(n, 128),)](x, y, out, n, BLOCK=128)
                torch.testing.assert_close(out, x + y)
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(nthreads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


# ----------------------------------------------------------- fake driver

@pytest.fixture(scope="module")
def fake_driver(tmp_path_factory):
    d = tmp_path_factory.mktemp("fakecuda")
    lib = d / "libcuda.so.1"
    subprocess.run(["cc", "-std=c11", "-O1", "-shared", "-fPIC", "-o", str(lib),
                    os.path.join(HERE, "fake_cuda.c"), "-lpthread"], check=True)
    os.symlink(lib, d / "libnvrtc.so")
    return d


def run_fake(fake_driver, tmp_path, body, **env):
    """Runs body (Python) in a child that sees the fake driver, with
    helpers: fake (the library), FakeCudaArray, add_kernel, a fake `torch`
    module whose current stream of device d is 0x1000 + d."""
    prelude = textwrap.dedent(f"""
        import ctypes, sys, threading, types
        sys.path.insert(0, {HERE!r})
        torch = types.ModuleType("torch")
        torch.Tensor = type("Tensor", (), {{}})
        torch._C = types.SimpleNamespace(_cuda_getCurrentRawStream=lambda d: 0x1000 + d)
        sys.modules["torch"] = torch
        import mytriton as triton
        from test_multi_device import FakeCaiArray, FakeCudaArray, add_kernel
        fake = ctypes.CDLL("libcuda.so.1")
        fake.fake_last_arch.restype = ctypes.c_char_p
        fake.fake_last_stream.restype = ctypes.c_uint64
    """)
    full_env = dict(os.environ, LD_LIBRARY_PATH=str(fake_driver),
                    MYTRITON_CACHE_DIR=str(tmp_path / "cache"),
                    PYTHONPATH=os.path.join(ROOT, "python"), **env)
    r = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(body)], env=full_env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_fake_launch_runs_on_the_tensors_device(fake_driver, tmp_path):
    run_fake(fake_driver, tmp_path, """
        assert triton._C.cuda_available()
        fake.fake_set_current_device(0)
        a = FakeCudaArray(1, 64)
        add_kernel[(1,)](a, a, a, 64, BLOCK=64)
        # on device 1, its module loaded there, on its torch stream
        assert (fake.fake_launches(0), fake.fake_launches(1)) == (0, 1)
        assert (fake.fake_modules(0), fake.fake_modules(1)) == (0, 1)
        assert fake.fake_last_stream(1) == 0x1001
        # the caller's context is current again
        assert fake.fake_current_device() == 0
        b = FakeCudaArray(0, 64)
        for _ in range(3):
            add_kernel[(1,)](b, b, b, 64, BLOCK=64)
            add_kernel[(1,)](a, a, a, 64, BLOCK=64)
        # one module per device, however many launches
        assert (fake.fake_modules(0), fake.fake_modules(1)) == (1, 1)
        assert (fake.fake_launches(0), fake.fake_launches(1)) == (3, 4)
        assert fake.fake_last_stream(0) == 0x1000
        assert fake.fake_bad_launches() == 0
        # one architecture: one NVRTC compile serves both devices
        assert fake.fake_compiles() == 1 and fake.fake_last_arch() == b"sm_90"

        # a thread with no current context keeps none
        def other():
            assert fake.fake_current_device() == -1
            add_kernel[(1,)](a, a, a, 64, BLOCK=64)
            assert fake.fake_current_device() == -1
        t = threading.Thread(target=other)
        t.start(); t.join()
        assert fake.fake_launches(1) == 5 and fake.fake_bad_launches() == 0
        print("ok")
    """)


def test_fake_devices_of_two_architectures_compile_apart(fake_driver, tmp_path):
    run_fake(fake_driver, tmp_path, """
        a, b = FakeCudaArray(0, 64), FakeCudaArray(1, 64)
        fake.fake_set_current_device(1)   # the current device must not decide
        add_kernel[(1,)](a, a, a, 64, BLOCK=64)
        assert fake.fake_compiles() == 1 and fake.fake_last_arch() == b"sm_90"
        add_kernel[(1,)](b, b, b, 64, BLOCK=64)
        assert fake.fake_compiles() == 2 and fake.fake_last_arch() == b"sm_80"
        k = add_kernel.warmup(b, b, b, 64, BLOCK=64)
        assert fake.fake_compiles() == 2
        assert fake.fake_bad_launches() == 0
        assert (fake.fake_launches(0), fake.fake_launches(1)) == (1, 1)
    """, FAKE_CUDA_ARCHS="90,80")


def test_fake_threads_launch_on_different_devices_at_once(fake_driver, tmp_path):
    run_fake(fake_driver, tmp_path, """
        ndev, nthreads, rounds = 4, 8, 200
        errors = []
        start = threading.Barrier(nthreads)
        def work(i):
            try:
                dev = i % ndev
                a = FakeCudaArray(dev, 64)
                start.wait()
                for _ in range(rounds):
                    add_kernel[(1,)](a, a, a, 64, BLOCK=64)
                assert fake.fake_current_device() == -1
            except BaseException as e:
                errors.append(e)
        ts = [threading.Thread(target=work, args=(i,)) for i in range(nthreads)]
        for t in ts: t.start()
        for t in ts: t.join()
        assert not errors, errors
        per = nthreads // ndev * rounds
        assert [fake.fake_launches(d) for d in range(ndev)] == [per] * ndev
        assert [fake.fake_modules(d) for d in range(ndev)] == [1] * ndev
        assert fake.fake_bad_launches() == 0
    """, FAKE_CUDA_DEVICES="4")


def test_fake_cuda_array_interface_finds_its_device(fake_driver, tmp_path):
    run_fake(fake_driver, tmp_path, """
        c = FakeCaiArray(1, 64)
        add_kernel[(1,)](c, c, c, 64, BLOCK=64)
        assert (fake.fake_launches(0), fake.fake_launches(1)) == (0, 1)
        try:
            add_kernel[(1,)](c, FakeCudaArray(0, 64), c, 64, BLOCK=64)
        except TypeError as e:
            assert "argument 'y' is on cuda:0 but argument 'x' is on cuda:1" in str(e), e
        else:
            raise AssertionError("mixed devices launched")
        assert fake.fake_bad_launches() == 0
    """)


def test_fake_missing_device_is_a_clear_error(fake_driver, tmp_path):
    run_fake(fake_driver, tmp_path, """
        try:
            a = FakeCudaArray(3, 64)
            add_kernel[(1,)](a, a, a, 64, BLOCK=64)
        except ValueError as e:
            assert "CUDA device 3 does not exist: the driver reports 2 devices" in str(e), e
        else:
            raise AssertionError("launched on a device that does not exist")
        assert fake.fake_bad_launches() == 0
    """)


# ----------------------------------------------------------- the example

def test_ddp_example_on_gloo_and_the_host_backend():
    """examples/ddp_layernorm.py, 2 processes, gloo, CPU tensors: the
    losses of the mytriton model match torch's (the example asserts it)."""
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"), OMP_NUM_THREADS="1")
    r = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "ddp_layernorm.py"),
                        "--device", "cpu", "--spawn", "2"], env=env, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ddp_layernorm: 2 process(es) on cpu (gloo): losses match torch's over 5 steps" \
        in r.stdout, r.stdout + r.stderr
    assert r.stdout.count("loss mytriton") == 5, r.stdout


# ----------------------------------------------------------- GPU tests

def _gpus():
    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def test_gpu_launch_on_every_device_leaves_the_current_device(cuda_device):
    n = 1000
    current = torch.cuda.current_device()
    for d in range(_gpus()):
        x = torch.rand(n, device=f"cuda:{d}")
        y = torch.rand(n, device=f"cuda:{d}")
        out = torch.empty_like(x)
        add_kernel[(triton.cdiv(n, 256),)](x, y, out, n, BLOCK=256)
        assert torch.cuda.current_device() == current
        torch.testing.assert_close(out, x + y)


def test_gpu_launch_on_the_devices_current_stream(cuda_device):
    n = 1 << 20
    for d in range(_gpus()):
        dev = torch.device("cuda", d)
        x = torch.zeros(n, device=dev)
        out = torch.empty_like(x)
        torch.cuda.synchronize(dev)
        side = torch.cuda.Stream(device=dev)
        with torch.cuda.stream(side):
            torch.cuda._sleep(50_000_000)   # the fill below waits for it on `side`
            x.fill_(3.0)
            add_kernel[(triton.cdiv(n, 1024),)](x, x, out, n, BLOCK=1024)
        side.synchronize()
        # on another stream the kernel would have read zeros
        assert torch.all(out == 6.0).item(), d


def test_gpu_mixed_cuda_devices_are_an_error(cuda_device):
    if _gpus() < 2:
        pytest.skip("needs two GPUs")
    a, b = torch.zeros(8, device="cuda:0"), torch.zeros(8, device="cuda:1")
    with pytest.raises(TypeError, match="argument 'y' is on cuda:1 but argument 'x' is on cuda:0"):
        add_kernel[(1,)](a, b, a, 8, BLOCK=8)


def test_gpu_threads_launch_on_every_device_at_once(cuda_device):
    """One thread per GPU (two on a single GPU), each on its own device's
    tensors, as DataParallel-style code runs."""
    devices = list(range(_gpus()))
    if len(devices) == 1:
        devices = [0, 0]
    n, rounds = 4096, 100
    errors = []
    start = threading.Barrier(len(devices))

    def work(d):
        try:
            dev = torch.device("cuda", d)
            x, y = torch.rand(n, device=dev), torch.rand(n, device=dev)
            ref = y.clone()
            out = torch.empty_like(x)
            start.wait()
            for _ in range(rounds):  # y <- x + y, through the kernel and through torch
                add_kernel[(triton.cdiv(n, 512),)](x, y, out, n, BLOCK=512)
                y, out = out, y
                ref = x + ref
            torch.testing.assert_close(y, ref, rtol=0, atol=0)
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(d,)) for d in devices]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_fake_mlir_kernel_loads_its_ptx_per_device(fake_driver, tmp_path):
    """The MLIR backend's PTX goes through the same per-device module table
    as cubins (it once had none: the first launch crashed)."""
    from test_mlir import TOOLS
    if TOOLS is None:
        pytest.skip("no mlir-opt (MLIR tools not installed)")
    run_fake(fake_driver, tmp_path, """
        fake.fake_set_current_device(0)
        a = FakeCudaArray(1, 64)
        add_kernel[(1,)](a, a, a, 64, BLOCK=64)
        add_kernel[(1,)](a, a, a, 64, BLOCK=64)
        assert (fake.fake_launches(0), fake.fake_launches(1)) == (0, 2)
        assert (fake.fake_modules(0), fake.fake_modules(1)) == (0, 1)
    """, MYTRITON_BACKEND="mlir")
