"""mytriton.language offers exactly the kernel language the compiler knows:
its names come from the compiler's own tables (_C.language_names()), so
every builtin the compiler accepts is exposed and nothing it rejects is.
The one exception is dtypes: every Triton dtype is a Python value (programs
compare them and pass them as constexprs), and a kernel that uses one the
compiler does not support gets a located "not supported" error."""
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mytriton import _C
from mtutil import assert_compile_error

NAMES = _C.language_names()
PRELUDE = "import mytriton as triton\nimport mytriton.language as tl\n\n\n@triton.jit\n"


def compile_body(body):
    """Compiles k(out) with the given body; raises CompilationError."""
    _C.compile(PRELUDE + "def k(out):\n" + body, "k.py", "k", "*fp32",
               stages_only=True)


def test_groups_and_usage():
    assert set(NAMES) == {"tl", "dtype", "method", "builtin", "triton", "libdevice"}
    tl_names = [n for n, _ in NAMES["tl"]]
    assert "max_constancy" in tl_names
    assert len(tl_names) == len(set(tl_names))
    assert [n for n, _ in NAMES["dtype"]] == [
        "int1", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float8e4nv", "float8e5", "float16", "bfloat16", "float32", "float64"]
    # every Triton dtype but the AMD-only fp8 variants (and void)
    assert set(tl._DTYPES) - set(tl.SUPPORTED_DTYPES) == {
        "float8e4b15", "float8e4b8", "float8e5b16", "void"}
    assert {n for n, _ in NAMES["triton"]} == {"cdiv", "jit"}
    for name, usage in NAMES["tl"] + NAMES["method"] + NAMES["libdevice"]:
        # a class kernels only name (for isinstance) reads "name: what it is"
        is_class = usage.startswith(name + ": ") and isinstance(getattr(tl, name), type)
        assert usage.startswith(name + "(") or is_class, (name, usage)


@pytest.mark.parametrize("name", [n for n, _ in NAMES["tl"]])
def test_every_tl_builtin_is_exposed(name):
    assert name in tl.__all__
    assert callable(getattr(tl, name))
    compile_body(f"    x = tl.{name}\n")


@pytest.mark.parametrize("name", [n for n, _ in NAMES["dtype"]])
def test_every_dtype_is_exposed(name):
    assert name in tl.__all__ and name in tl.SUPPORTED_DTYPES
    assert getattr(tl, name) == tl.dtype(tl._DTYPES[name])
    compile_body(f"    x = tl.{name}\n")


@pytest.mark.parametrize("name", [n for n, _ in NAMES["method"]])
def test_every_tensor_method_is_exposed(name):
    assert callable(getattr(tl.tensor, name))
    compile_body(f"    x = tl.arange(0, 8).{name}\n")


@pytest.mark.parametrize("name", [n for n, _ in NAMES["triton"]])
def test_every_triton_function_is_exposed(name):
    assert callable(getattr(triton, name))
    compile_body(f"    x = triton.{name}\n")


@pytest.mark.parametrize("name", [n for n in tl.__all__
                                  if (n not in tl._DTYPES or n in tl.SUPPORTED_DTYPES)
                                  and n != "str_to_ty"])  # a host-side helper
def test_nothing_the_compiler_rejects(name):
    if name == "const":
        # an annotation, which kernels never evaluate
        compile_body(f"    x: tl.{name} = 1\n")
    elif name in ("dtype", "tensor"):
        # types for annotations, and classes for isinstance
        compile_body(f"    x: tl.{name} = 1\n")
    else:
        compile_body(f"    x = tl.{name}\n")


@pytest.mark.parametrize("name", ["no_such_builtin", "float16x"])
def test_rejected_names_are_absent(name):
    assert not hasattr(tl, name)
    with pytest.raises(triton.CompilationError):
        compile_body(f"    x = tl.{name}\n")


@pytest.mark.parametrize("name", sorted(set(tl._DTYPES) - set(tl.SUPPORTED_DTYPES) - {"void"}))
def test_unsupported_dtypes_are_values_refused_in_kernels(name):
    d = getattr(tl, name)
    assert isinstance(d, tl.dtype) and repr(d) == f"triton.language.{name}"
    with pytest.raises(triton.CompilationError, match=f"dtype {name} is not supported"):
        compile_body(f"    x = tl.{name}\n")


def test_dtype_values_follow_triton():
    assert (tl.float16.name, tl.bfloat16.name, tl.float32.name) == ("fp16", "bf16", "fp32")
    assert str(tl.int32) == "int32" and tl.int1.is_int() and tl.int1.is_bool()
    assert tl.uint8.get_int_max_value() == 255 and tl.int8.get_int_min_value() == -128
    assert tl.float8e4nv.is_fp8() and tl.float8e4nv.fp_mantissa_width == 3
    assert tl.str_to_ty("fp16") == tl.float16 and tl.str_to_ty("u8") == tl.uint8
    assert tl.dtype(tl.constexpr("fp64")) == tl.float64
    with pytest.raises(ValueError):
        tl.dtype("float128")


# name -> (is_floating, is_int_signed, is_int_unsigned, primitive_bitwidth,
#          int_bitwidth or fp_mantissa_width, exponent_bias), as Triton's core.py
TRITON_DTYPES = {
    "int1": (False, False, True, 1, 1, None), "int8": (False, True, False, 8, 8, None),
    "int16": (False, True, False, 16, 16, None), "int32": (False, True, False, 32, 32, None),
    "int64": (False, True, False, 64, 64, None), "uint8": (False, False, True, 8, 8, None),
    "uint16": (False, False, True, 16, 16, None),
    "uint32": (False, False, True, 32, 32, None),
    "uint64": (False, False, True, 64, 64, None),
    "float8e4nv": (True, False, False, 8, 3, 7), "float8e5": (True, False, False, 8, 2, 15),
    "float8e4b15": (True, False, False, 8, 3, 15), "float8e4b8": (True, False, False, 8, 3, 8),
    "float8e5b16": (True, False, False, 8, 2, 16), "float16": (True, False, False, 16, 10, 15),
    "bfloat16": (True, False, False, 16, 7, 127), "float32": (True, False, False, 32, 23, 127),
    "float64": (True, False, False, 64, 52, 1023),
}


@pytest.mark.parametrize("spelling", list(TRITON_DTYPES))
def test_dtype_introspection_as_triton(spelling):
    d = getattr(tl, spelling)
    fl, signed, unsigned, bits, width, bias = TRITON_DTYPES[spelling]
    assert (d.is_floating(), d.is_int_signed(), d.is_int_unsigned()) == (fl, signed, unsigned)
    assert d.is_int() == (signed or unsigned) and d.primitive_bitwidth == bits
    assert d.itemsize == bits // 8 and repr(d) == f"triton.language.{spelling}"
    assert d.codegen_name() == spelling and d.cache_key_part == d.name
    assert tl.dtype.is_dtype(d.name) and not d.is_ptr() and not d.is_block()
    if fl:
        assert (d.fp_mantissa_width, d.exponent_bias) == (width, bias)
        assert d.kind() == tl.dtype.KIND.FLOATING and d.mangle() == d.name
        assert not hasattr(d, "int_bitwidth")
    else:
        assert d.int_bitwidth == width and not hasattr(d, "fp_mantissa_width")
        assert d.int_signedness == (tl.dtype.SIGNEDNESS.SIGNED if signed
                                    else tl.dtype.SIGNEDNESS.UNSIGNED)
        assert d.mangle() == ("i" if signed else "u") + str(width)
        assert d.kind() == (tl.dtype.KIND.BOOLEAN if spelling == "int1"
                            else tl.dtype.KIND.INTEGRAL)
    # exactly one is_<name>() predicate holds, and it is this dtype's
    preds = ["is_" + getattr(tl, n).name for n in TRITON_DTYPES]  # is_fp16, is_uint8...
    assert [p for p in preds if getattr(d, p)()] == ["is_" + d.name]
    assert d.is_fp16() == (spelling == "float16") and d.is_bf16() == (spelling == "bfloat16")
    assert d.is_fp8() == (bits == 8 and fl)
    assert d == tl.constexpr(d) and (d != tl.float32) == (spelling != "float32")
    assert d.with_element_ty(tl.int8) == tl.int8 and d.scalar is d


def test_max_constancy_is_a_hint():
    compile_body("    x = tl.max_constancy(tl.arange(0, 8), 8)\n"
                 "    tl.store(out + x, 1.0)\n")
    assert "max_constancy(" in tl.max_constancy.__doc__


def test_builtins_refuse_to_run_in_python():
    with pytest.raises(RuntimeError, match="only be used inside"):
        tl.exp(1.0)
    with pytest.raises(RuntimeError, match="only be used inside"):
        tl.tensor.to(None, tl.float32)


@triton.jit
def getattr_kernel(A, B, C, FUNC: tl.constexpr, MODE: tl.constexpr):
    # Triton's test_propagate_nan spelling: the function and the NaN mode
    # chosen by compile-time names
    tl.store(C, getattr(tl, FUNC)(tl.load(A), tl.load(B),
                                  propagate_nan=getattr(tl.PropagateNan, MODE)))


@triton.jit
def getattr_runtime_name_kernel(A, n):
    tl.store(A, getattr(tl, n))


@pytest.mark.parametrize("func,mode,nan", [("maximum", "NONE", False), ("maximum", "ALL", True),
                                           ("minimum", "ALL", True)])
def test_getattr_with_a_constexpr_name(device, func, mode, nan):
    a = torch.tensor([float("nan")], device=device)
    b = torch.tensor([0.5], device=device)
    c = torch.zeros(1, device=device)
    getattr_kernel[(1,)](a, b, c, func, mode)
    assert bool(torch.isnan(c.cpu())[0]) == nan


def test_getattr_needs_a_compile_time_name():
    assert_compile_error(getattr_runtime_name_kernel, (torch.zeros(1), 3),
                         needle="getattr(tl, n)",
                         pattern=r"getattr\(\) attribute name must be a compile-time string, got")


@triton.jit
def num_threads_kernel(Out, W):
    num_threads: tl.constexpr = tl.extra.cuda.num_threads()
    tl.store(Out + tl.arange(0, num_threads), 1)
    tl.store(W, tl.extra.cuda.num_warps())


@pytest.mark.parametrize("warps", [1, 4, 8])
def test_cuda_num_threads_and_warps(device, warps):
    out = torch.zeros(256 + 1, dtype=torch.int32, device=device)
    w = torch.zeros(1, dtype=torch.int32, device=device)
    num_threads_kernel[(1,)](out, w, num_warps=warps)
    assert int(out.sum()) == 32 * warps and int(out[32 * warps]) == 0
    assert int(w[0]) == warps
