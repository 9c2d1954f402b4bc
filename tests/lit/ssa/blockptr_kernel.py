# RUN: %mytriton compile %s --kernel tile_kernel --signature '*fp32:16,*fp32:16,i32,i32,i32,16,32' --emit ssa-opt | %FileCheck %s
# A block pointer is no IR value: a load or store through it is i64 address
# arithmetic, (offset + arange) * stride per dim summed onto the base, with
# the checked dims' masks (0 <= position < shape) and the padding as other.
# CHECK: [[SHM:%[0-9]+]] = cast M : i64
# CHECK: [[SHN:%[0-9]+]] = cast N : i64
# CHECK: [[STR:%[0-9]+]] = cast stride : i64
# CHECK: [[R0:%[0-9]+]] = arange {start=0, end=16} : vector<16 x i32>
# CHECK: cast [[R0]] : vector<16 x i64>
# CHECK: [[ROWS:%[0-9]+]] = expand_dims %{{[0-9]+}} {axis=1} : block<16x1 x i64>
# CHECK: mul [[ROWS]], [[STR]] : block<16x1 x i64>
# CHECK: [[GE:%[0-9]+]] = cmp_ge [[ROWS]], 0 : block<16x1 x bool>
# CHECK: [[LT:%[0-9]+]] = cmp_lt [[ROWS]], [[SHM]] : block<16x1 x bool>
# CHECK: [[IN:%[0-9]+]] = and [[GE]], [[LT]] : block<16x1 x bool>
# CHECK: [[P:%[0-9]+]] = addptr x, %{{[0-9]+}} : block<16x32 x ptr<f32>>
# CHECK: [[M:%[0-9]+]] = broadcast [[IN]] : block<16x32 x bool>
# CHECK: [[V:%[0-9]+]] = load [[P]], [[M]], 0.0 : block<16x32 x f32>
# CHECK: add %{{[0-9]+}}, 32 : vector<32 x i64>
# CHECK: mul [[ROWS]], [[SHN]] : block<16x1 x i64>
# CHECK: cmp_lt %{{[0-9]+}}, [[SHN]] : block<1x32 x bool>
# CHECK: [[Q:%[0-9]+]] = addptr out, %{{[0-9]+}} : block<16x32 x ptr<f32>>
# CHECK: store [[Q]], [[V]], %{{[0-9]+}}
import mytriton as triton
import mytriton.language as tl


@triton.jit
def tile_kernel(x, out, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    src = tl.make_block_ptr(x, (M, N), (stride, 1), (pid * BM, 0), (BM, BN), (1, 0))
    v = tl.load(src, boundary_check=(0,), padding_option="zero")
    dst = tl.make_block_ptr(out, (M, N), (N, 1), (pid * BM, 0), (BM, BN), (1, 0))
    tl.store(tl.advance(dst, (0, BN)), v, boundary_check=(0, 1))
