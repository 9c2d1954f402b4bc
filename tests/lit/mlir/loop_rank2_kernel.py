# RUN: %mytriton compile %s --kernel loop_rank2_kernel --signature '*fp32,*fp32,i32,i32,i32,16,32' --emit mlir | %FileCheck %s
# RUN: %mytriton compile %s --kernel loop_rank2_kernel --signature '*fp32,*fp32,i32,i32,i32,16,32' --emit mlir | %mlir-opt --verify-each -o /dev/null
# RUN: %mytriton compile %s --kernel loop_rank2_kernel --signature '*fp32,*fp32,i32,i32,i32,16,32' --backend mlir --emit ptx | %FileCheck %s --check-prefix=PTX
# A runtime loop carrying a rank-2 block (one iter_arg per slot, 4 per
# thread at 16x32 and 4 warps), masks built from broadcast rank-1 aranges,
# and a row sum (axis 1) of the result.
# CHECK: = scf.for %v{{[0-9]+}} = %c_i32_0 to %K step %c_i32_1 iter_args(%v{{[0-9]+}}_0 = %c_f32_0_0, %v{{[0-9]+}}_1 = %c_f32_0_0, %v{{[0-9]+}}_2 = %c_f32_0_0, %v{{[0-9]+}}_3 = %c_f32_0_0) -> (f32, f32, f32, f32) : i32 {
# CHECK: scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32, f32, f32, f32
# CHECK: gpu.shuffle xor
# PTX: .visible .entry loop_rank2_kernel(
import mytriton as triton
import mytriton.language as tl


@triton.jit
def loop_rank2_kernel(a, out, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.program_id(0) * BM + tl.arange(0, BM)
    c = tl.arange(0, BN)
    offs = r[:, None] * N + c[None, :]
    mask = (r[:, None] < M) & (c[None, :] < N)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(K):
        acc += tl.load(a + k * M * N + offs, mask=mask, other=0.0)
    tl.store(out + offs, acc, mask=mask)
    tl.store(out + M * N + r, tl.sum(acc, axis=1), mask=r < M)
