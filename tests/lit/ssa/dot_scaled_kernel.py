# tl.dot_scaled as the ops of Triton's decomposition (tldotscaled.c): e2m1
# nibbles interleaved along K and made bf16 by integer ops, the e8m0
# scales broadcast along K by rank-2 shape ops and shifted into bf16's
# exponent, NaN where a scale is 0xFF, then a bf16 dot with an f32 result.
# With an fp16 operand the compute type is fp16: the scale goes through f32
# (shift 23) and is rounded to fp16; fast_math drops the NaN select.
# RUN: %mytriton compile %s --kernel ds_kernel --signature '*u8:16,*u8:16,*bf16:16,*fp32:16,False' --emit ssa-opt | %FileCheck --strict-whitespace %s
# RUN: %mytriton compile %s --kernel ds_kernel --signature '*u8:16,*u8:16,*fp16:16,*fp32:16,True' --emit ssa-opt | %FileCheck --strict-whitespace %s --check-prefix=F16
import mytriton as triton
import mytriton.language as tl


@triton.jit
def ds_kernel(a_ptr, s_ptr, b_ptr, c_ptr, HALF: tl.constexpr):
    # fp16 rhs with fast_math, else bf16
    FB: tl.constexpr = "fp16" if HALF else "bf16"
    a = tl.load(a_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    s = tl.load(s_ptr + tl.arange(0, 32)[:, None] * 2 + tl.arange(0, 2)[None, :])
    b = tl.load(b_ptr + tl.arange(0, 64)[:, None] * 32 + tl.arange(0, 32)[None, :])
    c = tl.dot_scaled(a, s, "e2m1", b, None, FB, fast_math=HALF)
    tl.store(c_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :], c)
# CHECK: [[LO:%[0-9]+]] = and [[A:%[0-9]+]], u8(15) : block<32x32 x u8>
# CHECK-NEXT: [[HI:%[0-9]+]] = shr [[A]], u8(4) : block<32x32 x u8>
# CHECK-NEXT: [[J:%[0-9]+]] = join [[LO]], [[HI]] : block<32x32x2 x u8>
# CHECK-NEXT: [[CODES:%[0-9]+]] = reshape [[J]] : block<32x64 x u8>
# CHECK-NEXT: [[C16:%[0-9]+]] = cast [[CODES]] : block<32x64 x u16>
# CHECK-NEXT: [[EM:%[0-9]+]] = and [[C16]], u16(7) : block<32x64 x u16>
# CHECK-NEXT: [[SH:%[0-9]+]] = shl [[EM]], u16(6) : block<32x64 x u16>
# CHECK-NEXT: [[NORM:%[0-9]+]] = add [[SH]], u16(16128) : block<32x64 x u16>
# CHECK-NEXT: [[SUB:%[0-9]+]] = mul [[EM]], u16(16128) : block<32x64 x u16>
# CHECK-NEXT: [[SMALL:%[0-9]+]] = cmp_lt [[EM]], u16(2) : block<32x64 x bool>
# CHECK-NEXT: [[MAG:%[0-9]+]] = select [[SMALL]], [[SUB]], [[NORM]] : block<32x64 x u16>
# CHECK-NEXT: [[SB:%[0-9]+]] = and [[C16]], u16(8) : block<32x64 x u16>
# CHECK-NEXT: [[SIGN:%[0-9]+]] = shl [[SB]], u16(12) : block<32x64 x u16>
# CHECK-NEXT: [[BITS:%[0-9]+]] = or [[MAG]], [[SIGN]] : block<32x64 x u16>
# CHECK-NEXT: [[V:%[0-9]+]] = bitcast [[BITS]] : block<32x64 x bf16>
# CHECK-NEXT: [[R1:%[0-9]+]] = reshape [[S:%[0-9]+]] : block<64x1 x u8>
# CHECK-NEXT: [[BC:%[0-9]+]] = broadcast [[R1]] : block<64x32 x u8>
# CHECK-NEXT: [[SK:%[0-9]+]] = reshape [[BC]] : block<32x64 x u8>
# CHECK-NEXT: [[S16:%[0-9]+]] = cast [[SK]] : block<32x64 x u16>
# CHECK-NEXT: [[EXP:%[0-9]+]] = shl [[S16]], u16(7) : block<32x64 x u16>
# CHECK-NEXT: [[SCALE:%[0-9]+]] = bitcast [[EXP]] : block<32x64 x bf16>
# CHECK-NEXT: [[PROD:%[0-9]+]] = mul [[V]], [[SCALE]] : block<32x64 x bf16>
# CHECK-NEXT: [[ISNAN:%[0-9]+]] = cmp_eq [[SK]], u8(255) : block<32x64 x bool>
# CHECK-NEXT: [[LHS:%[0-9]+]] = select [[ISNAN]], bf16(nan), [[PROD]] : block<32x64 x bf16>
# CHECK-NEXT: dot [[LHS]], [[B:%[0-9]+]], none {input_precision=ieee} : block<32x32 x f32>
# F16: add %{{[0-9]+}}, u16(14336) : block<32x64 x u16>
# F16: bitcast %{{[0-9]+}} : block<32x64 x f16>
# F16: cast %{{[0-9]+}} : block<32x64 x u32>
# F16-NEXT: shl %{{[0-9]+}}, u32(23) : block<32x64 x u32>
# F16-NEXT: bitcast %{{[0-9]+}} : block<32x64 x f32>
# F16-NEXT: [[SCALE:%[0-9]+]] = cast %{{[0-9]+}} : block<32x64 x f16>
# F16-NEXT: [[PROD:%[0-9]+]] = mul %{{[0-9]+}}, [[SCALE]] : block<32x64 x f16>
# F16-NOT: select
# F16: dot [[PROD]], %{{[0-9]+}}, none {input_precision=ieee} : block<32x32 x f32>
