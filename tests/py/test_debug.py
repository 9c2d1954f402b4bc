"""Printing and debug mode (issue 9, src/tldebug.c, src/cuda_debug.c).

tl.device_print and print() write Triton's lines ("pid (x, y, z) idx (i)
prefix: value", one per element a thread holds), tl.static_print writes
at compile time, tl.device_assert and `assert` on runtime values are
checked in debug mode only (@jit(debug=True), a launch's debug=True,
TRITON_DEBUG=1), where + - * on narrow integers also check overflow.  The
expected lines are Triton's (its test_subprocess.py / print_helper.py)."""
import ctypes
import os
import subprocess
import sys
import textwrap
from collections import Counter

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error


def _sync(device):
    """The device's lines on fd 1: CUDA hands printf's buffer to the C
    library's stdout at a synchronisation, which may hold it."""
    if device.startswith("cuda"):
        torch.cuda.synchronize(device)
        ctypes.CDLL(None).fflush(None)


def _lines(capfd):
    return Counter(line for line in capfd.readouterr().out.splitlines() if line)


@triton.jit
def print_kernel(X, Y, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    tl.device_print("x: ", x)
    tl.store(Y + tl.arange(0, BLOCK), x)


@triton.jit
def print_builtin_kernel(X, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    print("x:", x)  # Triton adds the space


@triton.jit
def print_hex_kernel(X, BLOCK: tl.constexpr):
    tl.device_print("x", tl.load(X + tl.arange(0, BLOCK)), hex=True)


@triton.jit
def print_scalar_kernel(S):
    print("x:", tl.load(S))


@triton.jit
def print_multi_kernel(X, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.full((BLOCK, ), 1, tl.int32)
    print("", x, y)


@triton.jit
def print_no_operand_kernel():
    print("no arg")
    print("", tl.program_id(0))


@triton.jit
def print_2d_kernel(X, BM: tl.constexpr, BN: tl.constexpr):
    x = tl.load(X + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :])
    tl.device_print("", x)


@triton.jit
def print_pointer_kernel(X, BLOCK: tl.constexpr):
    tl.device_print("ptr ", X + tl.arange(0, BLOCK))


@pytest.mark.parametrize("dtype", [torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64,
                                   torch.float16, torch.float32, torch.float64])
def test_device_print_values(device, dtype, capfd):
    # 128 elements over 4 warps: each thread holds one, as in Triton's test
    x = torch.arange(0, 128, dtype=torch.int32).to(dtype).to(device)
    y = torch.zeros_like(x)
    print_kernel[(1, )](x, y, BLOCK=128, num_warps=4)
    _sync(device)
    suffix = ".000000" if dtype.is_floating_point else ""
    assert _lines(capfd) == Counter(f"pid (0, 0, 0) idx ({i:3}) x: {i}{suffix}" for i in range(128))
    assert torch.equal(y, x)


def test_print_is_device_print(device, capfd):
    x = -torch.arange(0, 64, dtype=torch.int32, device=device)
    print_builtin_kernel[(1, )](x, BLOCK=64, num_warps=2)
    _sync(device)
    assert _lines(capfd) == Counter(f"pid (0, 0, 0) idx ({i:2}) x: {-i}" for i in range(64))


@pytest.mark.parametrize("dtype, digits", [(torch.int16, 4), (torch.int32, 8), (torch.int64, 16)])
def test_device_print_hex(device, dtype, digits, capfd):
    x = torch.arange(0, 32, dtype=dtype, device=device)
    print_hex_kernel[(1, )](x, BLOCK=32, num_warps=1)
    _sync(device)
    assert _lines(capfd) == Counter(f"pid (0, 0, 0) idx ({i:2}) x: 0x{i:0{digits}x}"
                                    for i in range(32))


def test_device_print_hex_sign_extends_narrow_ints(device, capfd):
    # Triton sign-extends an int16 to 32 bits before printing it in hex
    x = torch.full((32, ), -2, dtype=torch.int16, device=device)
    print_hex_kernel[(1, )](x, BLOCK=32, num_warps=1)
    _sync(device)
    assert set(_lines(capfd)) == {f"pid (0, 0, 0) idx ({i:2}) x: 0xfffffffe" for i in range(32)}


def test_device_print_hex_of_floats_is_tritons(device, capfd):
    # Triton widens f32 to double for printf and its 0x%08x reads the low
    # word of that double; an f64 prints all its bits
    for dtype, want in [(torch.float32, "0xa0000000"), (torch.float64, "0x3fb999999999999a")]:
        print_hex_kernel[(1, )](torch.full((32, ), 0.1, dtype=dtype, device=device), BLOCK=32,
                                num_warps=1)
        _sync(device)
        assert set(_lines(capfd)) == {f"pid (0, 0, 0) idx ({i:2}) x: {want}" for i in range(32)}


def test_device_print_scalar_every_thread(device, capfd):
    for dtype, text in [(torch.int32, "42"), (torch.float32, "42.000000"), (torch.bool, "1")]:
        print_scalar_kernel[(1, )](torch.tensor([42]).to(dtype).to(device), num_warps=2)
        _sync(device)
        # a scalar is held by every thread, and each prints it
        assert _lines(capfd) == Counter({f"pid (0, 0, 0) idx () x: {text}": 64})


def test_device_print_operands_and_no_operand(device, capfd):
    x = torch.arange(0, 32, dtype=torch.int32, device=device)
    print_multi_kernel[(1, )](x, BLOCK=32, num_warps=1)
    _sync(device)
    want = Counter()
    for i in range(32):
        want[f"pid (0, 0, 0) idx ({i:2}): (operand 0) {i}"] += 1
        want[f"pid (0, 0, 0) idx ({i:2}): (operand 1) 1"] += 1
    assert _lines(capfd) == want
    print_no_operand_kernel[(3, )](num_warps=1)
    _sync(device)
    want = Counter()
    for p in range(3):
        want[f"pid ({p}, 0, 0) no arg"] = 32
        want[f"pid ({p}, 0, 0) idx (): {p}"] = 32
    assert _lines(capfd) == want


def test_launch_without_tensors_runs_on_the_gpu(cuda_device, capfd, monkeypatch):
    """A kernel of scalars runs where Triton's would: on the current CUDA
    device when there is one, on the CPU when asked."""
    monkeypatch.delenv("MYTRITON_BACKEND", raising=False)
    with torch.cuda.device(torch.device(cuda_device)):
        k = print_no_operand_kernel[(2, )](num_warps=1)
        torch.cuda.synchronize()
    assert k.backend in ("cuda", "mlir"), k
    want = Counter()
    for p in range(2):
        want[f"pid ({p}, 0, 0) no arg"] = 32
        want[f"pid ({p}, 0, 0) idx (): {p}"] = 32
    assert _lines(capfd) == want
    k = print_no_operand_kernel[(1, )](num_warps=1, backend="cpu")
    assert k.backend == "cpu", k
    monkeypatch.setenv("MYTRITON_BACKEND", "fiber")
    assert print_no_operand_kernel[(1, )](num_warps=1).backend == "host"
    _lines(capfd)


def test_device_print_2d_and_replicas(device, capfd):
    x = torch.arange(0, 8, dtype=torch.float32, device=device)
    print_2d_kernel[(1, 2)](x, BM=2, BN=4, num_warps=1)
    _sync(device)
    # 8 elements for 32 threads: each element is held, and printed, by 4
    want = Counter()
    for p in range(2):
        for i in range(2):
            for j in range(4):
                want[f"pid (0, {p}, 0) idx ({i}, {j}): {i * 4 + j}.000000"] = 4
    assert _lines(capfd) == want


def test_device_print_pointer(device, capfd):
    x = torch.zeros(32, device=device)
    print_pointer_kernel[(1, )](x, BLOCK=32, num_warps=1)
    _sync(device)
    lines = list(_lines(capfd).elements())
    assert len(lines) == 32
    got = sorted(int(line.split("ptr: ")[1], 16) for line in lines)
    assert got == [x.data_ptr() + 4 * i for i in range(32)]


@triton.jit
def static_print_kernel(X, BLOCK: tl.constexpr, TAG: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    tl.static_print("", x)
    tl.static_print(TAG, 3, 1.5, 2.0, True, None, tl.float16, X, (1, "a"), sep="|", end="!\n")


def test_static_print_at_compile_time(capfd):
    x = torch.zeros(16, dtype=torch.int32)
    static_print_kernel[(1, )](x, BLOCK=16, TAG="t1")
    out = capfd.readouterr().out
    assert out == (" int32[constexpr[16]]\n"
                   "t1|3|1.5|2.0|True|None|fp16|pointer<int32>[]|['1', 'a']!\n")
    static_print_kernel[(1, )](x, BLOCK=16, TAG="t1")  # cached: not compiled again
    assert capfd.readouterr().out == ""


@triton.jit
def bad_prefix_kernel(X):
    tl.device_print(X, X)


@triton.jit
def bad_kw_kernel(X):
    tl.device_print("x", X, sep=",")


@triton.jit
def bad_value_kernel(X):
    print("x", (X, X))


@triton.jit
def bad_static_file_kernel(X):
    tl.static_print("x", file=1)


def test_print_errors_are_located():
    x = torch.zeros(4)
    assert_compile_error(bad_prefix_kernel, (x, ), needle="tl.device_print(X, X)",
                         pattern="prefix must be a string literal")
    assert_compile_error(bad_kw_kernel, (x, ), needle='tl.device_print("x", X, sep',
                         pattern="unexpected keyword argument 'sep'")
    assert_compile_error(bad_value_kernel, (x, ), needle='print("x", (X, X))',
                         pattern="can print tensors and numbers, got tuple")
    assert_compile_error(bad_static_file_kernel, (x, ), needle='file=1',
                         pattern="writes to stdout only")


# ---------------------------------------------------------------- debug mode


@triton.jit
def assert_kernel(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.device_assert(x < 5 + tl.program_id(0), "x too big")
    tl.store(X + tl.arange(0, N), x + 100)


@triton.jit(debug=True)
def assert_debug_kernel(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.device_assert(x != 3, "x is three", mask=x < Y)
    tl.store(X + tl.arange(0, N), x + 100)


@triton.jit(debug=True)
def assert_stmt_kernel(X):
    v = tl.load(X)
    assert v > 0, "v must be positive"
    tl.store(X, v + 1)


@triton.jit
def _check_positive(v):
    tl.device_assert(v > 0)
    return v


@triton.jit(debug=True)
def assert_helper_kernel(X):
    tl.store(X, _check_positive(tl.load(X)) + 1)


def test_device_assert_ignored_outside_debug_mode(monkeypatch):
    monkeypatch.delenv("TRITON_DEBUG", raising=False)
    x = torch.arange(8, dtype=torch.int32)
    assert_kernel[(1, )](x, N=8)
    assert torch.equal(x, torch.arange(8, dtype=torch.int32) + 100)
    assert "__assertfail" not in assert_kernel.warmup(x, N=8).asm["cuda"]


def test_device_assert_fails_the_launch_in_debug_mode(monkeypatch):
    monkeypatch.delenv("TRITON_DEBUG", raising=False)
    x = torch.arange(8, dtype=torch.int32)
    with pytest.raises(RuntimeError) as info:
        assert_kernel[(2, )](x, N=8, debug=True)
    text = str(info.value)
    assert "device-side assert triggered" in text, text
    line = assert_kernel.fn.__code__.co_firstlineno + 3
    # both programs fail (x = 5 in program 0, x = 6 in program 1); which
    # one reports first depends on the worker threads' timing, as on a GPU
    assert any(f"test_debug.py:{line}: assert_kernel: block: [{b},0,0], thread: [{t},0,0] "
               "Assertion `x too big` failed." in text for b, t in ((0, 5), (1, 6))), text
    # the failing program stopped: nothing after the assertion ran there
    assert torch.equal(x[:5], torch.arange(5, dtype=torch.int32))
    # the process and the host backend carry on
    y = torch.arange(4, dtype=torch.int32)
    assert_kernel[(1, )](y, N=4, debug=True)
    assert torch.equal(y, torch.arange(4, dtype=torch.int32) + 100)


def test_failing_program_is_named(monkeypatch):
    monkeypatch.delenv("TRITON_DEBUG", raising=False)
    # program 0 passes (x < 5 + 0 holds for 0..4); program 1 sees 6
    x = torch.tensor([0, 1, 2, 3, 4, 6, 0, 0], dtype=torch.int32)

    @triton.jit(debug=True)
    def per_program(X):
        pid = tl.program_id(0)
        v = tl.load(X + pid * 5)
        tl.device_assert(v < 5, "big")

    with pytest.raises(RuntimeError, match=r"block: \[1,0,0\], thread: \[0,0,0\] Assertion `big`"):
        per_program[(2, )](x)


def test_debug_option_sources(monkeypatch):
    x = torch.tensor([3, 0], dtype=torch.int32)
    monkeypatch.delenv("TRITON_DEBUG", raising=False)
    # @jit(debug=True), masked: the element 3 is under the mask only when Y > 3
    assert_debug_kernel[(1, )](x, 2, N=2)
    with pytest.raises(RuntimeError, match="Assertion `x is three` failed"):
        assert_debug_kernel[(1, )](torch.tensor([3, 0], dtype=torch.int32), 4, N=2)
    # a launch's debug=False wins over @jit(debug=True) ...
    assert_debug_kernel[(1, )](torch.tensor([3, 0], dtype=torch.int32), 4, N=2, debug=False)
    # ... but not over TRITON_DEBUG, as in Triton (debug or knobs.runtime.debug)
    monkeypatch.setenv("TRITON_DEBUG", "1")
    with pytest.raises(RuntimeError, match="x is three"):
        assert_debug_kernel[(1, )](torch.tensor([3, 0], dtype=torch.int32), 4, N=2, debug=False)
    with pytest.raises(RuntimeError, match="x too big"):
        assert_kernel[(1, )](torch.arange(8, dtype=torch.int32), N=8)
    monkeypatch.setenv("TRITON_DEBUG", "0")
    assert_kernel[(1, )](torch.arange(8, dtype=torch.int32), N=8)


def test_assert_statement_and_helper_function(monkeypatch):
    monkeypatch.delenv("TRITON_DEBUG", raising=False)
    x = torch.tensor([5], dtype=torch.int32)
    assert_stmt_kernel[(1, )](x)
    assert int(x) == 6
    with pytest.raises(RuntimeError, match="assert_stmt_kernel: .*Assertion `v must be positive`"):
        assert_stmt_kernel[(1, )](torch.tensor([0], dtype=torch.int32))
    # the function named is the helper the assertion is in; no message: ``
    with pytest.raises(RuntimeError, match=r"_check_positive: .*Assertion `` failed"):
        assert_helper_kernel[(1, )](torch.tensor([-1], dtype=torch.int32))


@triton.jit
def add_kernel(X, Y, Z):
    tl.store(Z, tl.load(X) + tl.load(Y))


@triton.jit
def sub_kernel(X, Y, Z):
    tl.store(Z, tl.load(X) - tl.load(Y))


@triton.jit
def mul_kernel(X, Y, Z):
    tl.store(Z, tl.load(X) * tl.load(Y))


# Triton's test_debug.py cases: (kernel, x, y, dtype, overflows)
OVERFLOW_CASES = [
    (add_kernel, -2**31, -1, torch.int32, True), (add_kernel, 2**31 - 1, 1, torch.int32, True),
    (add_kernel, -2**31, 2, torch.int32, False), (add_kernel, 0, -1, torch.int32, False),
    (add_kernel, -2**15, -1, torch.int16, True), (add_kernel, 2**15 - 1, 1, torch.int16, True),
    (mul_kernel, 2**30, 4, torch.int32, True), (mul_kernel, -2**30, -4, torch.int32, True),
    (mul_kernel, -2**31, 1, torch.int32, False), (mul_kernel, -2**30, 2, torch.int32, False),
    (sub_kernel, -2**31, 1, torch.int32, True), (sub_kernel, 2**31 - 1, -1, torch.int32, True),
    (sub_kernel, 2**31 - 1, 1, torch.int32, False), (sub_kernel, -2**31, -1, torch.int32, False),
    (add_kernel, 2**62, 2**62, torch.int64, False),  # 64-bit: never checked
]


@pytest.mark.parametrize("kernel, a, b, dtype, overflows", OVERFLOW_CASES)
def test_integer_overflow_checks(monkeypatch, kernel, a, b, dtype, overflows):
    monkeypatch.delenv("TRITON_DEBUG", raising=False)
    x, y = torch.tensor([a], dtype=dtype), torch.tensor([b], dtype=dtype)
    z = torch.zeros_like(x)
    name = kernel.fn.__name__.split("_")[0]
    if overflows:
        with pytest.raises(RuntimeError, match=f"overflow detected for operation {name}"):
            kernel[(1, )](x, y, z, debug=True)
    else:
        kernel[(1, )](x, y, z, debug=True)
    # outside debug mode the result wraps, as on the GPU
    kernel[(1, )](x, y, z)
    want = {"add": a + b, "sub": a - b, "mul": a * b}[name]
    bits = torch.iinfo(dtype).bits
    want = (want + 2**(bits - 1)) % 2**bits - 2**(bits - 1)
    assert int(z) == want


def test_debug_mode_is_its_own_specialization(monkeypatch):
    monkeypatch.delenv("TRITON_DEBUG", raising=False)
    x = torch.zeros(8, dtype=torch.int32)
    plain = assert_kernel.warmup(x, N=8)
    debug = assert_kernel.warmup(x, N=8, debug=True)
    assert plain is not debug
    assert "__assertfail" in debug.asm["cuda"] and "__assertfail" not in plain.asm["cuda"]


@triton.jit
def bad_assert_kernel(X):
    tl.device_assert(tl.load(X), 3)


@triton.jit
def float_assert_kernel(X):
    tl.device_assert(tl.load(X))


def test_assert_errors_are_located():
    x = torch.zeros(4)
    assert_compile_error(bad_assert_kernel, (x, ), needle="tl.device_assert(tl.load(X), 3)",
                         pattern="msg must be a string")
    assert_compile_error(float_assert_kernel, (x, ), {"debug": True},
                         needle="tl.device_assert(tl.load(X))",
                         pattern="condition must be a bool or integer tensor, got fp32|f32")


def test_cuda_device_assert_reports_the_launch(cuda_device, tmp_path):
    # in a child process: a failed device assertion leaves its CUDA context
    # unusable
    script = tmp_path / "k.py"
    script.write_text(textwrap.dedent("""
        import torch
        import mytriton as triton
        import mytriton.language as tl

        @triton.jit(debug=True)
        def k(X):
            tl.device_assert(tl.load(X) == 0, "not zero")

        k[(1, )](torch.ones(1, dtype=torch.int32, device="cuda"))
        torch.cuda.synchronize()
        """))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, env=env)
    text = proc.stdout.decode() + proc.stderr.decode()
    assert proc.returncode != 0
    assert "device-side assert triggered" in text, text
    assert "not zero" in text, text
