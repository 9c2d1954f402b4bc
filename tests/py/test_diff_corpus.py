"""The differential corpus (tests/diff): every case, run on mytriton's host
backend (and on CUDA when there is a GPU), must give Triton's recorded
results.  A case without a recorded result fails: record it on a GPU with
`python3 tests/diff/diffrun.py record DIR` under real Triton.

PENDING lists the cases mytriton cannot pass yet (issue 8's dtypes): each
must still fail, so one that starts to pass is noticed and taken off the
list, and from then on it must keep passing.  A pending case may wait for
its GPU recording; until then mytriton must fail to run it at all.  Cases
with fp8 or uint16/32/64 tensors need torch >= 2.3 (/usr/bin/python3 has
1.13; /work/tvenv's python has 2.9 and loads mytriton too)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "diff"))
import diffrun  # noqa: E402

# cases mytriton cannot pass yet (none now)
PENDING = set()

# cases whose tensors need torch >= 2.3 (uint16/32/64, fp8): CI's Debian
# torch is 1.13; the GPU machine (torch 2.11) and a torch 2 venv run them
NEEDS_TORCH_2_3 = {"dtype_casts", "dtype_casts_fp8", "dtype_dot", "dtype_int_semantics",
                   "dtype_introspection", "dtype_load_store", "dtype_promotion",
                   "dtype_reduce"}


# cases without their GPU recording yet.  descriptor_gather matched a dry
# run under Triton's interpreter (TRITON_INTERPRET=1 ... record) on both
# host backends, but compiled Triton on sm_90 cannot run it: descriptor
# gathers need sm_100 (ptxas: ".tile::gather4 ... requires sm_100"), and
# the lent GPUs are sm_90.  Until one is, mytriton must run it.
# (descriptor_load_store and descriptor_host, whose stores once started
# before the tensor, which stopped compiled Triton's TMA store with an
# illegal instruction, are recorded since their stores start inside it.)
# debug_noinline's first recording came from Triton's interpreter, which
# lets a noinline helper take blocks and a repr= name that is no
# identifier; compiled Triton 3.6 refuses both (checked on the H100), so
# the case now calls its helpers with scalars under an identifier, and
# is recorded under compiled Triton (H200); a first try there found that
# Triton 3.6 accepts a one-element block for a noinline helper but fails to
# lower it (make_ttgir), so the case passes scalars only.
# lang_tuples_pointers_rank3's first recording (H100) matched but for a
# tl.reduce whose combine was not commutative (the first of -3 and 3 kept:
# Triton combines the batch dim in another order); its combine is a total
# order now, recorded again (H200).
# range_num_stages_loads: loads of tl.range(num_stages=) loops (pipeload.c);
# shape_gather: tl.gather.  lang_map_elementwise (tl.map_elementwise) is
# recorded under compiled Triton (H100, 2026-12-07).  descriptor_gather
# again that day: compiled Triton still refuses it on sm_90 (the same
# ptxas error), and mytriton's host results equal, bit for bit, a fresh
# interpreter recording made on the device machine.
# lang_assign_binds_tensor (2026-12-07, no GPU lent that session): its
# values are checked against Triton 3.6's TTIR, compiled offline for sm_90,
# in tests/py/test_assign_binding.py; record it on the next GPU.
# math_libdevice_all: every libdevice function that is a call of the
# runtime's mt_nv_*; its host results are checked against exact and mpmath
# references in tests/py/test_libdevice_fns.py until it is recorded.
# math_libdevice_ftz: libdevice's fp32 functions flush subnormals (Triton's
# PTX of them has the .ftz forms, read offline); the values are asserted in
# test_libdevice_fns.py's test_fp32_functions_flush_subnormals.
AWAITING_GPU = {"descriptor_gather", "lang_assign_binds_tensor", "math_libdevice_all",
                "math_libdevice_ftz"}


# cases bit for bit only where the reduction runs in Triton's thread order
# (the GPU and the fiber backend, which run the same CUDA C): the cpu
# backend sums a row in vector-wide partials (cpu_ops.c), a reassociation
# Triton allows, so there it is compared to a tolerance (fp16 sums round
# at 11 bits)
CPU_BACKEND_TOLERANCE = {
    "reduce_order": ({"rtol": 1e-5, "atol": 1e-3}, {"row_f16": {"rtol": 2e-3, "atol": 0.0}}),
}


def on_cpu_backend(device):
    return device == "cpu" and os.environ.get("MYTRITON_BACKEND", "cpu") not in ("fiber", "host")


@pytest.mark.parametrize("case", [c for c in diffrun.cases()
                                  if c not in PENDING and c not in AWAITING_GPU])
def test_matches_triton(case, device):
    import torch
    if case in NEEDS_TORCH_2_3 and not hasattr(torch, "uint16"):
        pytest.skip(f"torch {torch.__version__} has no uint16/fp8 tensors")
    tol, tol_for = CPU_BACKEND_TOLERANCE.get(case, (None, None)) if on_cpu_backend(device) \
        else (None, None)
    msg = diffrun.compare(case, device, tol, tol_for)
    assert msg is None, msg


@pytest.mark.parametrize("case", sorted(PENDING))
def test_pending_still_fails(case, device):
    """Until Triton's results are recorded (expected/<case>.json), mytriton
    must fail to run the case at all; after, it must fail to match them."""
    assert case in diffrun.cases(), f"{case} is pending but not in the corpus"
    recorded = os.path.exists(os.path.join(diffrun.EXPECTED, case + ".json"))
    try:
        if not recorded:
            diffrun.run_case(case, "mytriton", device)
            pytest.fail(f"{case} runs on mytriton: record Triton's results to compare")
        msg = diffrun.compare(case, device)
    except Exception:  # a compile error is a failure like a wrong result
        return
    assert msg is not None, f"{case} now matches Triton: take it off PENDING"


@pytest.mark.parametrize("case", sorted(AWAITING_GPU))
def test_awaiting_gpu_runs(case, device):
    assert not os.path.exists(os.path.join(diffrun.EXPECTED, case + ".json")), \
        f"{case} is recorded: take it off AWAITING_GPU"
    results = diffrun.run_case(case, "mytriton", device)
    assert results and all(v.numel() for v in results.values())


def test_json_keeps_every_bit():
    import torch
    nan_payload = torch.tensor([0x7E01, -0x8000, 0x0001], dtype=torch.int16).view(torch.float16)
    results = {
        "h": nan_payload,
        "b": torch.tensor([1.0, -0.0, float("inf")], dtype=torch.bfloat16),
        "d": torch.tensor([1 / 3, -0.0, 5e-324], dtype=torch.float64),
        "i": torch.tensor([-2**63, 2**63 - 1], dtype=torch.int64),
        "z": torch.tensor([True, False]),
    }
    if hasattr(torch, "uint64"):  # torch >= 2.3
        results["e"] = torch.arange(-128, 128, dtype=torch.int8).view(torch.float8_e4m3fn)
        results["u"] = torch.tensor([-1, 5], dtype=torch.int64).view(torch.uint64)
    back = diffrun.from_json(diffrun.to_json(results))
    for k, v in results.items():
        assert back[k].dtype == v.dtype
        assert torch.equal(diffrun.bits(back[k]), diffrun.bits(v)), k
    assert diffrun.mismatch("t", back, results, {"ulp": 0}) is None


def test_ulp_tolerance():
    import torch
    one = torch.tensor([1.0], dtype=torch.float16)
    two_up = torch.tensor([0x3C02], dtype=torch.int16).view(torch.float16)
    assert diffrun.mismatch("t", {"x": two_up}, {"x": one}, {"ulp": 2}) is None
    assert diffrun.mismatch("t", {"x": two_up}, {"x": one}, {"ulp": 1}) is not None
    zero, neg_zero = torch.zeros(1), -torch.zeros(1)
    assert diffrun.mismatch("t", {"x": neg_zero}, {"x": zero}, {"ulp": 0}) is not None
    assert diffrun.mismatch("t", {"x": neg_zero}, {"x": zero}, {"ulp": 1}) is None
    tiny = torch.tensor([1], dtype=torch.int32).view(torch.float32)
    assert diffrun.mismatch("t", {"x": -tiny}, {"x": tiny}, {"ulp": 2}) is None
    assert diffrun.mismatch("t", {"x": -tiny}, {"x": tiny}, {"ulp": 1}) is not None
    nans = torch.tensor([0x7FC00000, -0x400000], dtype=torch.int32).view(torch.float32)
    assert diffrun.mismatch("t", {"x": nans}, {"x": nans.flip(0)}, {"ulp": 0}) is None
    h = torch.tensor([0x7C00], dtype=torch.int16).view(torch.float16)
    assert "(0x7c00)" in diffrun.mismatch("t", {"x": one}, {"x": h}, {"ulp": 0})
    if hasattr(torch, "uint64"):  # torch >= 2.3
        u = torch.tensor([-1], dtype=torch.int64).view(torch.uint64)
        u2 = torch.tensor([-2], dtype=torch.int64).view(torch.uint64)
        msg = diffrun.mismatch("t", {"x": u2}, {"x": u}, {"ulp": 9})
        assert "18446744073709551615 (0xffffffffffffffff)" in msg
