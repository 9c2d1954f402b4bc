"""The MLIR backend (issue 12): the original's MLIR cases (add/copy
codegen, constants, rejection messages) and ours (masks with other,
reductions, loops, rank-2 blocks, the lowering to PTX, the PTX cache).
Execution on the GPU is tests/gpu/test_mlir_gpu.py's (backend=cuda|mlir)."""
import os
import re
import subprocess

import pytest

import mytriton
from mytriton import _C
from mytriton.jit import _gpu_backend

def _tools():
    env = os.environ.get("MYTRITON_MLIR_BIN")
    if env:
        return env
    for v in range(30, 16, -1):
        if os.path.exists(f"/usr/lib/llvm-{v}/bin/mlir-opt"):
            return f"/usr/lib/llvm-{v}/bin"
    return None


TOOLS = _tools()
# The GPU machine has no MLIR tools (its MLIR PTX comes from a cache):
# there, what needs them is skipped; `make test` requires them anyway
# (test-mlir and tests/lit/mlir run mlir-opt on every module).
needs_tools = pytest.mark.skipif(TOOLS is None, reason="no mlir-opt (MLIR tools not installed)")

ADD = '''
import mytriton as triton
import mytriton.language as tl

@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x + offs, mask=mask, other=0.0)
    b = tl.load(y + offs, mask=mask, other=0.0)
    tl.store(out + offs, a + b, mask=mask)

@triton.jit
def copy_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask), mask=mask)

@triton.jit
def full_and_zeros_kernel(out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    z = tl.zeros((BLOCK,), tl.float32)
    f = tl.full((BLOCK,), 2.5, tl.float32)
    tl.store(out + offs, z + f, mask=offs < n)

@triton.jit
def empty_kernel(out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.empty((BLOCK,), tl.float32), mask=offs < n)

@triton.jit
def cos_kernel(a, out, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(out + i, tl.cos(tl.load(a + i)))

@triton.jit
def axes_kernel(out, BLOCK: tl.constexpr):
    offs = tl.program_id(1) * BLOCK + tl.arange(4, BLOCK + 4)
    tl.store(out + offs, offs)

@triton.jit
def softmax_kernel(x, out, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + row * n + offs, mask=mask, other=-float("inf"))
    e = tl.exp(v - tl.max(v, axis=0))
    tl.store(out + row * n + offs, e / tl.sum(e, axis=0), mask=mask)

@triton.jit
def loop_kernel(x, out, n, K, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    for k in range(K):
        acc += tl.load(x + k * n + offs, mask=offs < n, other=1.0)
    tl.store(out + offs, acc, mask=offs < n)

@triton.jit
def matrix_add_kernel(a, b, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.program_id(0) * BM + tl.arange(0, BM)
    c = tl.arange(0, BN)
    offs = r[:, None] * N + c[None, :]
    mask = (r[:, None] < M) & (c[None, :] < N)
    s = tl.load(a + offs, mask=mask, other=0.0) + tl.load(b + offs, mask=mask, other=0.0)
    tl.store(out + offs, s, mask=mask)
    tl.store(out + M * N + r, tl.sum(s, axis=1), mask=r < M)
'''


def compile_mlir(kernel, signature, num_warps=4, filename="mlir_kernels.py"):
    return _C.compile(ADD, filename, kernel, signature, (), num_warps, "mlir", True)


def mlir(kernel, signature, num_warps=4):
    return compile_mlir(kernel, signature, num_warps).stage("mlir")


def verify(text):
    """mlir-opt --verify-each parses and verifies the module."""
    if TOOLS is None:
        return  # make test-mlir verifies every module where the tools are
    r = subprocess.run([f"{TOOLS}/mlir-opt", "--verify-each", "-o", "/dev/null"], input=text,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr + text


ADD_MLIR = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add_kernel(%x: memref<?xf32>, %y: memref<?xf32>, %out: memref<?xf32>, %n: i32) kernel attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
      %bid_x = gpu.block_id x
      %tid_x = gpu.thread_id x
      %block_id_x = arith.index_cast %bid_x : index to i32
      %thread_id_x = arith.index_cast %tid_x : index to i32
      %c_i32_256 = arith.constant 256 : i32
      %c_f32_0_0 = arith.constant 0.000000e+00 : f32
      %v1 = arith.muli %block_id_x, %c_i32_256 : i32
      %v3 = arith.addi %v1, %thread_id_x : i32
      %v4 = arith.cmpi slt, %v3, %n : i32
      %idx5 = arith.index_cast %v3 : i32 to index
      %v6 = scf.if %v4 -> (f32) {
        %loaded6 = memref.load %x[%idx5] : memref<?xf32>
        scf.yield %loaded6 : f32
      } else {
        scf.yield %c_f32_0_0 : f32
      }
      %idx7 = arith.index_cast %v3 : i32 to index
      %v8 = scf.if %v4 -> (f32) {
        %loaded8 = memref.load %y[%idx7] : memref<?xf32>
        scf.yield %loaded8 : f32
      } else {
        scf.yield %c_f32_0_0 : f32
      }
      %idx9 = arith.index_cast %v3 : i32 to index
      %v10 = arith.addf %v6, %v8 : f32
      scf.if %v4 {
        memref.store %v10, %out[%idx9] : memref<?xf32>
      }
      gpu.return
    }
  }
}
"""


def test_add_kernel_codegen():
    # the original's shape: one element per thread (BLOCK 256, 8 warps)
    text = mlir("add_kernel", "*fp32,*fp32,*fp32,i32,256", num_warps=8)
    assert text == ADD_MLIR
    verify(text)


def test_add_kernel_codegen_two_elements_per_thread():
    # 4 warps: each thread owns the two consecutive elements its CUDA thread owns
    text = mlir("add_kernel", "*fp32,*fp32,*fp32,i32,256")
    assert "%mt_b0_0 = arith.muli %mt_y0_0, %c_i32_2 : i32" in text
    assert "%v4_0 = arith.cmpi slt" in text and "%v4_1 = arith.cmpi slt" in text
    assert text.count("memref.store") == 2
    verify(text)


def test_copy_kernel_codegen():
    text = mlir("copy_kernel", "*fp32,*fp32,i32,128")
    assert "gpu.func @copy_kernel(%x: memref<?xf32>, %out: memref<?xf32>, %n: i32)" in text
    # a masked load without other falls back to 0.0; the store is masked
    assert re.search(r"scf\.if %v\d+ -> \(f32\) \{\n\s+%loaded\d+ = memref\.load %x", text)
    assert "scf.yield %c_f32_0_0 : f32" in text
    assert re.search(r"scf\.if %v\d+ \{\n\s+memref\.store %v\d+, %out\[%idx\d+\]", text)
    verify(text)


def test_full_and_zeros_constants():
    text = mlir("full_and_zeros_kernel", "*fp32,i32,128")
    assert "%c_f32_2_5 = arith.constant 2.500000e+00 : f32" in text
    verify(text)


def test_mlir_rejects_empty():
    with pytest.raises(mytriton.CompilationError, match="MLIR MVP does not support tl.empty"):
        mlir("empty_kernel", "*fp32,i32,128")


def test_mlir_rejects_unsupported_op_with_location():
    with pytest.raises(mytriton.CompilationError) as e:
        mlir("cos_kernel", "*fp32,*fp32,16")
    assert "MLIR MVP does not support 'cos'" in str(e.value)
    assert re.search(r"mlir_kernels\.py:\d+:\d+: error", str(e.value)), str(e.value)


def test_mlir_other_axes_and_arange_start():
    # the original refused program_id(1) and arange(4, ...): supported now
    text = mlir("axes_kernel", "*i32,128")
    assert "%bid_y = gpu.block_id y" in text and "%block_id_y" in text
    assert "%c_i32_4" in text
    verify(text)


def test_mlir_reduction_softmax():
    text = mlir("softmax_kernel", "*fp32,*fp32,i32,1024")
    assert "gpu.shuffle xor" in text and "gpu.barrier" in text
    assert "#gpu.address_space<workgroup>" in text
    assert 'ex2.approx.f32' in text and "arith.maxnumf" in text
    verify(text)


def test_mlir_runtime_loop():
    text = mlir("loop_kernel", "*fp32,*fp32,i32,i32,128")
    assert re.search(r"= scf\.for %v\d+ = %c_i32_0 to %K step %c_i32_1 iter_args\(", text)
    assert "scf.yield" in text and "%c_f32_1_0" in text
    verify(text)


def test_mlir_rank2_blocks():
    text = mlir("matrix_add_kernel", "*fp32,*fp32,*fp32,i32,i32,16,32")
    assert "arith.andi" in text and "gpu.shuffle xor" in text
    verify(text)


@needs_tools
def test_mlir_lowers_to_ptx():
    k = compile_mlir("softmax_kernel", "*fp32,*fp32,i32,1024")
    ptx = k.stage("ptx")
    assert ".entry softmax_kernel" in ptx and ".target sm_90" in ptx
    assert "shfl.sync.bfly" in ptx and "ex2.approx.f32" in ptx


@needs_tools
def test_mlir_ptx_cache_needs_no_tools(tmp_path, monkeypatch):
    monkeypatch.setenv("MYTRITON_CACHE_DIR", str(tmp_path))
    first = compile_mlir("loop_kernel", "*fp32,*fp32,i32,i32,128", filename="a.py").stage("ptx")
    monkeypatch.setenv("MYTRITON_MLIR_BIN", str(tmp_path / "no-tools"))
    # another file name: a new kernel whose module text, so its key, is the same
    again = compile_mlir("loop_kernel", "*fp32,*fp32,i32,i32,128", filename="b.py").stage("ptx")
    assert again == first
    with pytest.raises(mytriton.CompilationError, match="'mlir-opt' not found"):
        compile_mlir("copy_kernel", "*fp32,*fp32,i32,128", filename="c.py").stage("ptx")


def test_backend_environment(monkeypatch):
    monkeypatch.delenv("MYTRITON_BACKEND", raising=False)
    assert _gpu_backend() == "cuda"
    monkeypatch.setenv("MYTRITON_BACKEND", "mlir")
    assert _gpu_backend() == "mlir"
    monkeypatch.setenv("MYTRITON_BACKEND", "x")
    with pytest.raises(ValueError, match="unsupported backend 'x'; expected 'cuda' or 'mlir'"):
        _gpu_backend()


# ---- what the modules compute, on the CPU (tests/py/mlir_interp.py) ----

import sys  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

import mlir_interp  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "gpu"))
import test_mlir_gpu as gpu_cases  # noqa: E402


CASES = [c[0] for c in gpu_cases._cases(torch, "cpu")]


@pytest.mark.parametrize("name", CASES)
def test_mlir_gpu_cases_compute_like_torch(name):
    """The GPU check's kernels, run by the interpreter: the module (the
    very text whose PTX the GPU check loads) computes torch's result."""
    _, kern, args, grid, meta, outs, refs, tol = next(
        c for c in gpu_cases._cases(torch, "cpu") if c[0] == name)
    src, fn = kern._source()
    text = _C.compile(src, fn, kern.fn.__name__, gpu_cases.signature(torch, args, meta),
                      kern._globals(), 4, "mlir", True).stage("mlir")
    mlir_interp.Module(text).run(grid, [a.numpy().reshape(-1) if torch.is_tensor(a) else a
                                        for a in args])
    for i, ref in zip(outs, refs):
        torch.testing.assert_close(args[i], ref, rtol=tol, atol=tol)


SHAPES = '''
import mytriton as triton
import mytriton.language as tl

@triton.jit
def shapes_kernel(x, y, out, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    a = tl.load(x + o)
    b = tl.load(y + o)
    tl.store(out + o, tl.umulhi(a, b))
    t = tl.reshape(tl.flip(a, 0), (8, BLOCK // 8))
    r = tl.arange(0, 8)[:, None] * (BLOCK // 8) + tl.arange(0, BLOCK // 8)[None, :]
    tl.store(out + BLOCK + r, tl.trans(tl.trans(t)))
    tl.store(out + 2 * BLOCK + tl.arange(0, 2 * BLOCK), tl.cat(a, b, can_reorder=True))
    n = 0
    v = a
    while n < 3:
        v = v ^ (v >> 1)
        n += 1
    tl.store(out + 4 * BLOCK + o, v)
'''


def test_mlir_shape_ops_and_while():
    text = _C.compile(SHAPES, "shapes.py", "shapes_kernel", "*u32,*u32,*u32,128", (), 4, "mlir",
                      True).stage("mlir")
    verify(text)
    assert "scf.while" in text and "mul.hi.u32" in text
    rng = np.random.default_rng(0)
    x = rng.integers(0, 2**32, 128, dtype=np.uint64).astype(np.uint32)
    y = rng.integers(0, 2**32, 128, dtype=np.uint64).astype(np.uint32)
    out = np.zeros(5 * 128, dtype=np.uint32)
    mlir_interp.Module(text).run((1,), [x.view(np.int32), y.view(np.int32), out.view(np.int32)])
    assert (out[:128] == ((x.astype(np.uint64) * y) >> 32).astype(np.uint32)).all()
    assert (out[128:256] == x[::-1]).all()
    assert (out[256:512] == np.concatenate([x, y])).all()
    v = x.copy()
    for _ in range(3):
        v = v ^ (v >> 1)
    assert (out[512:] == v).all()


DOT = '''
import mytriton as triton
import mytriton.language as tl

@triton.jit
def dot_kernel(a, b, c, out, N: tl.constexpr, PREC: tl.constexpr):
    i = tl.arange(0, N)
    offs = i[:, None] * N + i[None, :]
    x = tl.load(a + offs)
    y = tl.load(b + offs)
    tl.store(out + offs, tl.dot(x, y, tl.load(c + offs), input_precision=PREC))
'''


@pytest.mark.parametrize("prec, tol", [("ieee", 1e-5), ("tf32", 2e-2), ("tf32x3", 1e-5)])
def test_mlir_dot(prec, tol):
    text = _C.compile(DOT, "dot.py", "dot_kernel", f"*fp32,*fp32,*fp32,*fp32,16,'{prec}'", (), 4,
                      "mlir", True).stage("mlir")
    verify(text)
    assert text.count("fma.rn.f32") >= 1 and ("cvt.rna.tf32" in text) == (prec != "ieee")
    rng = np.random.default_rng(1)
    a, b, c = (rng.standard_normal((16, 16)).astype(np.float32) for _ in range(3))
    out = np.zeros((16, 16), dtype=np.float32)
    mlir_interp.Module(text).run((1,), [a.reshape(-1), b.reshape(-1), c.reshape(-1),
                                        out.reshape(-1)])
    np.testing.assert_allclose(out, a.astype(np.float64) @ b + c, rtol=tol, atol=tol)


ATOMICS = '''
import mytriton as triton
import mytriton.language as tl

@triton.jit
def atomics_kernel(x, sums, maxes, old, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    v = tl.load(x + o, mask=m, other=0.0)
    tl.atomic_add(sums + (o % 4), v, mask=m)
    prev = tl.atomic_max(maxes + (o % 8), o, mask=m)
    tl.store(old + o, prev, mask=m)
'''


def test_mlir_atomics():
    text = _C.compile(ATOMICS, "atomics.py", "atomics_kernel", "*fp32,*fp32,*i32,*i32,i32,128",
                      (), 4, "mlir", True).stage("mlir")
    verify(text)
    assert "memref.atomic_rmw addf" in text and "memref.atomic_rmw maxs" in text
    n = 300
    x = np.random.default_rng(2).standard_normal(n).astype(np.float32)
    sums, maxes = np.zeros(4, np.float32), np.full(8, -1, np.int32)
    old = np.zeros(n, np.int32)
    mlir_interp.Module(text).run((3,), [x, sums, maxes, old, n])
    np.testing.assert_allclose(sums, [x[i::4].sum() for i in range(4)], rtol=1e-5, atol=1e-5)
    assert (maxes == [max(range(i, n, 8)) for i in range(8)]).all()
    assert (old[:8] == -1).all()  # each slot's first atomic saw the initial value


def test_mlir_rejects_shared_atomic_result():
    src = ATOMICS.replace("tl.store(old + o, prev, mask=m)", "tl.store(old, tl.atomic_add(sums, 1.0))")
    with pytest.raises(mytriton.CompilationError, match="the result of an atomic on a scalar"):
        _C.compile(src, "atomics.py", "atomics_kernel", "*fp32,*fp32,*i32,*i32,i32,128",
                   (), 4, "mlir", True)
