"""Triton 3.6 binds a Python number assigned to a name as a scalar tensor
(code_generator.visit_Assign, visit_Return, augmented assignment), of
to_tensor's type: i32, u32 in [2**31, 2**32), i64; f32, f64 where only f64
holds it.  mytriton once kept such names Python numbers, which gave other
results wherever the tensor's arithmetic differs from Python's.

The expected values are those of Triton 3.6's TTIR for the differential
corpus case lang_assign_binds_tensor (tests/diff/corpus), compiled offline
for sm_90 with `triton.compile(ASTSource(...), target=GPUTarget("cuda", 90,
32))`: every stored value there is a folded constant, or (the f16 block)
`extf`, `mulf` by 0.1f and `truncf`, which the NumPy lines below repeat.
The case awaits its GPU recording (test_diff_corpus.AWAITING_GPU)."""
import os
import sys

import numpy as np
import pytest
import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "diff"))
import diffrun  # noqa: E402

import mytriton as triton  # noqa: E402
import mytriton.language as tl  # noqa: E402


def test_bound_numbers_compute_as_triton_tensors(device):
    r = diffrun.run_case("lang_assign_binds_tensor", "mytriton", device)
    assert r["ints"].tolist() == [-2**31, 0, 0, -3, -1, 3 * 2**40, 0, -2147483296, 2**31,
                                  -2147483646]
    assert r["range_index"].tolist() == [0, -2**31, 0, -1, -2, -2]
    assert r["int_arg1"].tolist() == [4294967294, -1, -128]  # the constexpr 1
    assert r["int_arg2"].tolist() == [-4, -1, 129]  # an i32 argument
    # f16(0.1) == 0.1 in f32 is False; 255 == -1 in i32; u32 2**32 - 1 == -1
    assert r["compare_numbers"].tolist() == [0, 1, 0, 1, 1, 0, 0, 1]
    assert r["floats32"][0].item() == float("inf")
    assert r["floats64"].tolist() == [1e300, 1e301]
    x = np.linspace(-3, 3, 16, dtype=np.float32).astype(np.float16)
    y = x.astype(np.float32) * np.float32(0.1)
    assert np.array_equal(r["floats32"][1:].numpy(), y)
    assert np.array_equal(r["y16"].numpy(), (y * np.float32(3.0)).astype(np.float16))


@triton.jit
def arange_of_bound(out):
    n = 16
    tl.store(out + tl.arange(0, n), 1)


@triton.jit
def static_range_of_bound(out):
    n = 4
    for i in tl.static_range(n):
        tl.store(out + i, i)


@triton.jit
def constexpr_name(out):
    n: tl.constexpr = 16
    tl.store(out + tl.arange(0, n), 1)


@pytest.mark.parametrize("kernel", [arange_of_bound, static_range_of_bound])
def test_a_bound_number_is_no_longer_constexpr(kernel):
    out = torch.zeros(16, dtype=torch.int32)
    with pytest.raises(triton.CompilationError) as info:
        kernel[(1,)](out)
    assert "must be compile-time integers" in str(info.value)
    assert out.eq(0).all()


def test_a_constexpr_annotated_name_stays_constexpr():
    out = torch.zeros(16, dtype=torch.int32)
    constexpr_name[(1,)](out)
    assert out.eq(1).all()
