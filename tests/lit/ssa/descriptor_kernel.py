# RUN: %mytriton compile %s --kernel desc3_kernel --signature '*fp32:16,*fp32:16,i32,i32,i32,i32,2,4,8' --emit ssa-opt | %FileCheck %s
# A tensor descriptor is no IR value: a load through it is the strided
# block access of a block pointer with every dim bounds-checked, except
# the bounds a compile-time offset already meets (offset 0: no low test).
# A rank-3 block is loaded in its [rows, last dim] view (rows 2 x 4: the
# leading dims' indices are row / 4 and row % 4) and reshaped; the flat
# store through a rank-1 descriptor of a compile-time shape needs no mask.
# CHECK: [[STR0:%[0-9]+]] = cast %{{[0-9]+}} : i64
# CHECK: [[STR1:%[0-9]+]] = cast C : i64
# CHECK: [[ROW:%[0-9]+]] = arange {start=0, end=8} : vector<8 x i32>
# CHECK: [[ROW64:%[0-9]+]] = cast [[ROW]] : vector<8 x i64>
# CHECK: [[I0:%[0-9]+]] = div [[ROW64]], 4 : vector<8 x i64>
# CHECK: [[P0:%[0-9]+]] = add [[I0]], %{{[0-9]+}} : vector<8 x i64>
# CHECK: [[E0:%[0-9]+]] = expand_dims [[P0]] {axis=1} : block<8x1 x i64>
# CHECK: [[I1:%[0-9]+]] = rem [[ROW64]], 4 : vector<8 x i64>
# CHECK: [[E1:%[0-9]+]] = expand_dims [[I1]] {axis=1} : block<8x1 x i64>
# CHECK: [[E2:%[0-9]+]] = expand_dims [[ROW64]] {axis=0} : block<1x8 x i64>
# CHECK: mul [[E0]], [[STR0]] : block<8x1 x i64>
# CHECK: cmp_ge [[E0]], 0 : block<8x1 x bool>
# CHECK: cmp_lt [[E0]], A : block<8x1 x bool>
# CHECK: mul [[E1]], [[STR1]] : block<8x1 x i64>
# CHECK-NOT: cmp_ge [[E1]]
# CHECK: cmp_lt [[E1]], B : block<8x1 x bool>
# CHECK-NOT: cmp_ge [[E2]]
# CHECK: cmp_lt [[E2]], C : block<1x8 x bool>
# CHECK: [[V:%[0-9]+]] = load %{{[0-9]+}}, %{{[0-9]+}}, 0.0 : block<8x8 x f32>
# CHECK: [[V3:%[0-9]+]] = reshape [[V]] : block<2x4x8 x f32>
# CHECK: [[FLAT:%[0-9]+]] = reshape [[V3]] : vector<64 x f32>
# CHECK: store %{{[0-9]+}}, [[FLAT]], none
# A descriptor made on the host is a signature entry of Triton's spelling,
# its parts parameters of their own (the last stride is the constant 1).
# RUN: %mytriton compile %s --kernel host_kernel --signature 'tensordesc<fp16[16, 64]>, tensordesc<fp16[16, 64],nan>' --emit ssa-opt | %FileCheck %s --check-prefix=HOST
# HOST: mul %{{[0-9]+}}, a__stride_0 : block<16x1 x i64>
# HOST: cmp_lt %{{[0-9]+}}, a__shape_0 : block<16x1 x bool>
# HOST: cmp_lt %{{[0-9]+}}, a__shape_1 : block<1x64 x bool>
# HOST: addptr a, %{{[0-9]+}} : block<16x64 x ptr<f16>>
# HOST: load %{{[0-9]+}}, %{{[0-9]+}}, f16(0.0) : block<16x64 x f16>
# HOST: load %{{[0-9]+}}, %{{[0-9]+}}, f16(nan) : block<16x64 x f16>
# RUN: %not %mytriton compile %s --kernel host_kernel --signature 'tensordesc<fp16[16, 64]>, tensordesc<fp16[16 64]>' 2>&1 | %FileCheck %s --check-prefix=BAD
# BAD: <signature>:1:27: error: malformed tensor descriptor 'tensordesc<fp16[16 64]>' (expected tensordesc<fp16[64, 64]>)
# RUN: %not %mytriton compile %s --kernel host_kernel --signature 'tensordesc<fp16[16, 64]>, tensordesc<i32[16, 64],nan>' 2>&1 | %FileCheck %s --check-prefix=NANI
# NANI: error: Padding option `nan` is not supported for integer blocks (parameter 'b')
import mytriton as triton
import mytriton.language as tl


@triton.jit
def desc3_kernel(x, out, A, B, C, oa, BA: tl.constexpr, BB: tl.constexpr, BC: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [A, B, C], [B * C, C, 1], [BA, BB, BC])
    v = d.load([oa, 0, 0])
    o = tl.make_tensor_descriptor(out, [BA * BB * BC], [1], [BA * BB * BC])
    o.store([0], v.reshape(BA * BB * BC))


@triton.jit
def host_kernel(a, b):
    x = a.load([tl.program_id(0) * 16, 0])
    y = b.load([tl.program_id(0) * 16, 0])
    a.store([0, 0], x + y)
