"""mytriton.language offers exactly the kernel language the compiler knows:
its names come from the compiler's own tables (_C.language_names()), so
every builtin the compiler accepts is exposed and nothing it rejects is.
The one exception is dtypes: every Triton dtype is a Python value (programs
compare them and pass them as constexprs), and a kernel that uses one the
compiler does not support yet gets a located "not supported yet" error."""
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton import _C

NAMES = _C.language_names()
PRELUDE = "import mytriton as triton\nimport mytriton.language as tl\n\n\n@triton.jit\n"


def compile_body(body):
    """Compiles k(out) with the given body; raises CompilationError."""
    _C.compile(PRELUDE + "def k(out):\n" + body, "k.py", "k", "*fp32",
               stages_only=True)


def test_groups_and_usage():
    assert set(NAMES) == {"tl", "dtype", "method", "builtin", "triton"}
    tl_names = [n for n, _ in NAMES["tl"]]
    assert "max_constancy" in tl_names
    assert len(tl_names) == len(set(tl_names))
    assert [n for n, _ in NAMES["dtype"]] == ["int1", "int32", "int64", "float32"]
    assert {n for n, _ in NAMES["triton"]} == {"cdiv", "jit"}
    for name, usage in NAMES["tl"] + NAMES["method"]:
        assert usage.startswith(name + "("), (name, usage)


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
    if name in ("dtype", "tensor"):
        # types for annotations, which kernels never evaluate
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
    assert isinstance(d, tl.dtype) and repr(d) == f"triton.language.{d.name}"
    with pytest.raises(triton.CompilationError, match="not supported yet"):
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


def test_max_constancy_is_a_hint():
    compile_body("    x = tl.max_constancy(tl.arange(0, 8), 8)\n"
                 "    tl.store(out + x, 1.0)\n")
    assert "max_constancy(" in tl.max_constancy.__doc__


def test_builtins_refuse_to_run_in_python():
    with pytest.raises(RuntimeError, match="only be used inside"):
        tl.exp(1.0)
    with pytest.raises(RuntimeError, match="only be used inside"):
        tl.tensor.to(None, tl.float32)
