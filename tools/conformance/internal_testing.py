"""mytriton's stand-in for `triton._internal_testing`, the helper module
Triton's language tests import: dtype lists, target predicates, random
inputs, and conversions between NumPy arrays and kernel arguments.  Our own
code, written from what test_core.py expects of each name; it asks
mytriton (through `triton`, which the conformance conftest points at
mytriton) for every fact about the target, so a test sees the backend it
really runs on: the host backend reports itself as a CPU target, neither
CUDA nor HIP nor the interpreter."""
import os
import re

import numpy as np
import pytest
import torch
import triton
import triton.language as tl

int_dtypes = ["int8", "int16", "int32", "int64"]
uint_dtypes = ["uint8", "uint16", "uint32", "uint64"]
integral_dtypes = int_dtypes + uint_dtypes
float_dtypes = ["float16", "float32", "float64"]
float_dtypes_with_bfloat16 = float_dtypes + ["bfloat16"]
dtypes = integral_dtypes + float_dtypes
dtypes_with_bfloat16 = dtypes + ["bfloat16"]
torch_float8_dtypes = ["float8_e4m3fn", "float8_e5m2"]
torch_dtypes = ["bool"] + int_dtypes + ["uint8"] + float_dtypes + ["bfloat16"]
tma_dtypes = sorted(set(dtypes_with_bfloat16) - {"int64", "uint64", "float64"})


def is_interpreter():
    return os.environ.get("TRITON_INTERPRET", "0") == "1"


def get_current_target():
    driver = getattr(getattr(triton, "runtime", None), "driver", None)
    if driver is None:
        return None
    return driver.active.get_current_target()


def _backend():
    target = get_current_target()
    return None if target is None else target.backend


def _arch():
    target = get_current_target()
    return None if target is None else target.arch


def _capability_major():
    return torch.cuda.get_device_capability()[0] if is_cuda() else -1


def is_cuda():
    return _backend() == "cuda"


def is_hip():
    return _backend() == "hip"


def is_xpu():
    return _backend() == "xpu"


def is_ampere_or_newer():
    return _capability_major() >= 8


def is_hopper_or_newer():
    return _capability_major() >= 9


def is_hopper():
    return _capability_major() == 9


def is_blackwell():
    return _capability_major() == 10


def is_sm12x():
    return _capability_major() == 12


def _hip_arch_is(pred):
    return is_hip() and pred(str(_arch()))


def is_hip_cdna2():
    return _hip_arch_is(lambda a: a == "gfx90a")


def is_hip_cdna3():
    return _hip_arch_is(lambda a: a == "gfx942")


def is_hip_cdna4():
    return _hip_arch_is(lambda a: a == "gfx950")


def is_hip_cdna():
    return is_hip_cdna2() or is_hip_cdna3() or is_hip_cdna4()


def is_hip_gfx11():
    return _hip_arch_is(lambda a: "gfx11" in a)


def is_hip_gfx12():
    return _hip_arch_is(lambda a: "gfx12" in a)


def is_hip_gfx1250():
    return _hip_arch_is(lambda a: "gfx1250" in a)


def get_hip_lds_size():
    return 163840 if is_hip_cdna4() else 65536


def get_arch():
    arch = _arch()
    return "" if arch is None else str(arch)


def supports_tma(byval_only=False):
    return False


def supports_ws():
    return False


requires_tma = pytest.mark.skipif(True, reason="TMA descriptors are not supported by mytriton")


def numpy_random(shape, dtype_str, rs=None, low=None, high=None):
    """Random test data: integers over the dtype's range (never 0, so
    division tests do not divide by zero), normal floats, bfloat16 values
    as float32 with the low 16 bits cleared, random booleans."""
    if isinstance(shape, int):
        shape = (shape,)
    rs = np.random.RandomState(seed=17) if rs is None else rs
    if dtype_str in integral_dtypes:
        info = np.iinfo(getattr(np, dtype_str))
        lo = info.min if low is None else max(low, info.min)
        hi = info.max if high is None else min(high, info.max)
        x = rs.randint(lo, hi, shape, dtype=getattr(np, dtype_str))
        x[x == 0] = 1
        return x
    if dtype_str and "float8" in dtype_str:
        return rs.randint(20, 40, shape, dtype=np.int8)
    if dtype_str in float_dtypes:
        return rs.normal(0, 1, shape).astype(dtype_str)
    if dtype_str == "bfloat16":
        bits = rs.normal(0, 1, shape).astype("float32").view("uint32")
        return (bits & np.uint32(0xFFFF0000)).view("float32")
    if dtype_str in ("bool", "int1", "bool_"):
        return rs.normal(0, 1, shape) > 0.0
    raise RuntimeError(f"Unknown dtype {dtype_str}")


def _reinterpret(t, dtype_name):
    reinterpret = getattr(triton, "reinterpret", None)
    if reinterpret is None:
        raise NotImplementedError(f"not supported: a {dtype_name} tensor as a kernel argument "
                                  "(triton.reinterpret)")
    return reinterpret(t, getattr(tl, dtype_name))


def to_triton(x, device, dst_type=None):
    """A kernel argument holding x: a torch tensor, or for unsigned and fp8
    data a reinterpretation of the signed/int8 tensor with the same bits."""
    name = x.dtype.name
    if name in uint_dtypes:
        signed = x.astype(getattr(np, name[1:]))
        return _reinterpret(torch.tensor(signed, device=device), name)
    if dst_type and "float8" in dst_type:
        return _reinterpret(torch.tensor(x, device=device), dst_type)
    if name == "float32" and dst_type == "bfloat16":
        return torch.tensor(x, device=device).bfloat16()
    return torch.tensor(x, device=device)


# torch's and NumPy's spellings Triton canonicalises before str_to_ty
_CANONICAL = {"bool": "u1", "float8_e4m3fn": "fp8e4nv", "float8_e5m2": "fp8e5",
              "float8_e4m3fnuz": "fp8e4b8", "float8_e5m2fnuz": "fp8e5b16", "half": "fp16",
              "float": "fp32", "double": "fp64", "int": "i32"}


def str_to_triton_dtype(x):
    x = _CANONICAL.get(x, x)
    return tl.str_to_ty(x, None) if hasattr(tl, "str_to_ty") else getattr(tl, x)


def torch_dtype_name(dtype):
    if isinstance(dtype, torch.dtype):
        return re.match(r"^torch\.(\w+)$", str(dtype)).group(1)
    name = getattr(dtype, "name", None)
    if isinstance(name, str):
        return name
    raise TypeError(f"not a triton or torch dtype: {type(dtype)}")


def to_numpy(x):
    if isinstance(x, torch.Tensor):
        if x.dtype is torch.bfloat16:
            return x.cpu().float().numpy()
        return x.cpu().numpy()
    base = getattr(x, "base", None)
    if isinstance(base, torch.Tensor):  # a reinterpreted tensor
        return base.cpu().numpy().astype(getattr(np, torch_dtype_name(x.dtype)))
    raise ValueError(f"Not a triton-compatible tensor: {x}")


def unwrap_tensor(t):
    return t if isinstance(t, torch.Tensor) else t.base


def default_alloc_fn(size, align, stream):
    return torch.empty(size, dtype=torch.int8, device="cuda")


def _fresh_knobs_impl(skipped_attr=None):
    """(fresh, reset): fresh() gives the tests default knobs, reset() puts
    the previous ones back."""
    knobs = triton.knobs
    saved = knobs.snapshot() if hasattr(knobs, "snapshot") else None

    def fresh():
        if hasattr(knobs, "reset"):
            knobs.reset(skip=skipped_attr or set())
        return knobs

    def reset():
        if saved is not None:
            knobs.restore(saved)

    return fresh, reset
