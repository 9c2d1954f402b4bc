"""tl.inline_asm_elementwise (tlasm.c, cuda_asm.c): Triton's five test_core
kernels, run on the GPU against NumPy, their CUDA text and PTX checked
here (NVRTC, when this machine has it), the host backends' located
refusal, and the argument checks.  The asm is PTX, so only the CUDA
backend runs it; registers are made as Triton's lowering makes them:
outputs first, elements narrower than 32 bits packed into one register
(the first element lowest)."""
import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mytriton import _C


@triton.jit
def shift_kernel(X, Y, Z, n: tl.constexpr, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.load(Y + tl.arange(0, BLOCK))
    s = tl.full([BLOCK], n, tl.int32)
    z = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r, r, r", [x, y, s],
                                  dtype=tl.int32, is_pure=True, pack=1)
    tl.store(Z + tl.arange(0, BLOCK), z)


@triton.jit
def packed_kernel(X, Y, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.inline_asm_elementwise("and.b32 $0, $1, 0x1F1F1F1F; \
                                   shl.b32 $0, $0, 3;", "=r,r", [x], dtype=tl.int8,
                                  is_pure=True, pack=4)
    tl.store(Y + tl.arange(0, BLOCK), y)


@triton.jit
def pointer_kernel(X, Y, BLOCK: tl.constexpr):
    tl.inline_asm_elementwise("ld.global.b8 $0, [$1]; \
                               shl.b32 $0, $0, 3; \
                               st.global.b8 [$2], $0;", "=r,l,l",
                              [X + tl.arange(0, BLOCK), Y + tl.arange(0, BLOCK)], dtype=tl.int8,
                              is_pure=False, pack=1)


@triton.jit
def two_outputs_kernel(A, B, C, D, BLOCK: tl.constexpr):
    a = tl.load(A + tl.arange(0, BLOCK))
    b = tl.load(B + tl.arange(0, BLOCK))
    (c, d) = tl.inline_asm_elementwise(asm="""
        sub.u32 $0, $2, $3;  // C = A - B
        sub.u32 $1, $3, $2;  // D = B - A
        """, constraints="=r,=r,r,r", args=[a, b], dtype=(tl.uint32, tl.uint32),
        is_pure=True, pack=1)
    tl.store(C + tl.arange(0, BLOCK), c)
    tl.store(D + tl.arange(0, BLOCK), d)


@triton.jit
def packed_two_outputs_kernel(A, B, C, D, BLOCK: tl.constexpr):
    a = tl.load(A + tl.arange(0, BLOCK))
    b = tl.load(B + tl.arange(0, BLOCK))
    (c, d) = tl.inline_asm_elementwise(asm="""
        {
            .reg .b8 tmp<4>;
            mov.b32 {tmp0, tmp1, tmp2, tmp3}, $8;
            cvt.u32.u8 $0, tmp0;
            cvt.u32.u8 $1, tmp1;
            cvt.u32.u8 $2, tmp2;
            cvt.u32.u8 $3, tmp3;
        }
        cvt.rn.f32.s32 $4, $0;
        cvt.rn.f32.s32 $5, $1;
        cvt.rn.f32.s32 $6, $2;
        cvt.rn.f32.s32 $7, $3;
        max.f32 $4, $4, $9;
        max.f32 $5, $5, $10;
        max.f32 $6, $6, $11;
        max.f32 $7, $7, $12;
        """, constraints="=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r", args=[a, b],
        dtype=(tl.int32, tl.float32), is_pure=True, pack=4)
    tl.store(C + tl.arange(0, BLOCK), c)
    tl.store(D + tl.arange(0, BLOCK), d)


def cuda_text(fn, sig, num_warps=4):
    src, name = fn._source()
    return _C.compile(src, name, fn.fn.__name__ if hasattr(fn, "fn") else name, sig,
                      fn._globals(), num_warps, "cuda", True, arch="sm_90")


def test_registers_as_tritons_lowering():
    """Outputs first; the four uint8 elements of a pack=4 group in one
    register, the first lowest; f32 elements one register each, their
    bits; $N is %N in CUDA's asm, comments and newlines kept."""
    k = cuda_text(packed_two_outputs_kernel, "*u8:16,*fp32:16,*i32:16,*fp32:16,512")
    cuda = k.stage("cuda")
    assert ("const unsigned mt_q8 = (unsigned)(((unsigned long long)(unsigned char)(mt_a0[0])"
            " << 0) | ((unsigned long long)(unsigned char)(mt_a0[1]) << 8) |") in cuda
    assert "const unsigned mt_q9 = (unsigned)(((unsigned long long)__float_as_uint(mt_a1[0])" in cuda
    assert ': "=r"(mt_q0), "=r"(mt_q1)' in cuda and '"r"(mt_q12));' in cuda
    assert "mov.b32 {tmp0, tmp1, tmp2, tmp3}, %8;\\n" in cuda
    assert "mt_r1[0] = __uint_as_float((unsigned)((unsigned long long)mt_q4));" in cuda
    assert "asm(" in cuda and "asm volatile(" not in cuda  # pure


def test_impure_asm_is_volatile_and_clobbers_memory():
    cuda = cuda_text(pointer_kernel, "*u8:16,*u8:16,512").stage("cuda")
    assert "asm volatile(" in cuda and ': "memory");' in cuda
    assert 'const unsigned long long mt_q1 = (unsigned long long)(((unsigned long long)(mt_a0[0])' in cuda


@pytest.mark.parametrize("fn,sig", [(shift_kernel, "*u32:16,*u32:16,*u32:16,17,128"),
                                    (packed_kernel, "*u8:16,*u8:16,512"),
                                    (pointer_kernel, "*u8:16,*u8:16,512"),
                                    (two_outputs_kernel, "*u32:16,*u32:16,*u32:16,*u32:16,512"),
                                    (packed_two_outputs_kernel,
                                     "*u8:16,*fp32:16,*i32:16,*fp32:16,512")])
def test_ptx_assembles(fn, sig):
    """NVRTC takes the asm statements (where this machine has NVRTC)."""
    k = cuda_text(fn, sig)
    try:
        ptx = k.stage("ptx")
    except Exception as err:  # no NVRTC here; never a failed compilation
        assert "nvrtc" in str(err).lower() and "failed to compile" not in str(err), err
        return
    assert ".entry" in ptx


def test_host_backends_refuse_with_a_location():
    x = torch.zeros(128, dtype=torch.int32)
    with pytest.raises(triton.CompilationError,
                       match=r"test_inline_asm.py:\d+:\d+: error: tl.inline_asm_elementwise runs "
                             r"PTX, which only the CUDA backend runs on a GPU; the .* backend"):
        shift_kernel[(1,)](x, x, x, 17, BLOCK=128)


@triton.jit
def misuse_kernel(X, CASE: tl.constexpr):
    x = tl.load(X + tl.arange(0, 16))
    if CASE == 0:
        y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r,r", [x], dtype=tl.int32,
                                      is_pure=True, pack=1)
    elif CASE == 1:
        y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", x, dtype=tl.int32,
                                      is_pure=True, pack=1)
    elif CASE == 2:
        y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int1,
                                      is_pure=True, pack=1)
    else:
        y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32,
                                      is_pure=True, pack=3)
    tl.store(X + tl.arange(0, 16), y)


@pytest.mark.parametrize("case,msg", [
    (0, r"has 3 constraints; its 1 results and 1 operands take 2 registers at pack=1"),
    (1, r"args must be a list or tuple, got"),
    (2, r"dtype must be a number dtype or a tuple of them"),
    (3, r"pack must be 1, 2, 4, 8 or 16, got 3")])
def test_argument_checks(case, msg):
    src, name = misuse_kernel._source()
    with pytest.raises(Exception, match=msg):
        _C.compile(src, name, "misuse_kernel", f"*i32:16,{case}", misuse_kernel._globals(), 4,
                   "cuda", True, arch="sm_90")


def test_constraint_that_does_not_fit():
    """A 64-bit pointer in an "r" register: refused where the text is made."""
    @triton.jit
    def narrow_pointer(X, BLOCK: tl.constexpr):
        tl.inline_asm_elementwise("st.global.b8 [$1], $0;", "=r,r", [X + tl.arange(0, BLOCK)],
                                  dtype=tl.int8, is_pure=False, pack=1)
    src, name = narrow_pointer._source()
    with pytest.raises(Exception, match=r'register 1 \(an input\) holds 64 bits of'):
        _C.compile(src, name, "narrow_pointer", "*i8:16,128", narrow_pointer._globals(), 4,
                   "cuda", True, arch="sm_90")


def run_on_gpu(device):
    rs = np.random.RandomState(17)
    t = lambda a: torch.from_numpy(a).to(device)
    x = rs.randint(0, 2 ** 32, 128, dtype=np.uint64).astype(np.uint32)
    y = rs.randint(0, 2 ** 32, 128, dtype=np.uint64).astype(np.uint32)
    z = torch.zeros(128, dtype=torch.int32, device=device)
    shift_kernel[(1,)](t(x.view(np.int32)), t(y.view(np.int32)), z, 17, BLOCK=128)
    assert np.array_equal(z.cpu().numpy().view(np.uint32), (y << 17) | (x >> 15))
    u8 = rs.randint(0, 256, 512).astype(np.uint8)
    o = torch.zeros(512, dtype=torch.uint8, device=device)
    packed_kernel[(1,)](t(u8), o, BLOCK=512)
    assert np.array_equal(o.cpu().numpy(), (u8 << 3).astype(np.uint8))
    o.zero_()
    pointer_kernel[(1,)](t(u8), o, BLOCK=512)
    assert np.array_equal(o.cpu().numpy(), (u8 << 3).astype(np.uint8))
    a = rs.randint(0, 2 ** 31, 512).astype(np.int32)
    b = rs.randint(0, 2 ** 31, 512).astype(np.int32)
    c, d = (torch.zeros(512, dtype=torch.int32, device=device) for _ in range(2))
    two_outputs_kernel[(1,)](t(a), t(b), c, d, BLOCK=512)
    assert np.array_equal(c.cpu().numpy(), (a - b).astype(np.int32))
    assert np.array_equal(d.cpu().numpy(), (b - a).astype(np.int32))
    f = rs.randn(512).astype(np.float32) * 300
    c = torch.zeros(512, dtype=torch.int32, device=device)
    d = torch.zeros(512, dtype=torch.float32, device=device)
    packed_two_outputs_kernel[(1,)](t(u8), t(f), c, d, BLOCK=512)
    assert np.array_equal(c.cpu().numpy(), u8.astype(np.int32))
    assert np.array_equal(d.cpu().numpy(), np.maximum(u8.astype(np.float32), f))


def test_runs_on_the_gpu(cuda_device):
    run_on_gpu(cuda_device)


@triton.jit
def comment_kernel(X, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1; // 100% \"q\" \u00e9", "=r,r", [x],
                                  dtype=tl.int32, is_pure=True, pack=1)
    tl.store(X + tl.arange(0, BLOCK), y)


def test_asm_text_is_kept_byte_for_byte():
    """% is %% in CUDA's asm, quotes escaped, bytes past ASCII as octal
    escapes: the PTX NVRTC sees is the text the kernel wrote (ptxas then
    refuses the non-ASCII bytes, as it refuses Triton's PTX with them)."""
    cuda = cuda_text(comment_kernel, "*i32:16,128").stage("cuda")
    assert 'asm("mov.b32 %0, %1; // 100%% \\"q\\" \\303\\251"' in cuda
